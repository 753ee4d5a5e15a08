// A response's `_rift.fault` (the reference Rift's probabilistic faults, docs/faults.md): checked
// whole when the stub is created, so a bad shape is a 400 naming the field, never a failure per
// request.
#pragma once

#include <optional>
#include <variant>

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift::frontends {

// Unset without `_rift.fault` (or with `"fault": null`).
std::variant<std::optional<ir::ResponseFault>, MbError> parse_rift_fault(const ir::Json& response);

// The kind a tcp fault name stands for (`reset`, `CONNECTION_RESET_BY_PEER` ...), if any.
std::optional<ir::TcpFaultKind> tcp_fault_kind(std::string_view name);

}  // namespace rift::frontends
