// Mountebank's error shape: {"code": ..., "message": ..., "source"?: ...}. Every stage reports
// through it so the admin API can answer with Mountebank's exact error JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/ir.h"

namespace rift {

struct MbError {
  std::string code;     // "bad data", "invalid injection", ...
  std::string message;  // e.g. "'responses' must be a non-empty array"
  std::optional<ir::Json> source;
  // Injection errors only: the JavaScript error message, as Mountebank's `data`.
  std::optional<std::string> data;

  ir::Json to_json() const {
    ir::Json out = ir::Json::object();
    out["code"] = code;
    out["message"] = message;
    if (source) out["source"] = *source;
    if (data) out["data"] = *data;
    return out;
  }
  bool operator==(const MbError&) const = default;
};

using MbErrors = std::vector<MbError>;

inline MbError bad_data(std::string message, std::optional<ir::Json> source = std::nullopt) {
  return MbError{"bad data", std::move(message), std::move(source)};
}

}  // namespace rift
