// One behavior as a step of the response pipeline (docs/mountebank-semantics.md §5.1 step 5, §6.2).
//
// Steps run in array order on the response as behaviors see it: before defaultResponse is
// merged. A step may finish at once (copy, lookup, wait) or later on another thread
// (shellTransform); either way it calls `next` exactly once.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "runtime/script/imposter_scripts.h"

namespace rift::behaviors {

class Services;

struct Flow {
  ir::Json response;                   // an `is`-shaped object (or whatever a step made of it)
  std::chrono::milliseconds delay{0};  // the `wait`s so far, served as one delay before writing
};

// A failed step ends the pipeline with Mountebank's 500 error JSON
// (docs/mountebank-semantics.md §5.4).
using Outcome = std::variant<Flow, MbError>;
using Next = std::function<void(Outcome)>;

struct StepContext {
  std::shared_ptr<const ir::Json> request;  // Mountebank's request JSON
                                            // (docs/mountebank-semantics.md §3)
  std::shared_ptr<Services> services;       // CSV cache, shell runner
  // The imposter's JavaScript (decorate, wait functions); null without --allowInjection.
  std::shared_ptr<const script::ImposterScripts> scripts;
};

class Step {
 public:
  virtual ~Step() = default;
  virtual void apply(const StepContext& context, Flow flow, Next next) const = 0;
};

}  // namespace rift::behaviors
