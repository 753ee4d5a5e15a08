// The dry-run check of a proxy's `to` (Mountebank's dryRunValidator): it must parse as a WHATWG
// URL, and an http(s) URL may not carry a path other than "/".
#pragma once

#include <optional>
#include <string>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// nullopt when `to` is acceptable; otherwise the error (without a source: Mountebank fills in
// the stub). `to` is the value of `proxy.to`, absent when the pointer is null.
std::optional<MbError> check_proxy_to(const ir::Json* to);

// The pathname a WHATWG URL parser gives `url`, or nullopt when `url` is not a valid URL.
// Only "special" schemes (http, https, ws, wss, ftp) get a real path; others yield "".
std::optional<std::string> url_pathname(const std::string& url);

}  // namespace rift::frontends
