// The registry of matcher tiers the equivalence tester checks against the reference scan, and the
// slow-paths tier the interpreter is checked against.
//
// Each tier is a factory from a stub list to a Matcher. A compiled tier (JIT, AOT) plugs in as
// one more entry here and every generated (stub list, request) pair is then checked against it
// too, with no change to the tester.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "compiler/interpreter.h"
#include "compiler/matcher.h"
#include "compiler/plan.h"

namespace rift::equivalence {

// A stub list either compiles into a matcher or fails creation with Mountebank's error.
using Built = std::variant<std::unique_ptr<Matcher>, MbError>;
using TierFactory = std::function<Built(const std::vector<ir::Stub>&)>;

struct Tier {
  std::string name;
  TierFactory build;
};

// The interpreter over a tree planned for `protocol`'s request model.
inline Built build_planned(const std::vector<ir::Stub>& stubs, Protocol protocol) {
  auto tree = plan::build(stubs, protocol);
  if (auto* error = std::get_if<MbError>(&tree)) return *error;
  return std::make_unique<Interpreter>(std::get<std::shared_ptr<const plan::Tree>>(tree));
}

inline Built build_interpreter(const std::vector<ir::Stub>& stubs) {
  return build_planned(stubs, Protocol::kHttp);
}

// A tier that answers with RequestContext::slow_paths() set: every predicate evaluated the plain
// way, on its own (fields read generically, bodies parsed into whole trees and documents, no
// plain-field shortcut, no streaming, no cache shared between predicates).
class SlowPaths final : public Matcher {
 public:
  explicit SlowPaths(std::unique_ptr<Matcher> inner) : inner_(std::move(inner)) {}
  int match(RequestContext& context) const override {
    const bool was = context.slow_paths();
    context.set_slow_paths(true);
    struct Restore {
      RequestContext& context;
      bool was;
      ~Restore() { context.set_slow_paths(was); }
    } restore{context, was};
    return inner_->match(context);
  }
  const char* tier() const override { return inner_->tier(); }

 private:
  std::unique_ptr<Matcher> inner_;
};

// The interpreter with slow paths only: the oracle of the interpreter's fast paths.
inline Built build_slow_interpreter(const std::vector<ir::Stub>& stubs) {
  Built built = build_interpreter(stubs);
  if (auto* matcher = std::get_if<std::unique_ptr<Matcher>>(&built)) {
    *matcher = std::make_unique<SlowPaths>(std::move(*matcher));
  }
  return built;
}

inline Tier slow_interpreter_tier() {
  return Tier{"interpreter, slow paths only", &build_slow_interpreter};
}

// The same two for a tcp imposter's tree (docs/tcp.md), which dispatches on `data`.
inline Tier tcp_interpreter_tier() {
  return Tier{"interpreter (tcp)", [](const std::vector<ir::Stub>& stubs) {
                return build_planned(stubs, Protocol::kTcp);
              }};
}
inline Tier tcp_slow_interpreter_tier() {
  return Tier{"interpreter (tcp), slow paths only", [](const std::vector<ir::Stub>& stubs) {
                Built built = build_planned(stubs, Protocol::kTcp);
                if (auto* matcher = std::get_if<std::unique_ptr<Matcher>>(&built)) {
                  *matcher = std::make_unique<SlowPaths>(std::move(*matcher));
                }
                return built;
              }};
}

// Every tier checked against the reference scan. The JIT and AOT tiers have their own tests
// (tests/equivalence/jit, tests/equivalence/aot) over a corpus fixed at build time.
inline std::vector<Tier> tiers() {
  return {Tier{"interpreter", &build_interpreter}};
}

}  // namespace rift::equivalence
