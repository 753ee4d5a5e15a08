#include "runtime/scripted_response.h"

#include <charconv>

namespace rift {
namespace {

bool is_function_wait(const ir::Behavior& behavior) {
  if (behavior.kind != ir::BehaviorKind::kWait || !behavior.config.is_string()) return false;
  // parseInt semantics: a string that starts with a number is a number of milliseconds.
  const auto& text = behavior.config.get_ref<const std::string&>();
  int64_t ignored = 0;
  return std::from_chars(text.data(), text.data() + text.size(), ignored).ec != std::errc();
}

int64_t numeric_wait(const ir::Json& value) {
  if (value.is_number()) return static_cast<int64_t>(value.get<double>());
  int64_t parsed = 0;
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    std::from_chars(text.data(), text.data() + text.size(), parsed);
  }
  return parsed;
}

// One response on its way through the engine: each step hands over to the next from the
// engine's callback, so no thread ever waits for JavaScript.
class Resolution : public std::enable_shared_from_this<Resolution> {
 public:
  Resolution(const script::ImposterScripts& scripts, const ir::Response& response, ir::Json request,
             ScriptedDone done)
      : scripts_(scripts),
        response_(response),
        request_(std::move(request)),
        done_(std::move(done)) {}

  // Behaviors only, on a response resolved elsewhere (a proxy's capture).
  void start_from(ir::Json resolved) {
    result_.response = std::move(resolved);
    behave(0);
  }

  void start() {
    if (response_.kind != ir::ResponseKind::kInject) {
      result_.response = response_.value;
      behave(0);
      return;
    }
    const std::string source =
        response_.value.is_string() ? response_.value.get<std::string>() : response_.value.dump();
    scripts_.respond(source, request_,
                     [self = shared_from_this()](script::Result<ir::Json> answer) {
                       if (self->failed(answer)) return;
                       self->result_.response = std::get<ir::Json>(std::move(answer));
                       self->behave(0);
                     });
  }

 private:
  template <typename T>
  bool failed(script::Result<T>& answer) {
    if (auto* error = std::get_if<MbError>(&answer)) {
      done_(std::move(*error));
      return true;
    }
    return false;
  }

  // Applies behaviors from `index` on, in order.
  void behave(size_t index) {
    for (; index < response_.behaviors.size(); ++index) {
      const ir::Behavior& behavior = response_.behaviors[index];
      if (behavior.kind == ir::BehaviorKind::kDecorate) {
        const std::string source = behavior.config.is_string() ? behavior.config.get<std::string>()
                                                               : behavior.config.dump();
        scripts_.decorate(source, request_, result_.response,
                          [self = shared_from_this(), index](script::Result<ir::Json> answer) {
                            if (self->failed(answer)) return;
                            self->result_.response = std::get<ir::Json>(std::move(answer));
                            self->behave(index + 1);
                          });
        return;
      }
      if (is_function_wait(behavior)) {
        scripts_.wait(
            behavior.config.get<std::string>(),
            [self = shared_from_this(), index](script::Result<std::chrono::milliseconds> answer) {
              if (self->failed(answer)) return;
              self->result_.delay += std::get<std::chrono::milliseconds>(answer);
              self->behave(index + 1);
            });
        return;
      }
      if (behavior.kind == ir::BehaviorKind::kWait) {
        const int64_t ms = numeric_wait(behavior.config);
        if (ms > 0) result_.delay += std::chrono::milliseconds(ms);
      }
    }
    done_(std::move(result_));
  }

  const script::ImposterScripts& scripts_;
  const ir::Response& response_;
  const ir::Json request_;
  ScriptedDone done_;
  ScriptedResponse result_;
};

}  // namespace

bool needs_scripts(const ir::Response& response) {
  if (response.kind == ir::ResponseKind::kInject) return true;
  for (const ir::Behavior& behavior : response.behaviors) {
    if (behavior.kind == ir::BehaviorKind::kDecorate || is_function_wait(behavior)) return true;
  }
  return false;
}

void resolve_scripted(const script::ImposterScripts& scripts, const ir::Response& response,
                      ir::Json request, ScriptedDone done) {
  std::make_shared<Resolution>(scripts, response, std::move(request), std::move(done))->start();
}

void apply_scripted_behaviors(const script::ImposterScripts& scripts, const ir::Response& response,
                              ir::Json resolved, ir::Json request, ScriptedDone done) {
  std::make_shared<Resolution>(scripts, response, std::move(request), std::move(done))
      ->start_from(std::move(resolved));
}

}  // namespace rift
