// A tcp imposter's request (docs/tcp.md): Mountebank's tcpRequest model from the bytes a
// connection gathered.
#pragma once

#include "compiler/request.h"
#include "runtime/http/message.h"

namespace rift::tcp {

// {requestFrom: "<ip>:<port>", ip, data}: data is the bytes as UTF-8 text (invalid sequences as
// U+FFFD, Node's toString), or base64 in binary mode; what predicates compare is the text in
// both modes (Request::path).
void build_tcp_request(const http::Message& message, bool binary, Request& request);

}  // namespace rift::tcp
