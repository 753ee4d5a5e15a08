#include "runtime/tcp/tcp_request.h"

#include "compiler/base64.h"
#include "compiler/text_encoding.h"

namespace rift::tcp {

void build_tcp_request(const http::Message& message, bool binary, Request& request) {
  request.protocol = Protocol::kTcp;
  request.method.clear();
  request.query.clear();
  request.headers.clear();
  request.form.reset();
  assign_valid_utf8(request.path, message.body);
  if (binary) {
    request.body = base64_encode(message.body);
  } else {
    request.body = request.path;
  }
  request.ip = message.remote_address;
  request.request_from = message.remote_address + ":" + std::to_string(message.remote_port);
}

}  // namespace rift::tcp
