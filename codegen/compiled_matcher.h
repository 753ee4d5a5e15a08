// The AOT tier: a generated Module (compiled_module.h) serving as a Matcher.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "codegen/compiled_module.h"
#include "compiler/matcher.h"
#include "compiler/plan.h"

namespace rift::compiled {

// A digest of everything the generated tables depend on: each stub's predicates, in order.
// The same stub list always plans into the same tree, so equal fingerprints mean a module's
// candidate and residual indexes are valid for the tree built at start-up.
uint64_t fingerprint(const std::vector<ir::Stub>& stubs);

class CompiledMatcher final : public Matcher {
 public:
  CompiledMatcher(const Module& module, std::shared_ptr<const plan::Tree> tree)
      : module_(module), tree_(std::move(tree)) {}
  int match(RequestContext& context) const override;
  const char* tier() const override { return "aot"; }

 private:
  const Module& module_;
  std::shared_ptr<const plan::Tree> tree_;
};

// The module's matcher for `stubs`, or why it cannot serve them (another stub list, another ABI).
std::variant<std::unique_ptr<Matcher>, std::string> bind(const Module& module,
                                                         const std::vector<ir::Stub>& stubs,
                                                         std::shared_ptr<const plan::Tree> tree);

}  // namespace rift::compiled
