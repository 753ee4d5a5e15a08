// Tier 0: walks plan::Tree directly. Simple on purpose: it is the oracle for compiled tiers.
#pragma once

#include <memory>

#include "compiler/matcher.h"
#include "compiler/plan.h"

namespace rift {

class Interpreter final : public Matcher {
 public:
  explicit Interpreter(std::shared_ptr<const plan::Tree> tree) : tree_(std::move(tree)) {}
  int match(RequestContext& context) const override;
  const char* tier() const override { return "interpreter"; }
  const plan::Tree& tree() const { return *tree_; }

 private:
  std::shared_ptr<const plan::Tree> tree_;
};

}  // namespace rift
