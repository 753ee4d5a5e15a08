#include "runtime/imposter/flow_id.h"

#include <charconv>

namespace rift {

void assign_flow_id(const ir::FlowIdSource& source, int port, Request& request) {
  if (source.header) {
    if (const std::string* value = find_ignoring_case(request.headers, *source.header)) {
      request.flow_id.assign(*value);
      return;
    }
  }
  char digits[16];
  const auto written = std::to_chars(digits, digits + sizeof digits, port);
  request.flow_id.assign(digits, written.ptr);
}

}  // namespace rift
