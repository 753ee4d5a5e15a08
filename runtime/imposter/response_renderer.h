// Turns an `is` response into bytes on the wire the way Mountebank (and Node's http module under
// it) does: defaults merged (docs/mountebank-semantics.md §5.2), header fix-ups (§5.3), chunked or
// Content-Length framing.
//
// Rendering happens once per response when the plan is published; only the Date header, which
// changes every second, is spliced in per request.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "compiler/request.h"
#include "runtime/http/message.h"

namespace rift {

// What about the request changes the bytes of a response.
struct WireContext {
  bool head = false;                // HEAD: headers only
  bool http10 = false;              // HTTP/1.0: no chunked framing, close-delimited body
  bool client_close = false;        // the request asked to close (or 1.0 without keep-alive)
  KeyValues extra_headers;          // e.g. allowCORS echoes, added after the response's own headers
  bool keep_alive_default = false;  // --keepAlive: no implicit `Connection: close`
  // `x-rift-imposter: true`, which every answer of an imposter carries
  // (docs/rift-compatibility.md#marker-headers).
  bool imposter_marker = false;
  // A tcp imposter's answer (runtime/imposter/tcp_wire.h): its data alone, no HTTP around it;
  // base64-decoded in binary mode.
  enum class Wire : uint8_t { kHttp, kTcpText, kTcpBinary };
  Wire wire = Wire::kHttp;
};

struct WireResponse {
  int status = 200;
  std::string before_date;  // status line and the headers Node writes before Date
  std::string after_date;   // the headers after Date, the blank line and the framed body
  bool add_date = true;     // false when the response sets its own Date
  bool close = true;        // close the connection after writing

  std::string serialize(std::string_view date_header_value) const;
  // The reply without a copy: its pieces point into this response (and the thread's Date line),
  // so it must outlive the Respond call the reply is given to.
  void lend_to(http::Reply& reply) const;
};

// Merges `is` with `defaults` and renders it. An invalid status code gives Mountebank's 500 error.
std::variant<WireResponse, MbError> render_response(const ir::Json& is,
                                                    const std::optional<ir::Json>& defaults,
                                                    const WireContext& context);

// Mountebank's runtime failure answer: 500, application/json, {"errors":[error]}.
WireResponse render_error(const MbError& error, const WireContext& context);

// The marker a request no stub answered gets: `x-rift-no-match` for the empty 200,
// `x-rift-default-response` when the imposter's defaultResponse answers.
KeyValues no_match_markers(bool has_default_response);

// "Wed, 02 Dec 2026 13:05:10 GMT", recomputed at most once a second per thread.
std::string_view http_date_now();
// The same as a header line: "Date: Wed, 02 Dec 2026 13:05:10 GMT\r\n".
std::string_view http_date_line_now();

// The head of an HTTP/1.1 response Rift writes itself (the admin API, the gateway, the metrics
// port): status line, headers, Date, Connection, blank line.
std::string response_head(int status, const KeyValues& headers, bool close);

}  // namespace rift
