#include "runtime/behaviors/shell_transform_step.h"

#include "runtime/behaviors/services.h"

namespace rift::behaviors {
namespace {

constexpr size_t kMaxShellCommandLength = 2048;

// JavaScript's String.prototype.length of UTF-8 text: code points, astral ones counting twice.
size_t utf16_length(std::string_view text) {
  size_t length = 0;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) == 0x80) continue;  // continuation byte
    length += byte >= 0xF0 ? 2 : 1;
  }
  return length;
}

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

// JSON.stringify: compact; text that is not UTF-8 is read with replacement characters, as Node
// decodes request bodies.
std::string stringify(const ir::Json& value) {
  return value.dump(-1, ' ', false, ir::Json::error_handler_t::replace);
}

MbError failure(std::string message) {
  return MbError{"invalid injection", std::move(message), std::nullopt};
}

}  // namespace

std::string shell_line(const std::string& command, const std::string& request_json,
                       const std::string& response_json) {
  const std::string mountebank_line = command + " '" + request_json + "' '" + response_json + "'";
  if (utf16_length(mountebank_line) >= kMaxShellCommandLength) return command;
  return command + " " + single_quoted(request_json) + " " + single_quoted(response_json);
}

void ShellTransformStep::apply(const StepContext& context, Flow flow, Next next) const {
  const std::string request_json = stringify(*context.request);
  const std::string response_json = stringify(flow.response);
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
        ir::Json parsed = ir::Json::parse(result.out, nullptr, /*allow_exceptions=*/false);
        if (parsed.is_discarded()) {
          next(failure("Shell command returned invalid JSON: '" + result.out + "'"));
          return;
        }
        next(Flow{std::move(parsed), delay});
      });
}

}  // namespace rift::behaviors
