// One request to a proxy's origin over HTTP or HTTPS, run on the calling worker's event loop.
//
// Outbound TLS does not verify the origin (Mountebank sets rejectUnauthorized: false); a client
// certificate and key can be presented for origins that ask for one.
#pragma once

#include <boost/asio/io_context.hpp>
#include <functional>
#include <optional>
#include <string>
#include <variant>

#include "compiler/errors.h"
#include "compiler/request.h"

namespace rift::proxy {

struct Origin {
  bool tls = false;
  std::string host;  // as in the URL; IPv6 without brackets
  std::string port;  // numeric, defaulted from the scheme
  std::string to;    // the proxy's `to`, for error messages
};

// Parses `scheme://host[:port]`; nullopt for anything else.
std::optional<Origin> parse_origin(const std::string& to);

struct OutboundRequest {
  std::string method;
  std::string target;  // raw: path plus the exact query bytes
  KeyValues headers;   // in wire order, one line each
  std::string body;
};

struct ClientTls {
  std::optional<std::string> cert, key, passphrase;
  std::string ciphers = "ALL";
};

struct OriginResponse {
  int status = 0;
  KeyValues headers;  // names as the origin spelled them, in order, repeats kept
  std::string body;   // as received (de-chunked, never decompressed)
};

using OriginResult = std::variant<OriginResponse, MbError>;

// Calls `done` on `loop` exactly once, with the response or Mountebank's `invalid proxy` error.
void fetch(boost::asio::io_context& loop, Origin origin, OutboundRequest request, ClientTls tls,
           std::function<void(OriginResult)> done);

}  // namespace rift::proxy
