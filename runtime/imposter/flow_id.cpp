#include "runtime/imposter/flow_id.h"

#include <charconv>

namespace rift {

void assign_flow_id(const ir::FlowIdSource& source, int port, Request& request) {
  if (source.header) {
    if (const std::string* value = find_ignoring_case(request.headers, *source.header)) {
      // A field value's surrounding spaces and tabs are not part of it (RFC 9110 §5.5).
      std::string_view id = *value;
      while (!id.empty() && (id.front() == ' ' || id.front() == '\t')) id.remove_prefix(1);
      while (!id.empty() && (id.back() == ' ' || id.back() == '\t')) id.remove_suffix(1);
      request.flow_id.assign(id);
      return;
    }
  }
  char digits[16];
  const auto written = std::to_chars(digits, digits + sizeof digits, port);
  request.flow_id.assign(digits, written.ptr);
}

}  // namespace rift
