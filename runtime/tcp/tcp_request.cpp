#include "runtime/tcp/tcp_request.h"

#include "compiler/base64.h"
#include "compiler/text_encoding.h"

namespace rift::tcp {

void build_tcp_request(const http::Message& message, bool binary, Request& request) {
  // Assigned in place: a connection's Message keeps its Request, so after the first request the
  // strings reuse their capacity.
  request.protocol = Protocol::kTcp;
  request.method.clear();
  request.query.clear();
  request.headers.clear();
  request.form.reset();
  assign_valid_utf8(request.path, message.body);
  if (!request.body) request.body.emplace();
  if (binary) {
    *request.body = base64_encode(message.body);
  } else {
    request.body->assign(request.path);
  }
  request.ip.assign(message.remote_address);
  request.request_from.assign(message.remote_address).push_back(':');
  request.request_from.append(std::to_string(message.remote_port));
}

}  // namespace rift::tcp
