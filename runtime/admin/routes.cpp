#include "runtime/admin/routes.h"

#include <array>
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "runtime/admin/flow_state.h"
#include "runtime/admin/front_door_routes.h"
#include "runtime/admin/imposters.h"
#include "runtime/admin/inspection.h"
#include "runtime/admin/intercept_routes.h"
#include "runtime/admin/journal.h"
#include "runtime/admin/process.h"
#include "runtime/admin/reload.h"
#include "runtime/admin/scenarios.h"
#include "runtime/admin/spaces.h"
#include "runtime/admin/stub_ids.h"
#include "runtime/admin/stubs.h"
#include "runtime/admin/verify.h"

namespace rift::admin {
namespace {

constexpr auto kStubsChanged = events::Action::stubs_changed;
constexpr auto kEnabledChanged = events::Action::enabled_changed;

// clang-format off
constexpr std::array kRoutes = {
    Route{"GET",    "/",                                  get_root},
    Route{"GET",    "/imposters",                         get_imposters},
    Route{"POST",   "/imposters",                         post_imposter},
    Route{"PUT",    "/imposters",                         put_imposters},
    Route{"DELETE", "/imposters",                         delete_imposters},
    Route{"GET",    "/imposters/:id",                     get_imposter, kNeedsImposter},
    Route{"DELETE", "/imposters/:id",                     delete_imposter},
    Route{"GET",    "/imposters/:id/stubs",               get_stubs, kNeedsImposter},
    Route{"PUT",    "/imposters/:id/stubs",               put_stubs, kNeedsImposter, kStubsChanged},
    Route{"POST",   "/imposters/:id/stubs",               post_stub, kNeedsImposter, kStubsChanged},
    Route{"GET",    "/imposters/:id/stubs/:stubIndex",    get_stub, kNeedsImposter},
    Route{"PUT",    "/imposters/:id/stubs/:stubIndex",    put_stub, kNeedsImposter, kStubsChanged},
    Route{"DELETE", "/imposters/:id/stubs/:stubIndex",    delete_stub,
          kNeedsImposter, kStubsChanged},
    Route{"GET",    "/imposters/:id/stubs/by-id/:stubId", get_stub_by_id, kNeedsImposter},
    Route{"PUT",    "/imposters/:id/stubs/by-id/:stubId", put_stub_by_id,
          kNeedsImposter, kStubsChanged},
    Route{"DELETE", "/imposters/:id/stubs/by-id/:stubId", delete_stub_by_id,
          kNeedsImposter, kStubsChanged},
    Route{"POST",   "/imposters/:id/enable",              post_enable,
          kNeedsImposter, kEnabledChanged},
    Route{"POST",   "/imposters/:id/disable",             post_disable,
          kNeedsImposter, kEnabledChanged},
    Route{"DELETE", "/imposters/:id/savedProxyResponses", delete_saved_proxy_responses,
          kNeedsImposter},
    // Mountebank keeps this older name for the same call.
    Route{"DELETE", "/imposters/:id/requests",            delete_saved_proxy_responses,
          kNeedsImposter},
    Route{"GET",    "/imposters/:id/savedRequests",       get_saved_requests, kNeedsImposter},
    // The reference Rift's older name for the same read.
    Route{"GET",    "/imposters/:id/requests",            get_saved_requests, kNeedsImposter},
    Route{"DELETE", "/imposters/:id/savedRequests",       delete_saved_requests, kNeedsImposter},
    Route{"POST",   "/imposters/:id/spaces/:space/stubs", post_space_stub,
          kNeedsImposter, kStubsChanged},
    Route{"GET",    "/imposters/:id/spaces/:space/stubs", get_space_stubs, kNeedsImposter},
    Route{"GET",    "/imposters/:id/spaces/:space",       get_space, kNeedsImposter},
    Route{"DELETE", "/imposters/:id/spaces/:space",       delete_space,
          kNeedsImposter, kStubsChanged},
    Route{"GET",    "/admin/imposters/:id/flow-state/:flow/:key", get_flow_value, kNeedsImposter},
    Route{"PUT",    "/admin/imposters/:id/flow-state/:flow/:key", put_flow_value, kNeedsImposter},
    Route{"DELETE", "/admin/imposters/:id/flow-state/:flow/:key", delete_flow_value,
          kNeedsImposter},
    Route{"DELETE", "/admin/imposters/:id/flow-state/:flow", delete_flow, kNeedsImposter},
    Route{"GET",    "/imposters/:id/scenarios",           get_scenarios, kNeedsImposter},
    Route{"PUT",    "/imposters/:id/scenarios/:name/state", put_scenario_state, kNeedsImposter},
    Route{"POST",   "/imposters/:id/scenarios/reset",     post_scenarios_reset, kNeedsImposter},
    Route{"POST",   "/imposters/:id/verify",              post_verify,
          kNeedsImposter | kChangesNothing},
    Route{"GET",    "/imposters/:id/plan",                get_plan, kNeedsImposter},
    Route{"POST",   "/imposters/:id/explain",             post_explain,
          kNeedsImposter | kChangesNothing},
    Route{"POST",   "/admin/reload",                      post_reload},
    Route{"GET",    "/front-door/routes",                 get_front_door_routes},
    Route{"PUT",    "/front-door/routes",                 put_front_door_routes},
    Route{"GET",    "/front-door/certificates",           get_front_door_certificates},
    Route{"PUT",    "/front-door/certificates",           put_front_door_certificates},
    Route{"POST",   "/intercept",                         post_intercept},
    Route{"GET",    "/intercept",                         get_intercept},
    Route{"DELETE", "/intercept",                         delete_intercept},
    Route{"POST",   "/intercept/rules",                   post_intercept_rules},
    Route{"GET",    "/intercept/rules",                   get_intercept_rules},
    Route{"DELETE", "/intercept/rules",                   delete_intercept_rules},
    Route{"GET",    "/intercept/ca.pem",                  get_intercept_ca},
    Route{"GET",    "/intercept/truststore.p12",          get_intercept_p12},
    Route{"GET",    "/intercept/truststore.jks",          get_intercept_jks},
    Route{"GET",    "/config",                            get_config},
    Route{"GET",    "/logs",                              get_logs},
    Route{"GET",    "/metrics",                           get_metrics},
};
// clang-format on

// The non-empty segments of a path: "//imposters/" is ["imposters"], as Express routes it.
std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > start) parts.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

struct Parameters {
  std::string_view id;
  std::string_view stub_index;
  std::string_view space;
  std::string_view flow;
  std::string_view key;
  std::string_view name;
  std::string_view stub_id;
};

bool matches(std::string_view pattern, const std::vector<std::string_view>& path,
             Parameters& parameters) {
  const auto wanted = segments(pattern);
  if (wanted.size() != path.size()) return false;
  Parameters found;
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (wanted[i] == ":id") {
      found.id = path[i];
    } else if (wanted[i] == ":stubIndex") {
      found.stub_index = path[i];
    } else if (wanted[i] == ":space") {
      found.space = path[i];
    } else if (wanted[i] == ":flow") {
      found.flow = path[i];
    } else if (wanted[i] == ":key") {
      found.key = path[i];
    } else if (wanted[i] == ":name") {
      found.name = path[i];
    } else if (wanted[i] == ":stubId") {
      found.stub_id = path[i];
    } else if (wanted[i] != path[i]) {
      return false;
    }
  }
  parameters = found;
  return true;
}

bool answers(const Route& route, std::string_view method) {
  return route.method == method || (method == "HEAD" && route.method == "GET");
}

std::optional<int> number(std::string_view text) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Express's finalhandler page: "Cannot METHOD PATH", the path through encodeurl (what is not
// a URL character becomes %XX, existing escapes stay), the whole message HTML-escaped.
std::string not_found_page(std::string_view method, std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const auto is_hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  const auto url_char = [](unsigned char c) {
    return c == 0x21 || (c >= 0x23 && c <= 0x3B) || c == 0x3D || (c >= 0x3F && c <= 0x5F) ||
           (c >= 0x61 && c <= 0x7A) || c == 0x7C || c == 0x7E;
  };
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>Error</title>\n</head>\n<body>\n<pre>";
  const auto append_escaped = [&page](char c) {
    switch (c) {
      // clang-format off
      case '&': page += "&amp;"; return;
      case '<': page += "&lt;"; return;
      case '>': page += "&gt;"; return;
      case '"': page += "&quot;"; return;
      case '\'': page += "&#39;"; return;
      default: page += c;
        // clang-format on
    }
  };
  page += "Cannot ";
  for (char c : method) append_escaped(c);
  page += ' ';
  for (size_t i = 0; i < path.size(); ++i) {
    const auto c = static_cast<unsigned char>(path[i]);
    const bool escape_kept =
        c == '%' && i + 2 < path.size() && is_hex(path[i + 1]) && is_hex(path[i + 2]);
    if (url_char(c) && (c != '%' || escape_kept)) {
      append_escaped(static_cast<char>(c));
    } else {
      page += '%';
      page += kHex[c >> 4];
      page += kHex[c & 0xF];
    }
  }
  page += "</pre>\n</body>\n</html>\n";
  return page;
}

void not_found(Call& call) {
  call.send_raw(404, "text/html; charset=utf-8", not_found_page(call.method(), call.path()));
}

}  // namespace

std::span<const Route> routes() {
  return kRoutes;
}

void route(AdminState& state, Call& call) {
  const auto path = segments(call.path());
  const std::string& method = call.method();
  const Route* chosen = nullptr;
  bool known_path = false;
  bool changes_nothing = false;
  Parameters parameters;
  for (const Route& row : kRoutes) {
    Parameters found;
    if (!matches(row.pattern, path, found)) continue;
    known_path = true;
    if ((row.flags & kChangesNothing) != 0) changes_nothing = true;
    if (chosen == nullptr && answers(row, method)) {
      chosen = &row;
      parameters = found;
    }
  }
  if (!known_path) return not_found(call);
  if (method == "OPTIONS") {
    return call.send_raw(200, "text/html; charset=utf-8", "GET,HEAD,PUT,POST,DELETE");
  }
  // A frozen mock's imposters are compiled into it: it answers reads (and explain, which
  // changes nothing) and refuses every edit, so the artifact always serves what was built.
  const bool reads = method == "GET" || method == "HEAD";
  if (state.options.frozen && !reads && !changes_nothing) {
    return call.fail(405, {MbError{"read only",
                                   "this is a frozen mock built by riftc compile: its imposters "
                                   "cannot be changed at run time (" +
                                       method + " " + call.path() +
                                       "); rebuild it from the changed config instead",
                                   std::nullopt}});
  }
  if (chosen == nullptr) return not_found(call);

  call.port = number(parameters.id);
  call.stub_index = std::string(parameters.stub_index);
  call.space = std::string(parameters.space);
  call.flow = std::string(parameters.flow);
  call.key = std::string(parameters.key);
  call.name = std::string(parameters.name);
  call.stub_id = std::string(parameters.stub_id);
  std::shared_ptr<Imposter> imposter;  // held for the call: a handler may remove it
  if ((chosen->flags & kNeedsImposter) != 0) {
    imposter = call.port ? state.registry.find(*call.port) : nullptr;
    if (!imposter) {
      return call.fail(404, {MbError{"no such resource", kNoSuchResource, std::nullopt}});
    }
    call.imposter = imposter.get();
  }
  chosen->handler(state, call);
  const int status = call.status();
  if (chosen->announces && call.port && status >= 200 && status < 300) {
    state.announce(*chosen->announces, *call.port);
  }
}

}  // namespace rift::admin
