#include "runtime/behaviors/shell_transform_step.h"

#include "compiler/js_value.h"
#include "compiler/nesting.h"
#include "runtime/behaviors/services.h"

namespace rift::behaviors {
namespace {

constexpr size_t kMaxShellCommandLength = 2048;

std::string single_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

MbError failure(std::string message) {
  return MbError{"invalid injection", std::move(message), std::nullopt};
}

}  // namespace

std::string shell_line(const std::string& command, const std::string& request_json,
                       const std::string& response_json) {
  const std::string mountebank_line = command + " '" + request_json + "' '" + response_json + "'";
  if (js::string_length(mountebank_line) >= kMaxShellCommandLength) return command;
  return command + " " + single_quoted(request_json) + " " + single_quoted(response_json);
}

void ShellTransformStep::apply(const StepContext& context, Flow flow, Next next) const {
  const std::string request_json = js::stringify(*context.request);
  const std::string response_json = js::stringify(flow.response);
  ShellCommand command;
  command.line = shell_line(command_, request_json, response_json);
  command.env = {{"MB_REQUEST", request_json}, {"MB_RESPONSE", response_json}};
  const std::string line = command.line;
  const auto delay = flow.delay;
  context.services->shell().run(
      std::move(command), [line, delay, next = std::move(next)](ShellResult result) {
        if (!result.spawned || !result.error.empty() || result.exit_code != 0) {
          // Node's exec error: "Command failed: <line>\n<stderr>".
          std::string message = "Command failed: " + line + "\n" + result.err;
          if (!result.spawned || (result.exit_code == 0 && result.err.empty())) {
            message += result.error;
          }
          next(failure(std::move(message)));
          return;
        }
        if (nesting::json_exceeds(result.out)) {
          next(failure("Shell command returned JSON with " + nesting::limit_message()));
          return;
        }
        ir::Json parsed = ir::Json::parse(result.out, nullptr, /*allow_exceptions=*/false);
        if (parsed.is_discarded()) {
          next(failure("Shell command returned invalid JSON: '" + result.out + "'"));
          return;
        }
        next(Flow{std::move(parsed), delay});
      });
}

}  // namespace rift::behaviors
