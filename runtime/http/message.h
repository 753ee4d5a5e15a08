// The contract between the network layer and whatever serves requests on top of it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "compiler/request.h"

namespace boost::asio {
class io_context;
}

namespace rift::http {

// One parsed HTTP request, still in wire form: the request builder turns it into rift::Request.
struct Message {
  std::string method;  // upper case
  std::string target;  // raw request-target, e.g. "/a/b?x=1"
  int version_major = 1, version_minor = 1;
  rift::KeyValues headers;     // names exactly as sent, in order, repeats kept
  std::string body;            // de-chunked, NOT decompressed
  std::string remote_address;  // "127.0.0.1", "::1", or "::ffff:a.b.c.d" on a dual-stack socket
  uint16_t remote_port = 0;
  // The worker loop the request arrived on: where a handler runs its own I/O (proxying).
  boost::asio::io_context* loop = nullptr;
};

struct Reply {
  std::string bytes;                   // complete serialized response
  bool close = false;                  // close the connection after writing
  bool reset = false;                  // write nothing; drop the connection at once (RST)
  std::chrono::milliseconds delay{0};  // wait this long before writing (Mountebank `wait`)
};

// Call exactly once. Calling from a foreign thread is tolerated (the reply is posted to the
// connection's thread), but the worker thread that ran the handler is the cheap path.
using Respond = std::function<void(Reply)>;
using Handler = std::function<void(Message&&, Respond)>;

struct Limits {
  size_t max_header_bytes = 64 * 1024;
  size_t max_body_bytes = 10 * 1024 * 1024;
  // An https client that has not finished its handshake by then is disconnected, so silent
  // connections cannot pile up (Node's tls.Server default, which Mountebank runs with).
  std::chrono::milliseconds tls_handshake_timeout = std::chrono::seconds(120);
};

}  // namespace rift::http
