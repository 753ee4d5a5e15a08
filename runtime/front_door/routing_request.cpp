#include "runtime/front_door/routing_request.h"

#include "compiler/ascii.h"
#include "runtime/http/url_path.h"

namespace rift::front_door {

void build_routing_request(const http::Message& message, Request& out) {
  out.method.assign(message.method);
  std::string_view target = message.target;
  std::string_view authority;
  // An absolute-form target names the host itself (RFC 9112 §3.2.2): it wins over Host.
  if (const size_t scheme = target.find("://");
      scheme != std::string_view::npos && !target.starts_with('/')) {
    authority = target.substr(scheme + 3);
    authority = authority.substr(0, authority.find_first_of("/?"));
  }
  const std::string_view path = http::strip_scheme_and_authority(target);
  out.path.assign(path.substr(0, path.find('?')));
  if (out.path.empty()) out.path = "/";
  size_t filled = 0;
  auto& host = reuse_slot(out.headers, filled++);
  host.first.assign("host");
  const std::string* given = find_ignoring_case(message.headers, "host");
  host.second = http::host_of(!authority.empty() ? authority : given ? *given : std::string_view());
  for (const auto& [name, value] : message.headers) {
    if (ascii::iequals(name, "host")) continue;
    auto& slot = reuse_slot(out.headers, filled++);
    slot.first.resize(name.size());
    for (size_t i = 0; i < name.size(); ++i) slot.first[i] = ascii::lower(name[i]);
    slot.second.assign(value);
  }
  out.headers.resize(filled);
}

}  // namespace rift::front_door
