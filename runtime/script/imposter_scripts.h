// One imposter's view of the script engine: its own `state`, opened on construction and dropped
// on destruction, and the four kinds of call Mountebank makes with it.
//
// Errors come back as Mountebank's 500 `invalid injection` errors
// (docs/mountebank-semantics.md §5.4), with the JavaScript message as `data` and the function as
// `source`, as Mountebank reports them.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "compiler/errors.h"
#include "compiler/predicate_injector.h"
#include "runtime/script/engine.h"

namespace rift::script {

template <typename T>
using Result = std::variant<T, MbError>;
template <typename T>
using Then = std::function<void(Result<T>)>;

class ImposterScripts : public PredicateInjector {
 public:
  ImposterScripts(EngineHandle engine, const std::string& label);
  ~ImposterScripts() override;
  ImposterScripts(const ImposterScripts&) = delete;
  ImposterScripts& operator=(const ImposterScripts&) = delete;

  // inject predicate (docs/mountebank-semantics.md §4.9): blocks the calling worker, bounded by
  // the time limit.
  bool holds(const std::string& source, const ir::Json& request) const override;
  // A tcp imposter's endOfRequestResolver (docs/tcp.md#framing): whether `data` (text, or
  // base64 when `binary`) is a whole request. Blocks like holds(); a function that throws says
  // no, as in Mountebank.
  bool ends_request(const std::string& source, const std::string& data, bool binary) const;

  // The asynchronous calls: `then` runs on the engine thread and must not block.
  // inject response (docs/mountebank-semantics.md §5.7): the response object the function returned
  // or passed to callback.
  void respond(const std::string& source, const ir::Json& request, Then<ir::Json> then) const;
  // decorate behavior (docs/mountebank-semantics.md §6.2): the decorated response.
  void decorate(const std::string& source, const ir::Json& request, const ir::Json& response,
                Then<ir::Json> then) const;
  // wait behavior given as a function: the delay it returned.
  void wait(const std::string& source, Then<std::chrono::milliseconds> then) const;
  // predicateGenerators `inject` (docs/mountebank-semantics.md §5.6): the predicates f({request,
  // logger}) returned, as an array.
  void generate(const std::string& source, const ir::Json& request, Then<ir::Json> then) const;
  // _rift.script (docs/scripts.md), with this imposter's logger; `done` runs on the engine thread.
  void script(ScriptRun run, Done done) const;
  // Why `code` does not compile, or nullopt: blocks the calling (control) thread briefly.
  std::optional<std::string> syntax_error(const std::string& code) const {
    return engine_.syntax_error(code);
  }

 private:
  const EngineHandle engine_;
  const uint64_t id_;
};

}  // namespace rift::script
