#include "runtime/admin/process.h"

#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <string>

#include "runtime/admin/metrics_page.h"

namespace rift::admin {

void get_root(AdminState&, Call& call) {
  if (!call.negotiate()) return;
  call.send(200, ir::Json{{"_links",
                           {{"imposters", {{"href", call.base_url + "/imposters"}}},
                            {"config", {{"href", call.base_url + "/config"}}},
                            {"logs", {{"href", call.base_url + "/logs"}}}}}});
}

void get_config(AdminState& state, Call& call) {
  if (!call.negotiate()) return;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  char cwd[4096] = {};
  if (getcwd(cwd, sizeof(cwd)) == nullptr) cwd[0] = '\0';
  ir::Json process = ir::Json::object();
  process["nodeVersion"] = "n/a (Rift)";
  process["architecture"] = "x64";
  process["platform"] = "linux";
  process["rss"] = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  process["heapTotal"] = 0;
  process["heapUsed"] = 0;
  process["uptime"] = 0;
  process["cwd"] = cwd;
  call.send(200, ir::Json{{"version", "2.9.1"},
                          {"options", state.options.to_config_json()},
                          {"process", process}});
}

void get_logs(AdminState& state, Call& call) {
  if (!call.negotiate()) return;
  auto number = [&](const char* name) -> std::optional<long> {
    const auto text = call.query(name);
    if (!text) return std::nullopt;
    long value = 0;
    auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (error != std::errc()) return std::nullopt;
    return value;
  };
  call.send(200, state.logger.entries(number("startIndex"), number("endIndex")));
}

void get_metrics(AdminState& state, Call& call) {
  call.send_raw(200, "text/plain; version=0.0.4; charset=utf-8", render_admin_metrics(state));
}

}  // namespace rift::admin
