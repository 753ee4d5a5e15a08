#include "frontends/rift_fault.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace rift::frontends {
namespace {

constexpr const char* kKinds =
    "CONNECTION_RESET_BY_PEER (reset), EMPTY_RESPONSE (empty), RANDOM_DATA_THEN_CLOSE (random, "
    "garbage) or MALFORMED_RESPONSE_CHUNK (malformed)";

MbError field_error(const std::string& field, const std::string& rule, const ir::Json& value) {
  return bad_data("'_rift.fault." + field + "' " + rule, value);
}

// A probability: a number from 0 to 1; absent means always.
std::variant<double, MbError> probability(const ir::Json& part, const std::string& field) {
  auto it = part.find("probability");
  if (it == part.end()) return 1.0;
  if (!it->is_number() || !(it->get<double>() >= 0 && it->get<double>() <= 1)) {
    return field_error(field + ".probability", "must be a number between 0 and 1", *it);
  }
  return it->get<double>();
}

// A whole number of milliseconds, at most a day (a longer fault is a typo, not a test).
std::variant<int, MbError> milliseconds(const ir::Json& part, const std::string& field,
                                        const char* key) {
  auto it = part.find(key);
  if (it == part.end()) return 0;
  constexpr double kDay = 86'400'000;
  const bool whole = it->is_number() && std::floor(it->get<double>()) == it->get<double>();
  if (!whole || it->get<double>() < 0 || it->get<double>() > kDay) {
    return field_error(field + "." + key,
                       "must be a whole number of milliseconds from 0 to 86400000", *it);
  }
  return static_cast<int>(it->get<double>());
}

std::variant<ir::LatencyFault, MbError> parse_latency(const ir::Json& part) {
  if (!part.is_object()) return field_error("latency", "must be an object", part);
  ir::LatencyFault out;
  auto chance = probability(part, "latency");
  if (auto* error = std::get_if<MbError>(&chance)) return *error;
  out.probability = std::get<double>(chance);
  if (part.contains("ms")) {
    auto ms = milliseconds(part, "latency", "ms");
    if (auto* error = std::get_if<MbError>(&ms)) return *error;
    out.min_ms = out.max_ms = std::get<int>(ms);
    return out;
  }
  auto min = milliseconds(part, "latency", "minMs");
  if (auto* error = std::get_if<MbError>(&min)) return *error;
  auto max = milliseconds(part, "latency", "maxMs");
  if (auto* error = std::get_if<MbError>(&max)) return *error;
  out.min_ms = std::get<int>(min);
  // A range whose end is missing or below its start is the start alone (as the reference rolls).
  out.max_ms = std::max(out.min_ms, std::get<int>(max));
  return out;
}

std::variant<ir::ErrorFault, MbError> parse_error(const ir::Json& part) {
  if (!part.is_object()) return field_error("error", "must be an object", part);
  ir::ErrorFault out;
  auto chance = probability(part, "error");
  if (auto* error = std::get_if<MbError>(&chance)) return *error;
  out.probability = std::get<double>(chance);
  if (auto it = part.find("status"); it != part.end()) {
    const bool whole = it->is_number() && std::floor(it->get<double>()) == it->get<double>();
    if (!whole || it->get<double>() < 100 || it->get<double>() > 599) {
      return field_error("error.status", "must be an HTTP status code from 100 to 599", *it);
    }
    out.status = static_cast<int>(it->get<double>());
  }
  if (auto it = part.find("body"); it != part.end() && !it->is_null()) {
    if (!it->is_string()) return field_error("error.body", "must be a string", *it);
    out.body = it->get<std::string>();
  }
  if (auto it = part.find("headers"); it != part.end() && !it->is_null()) {
    if (!it->is_object()) return field_error("error.headers", "must be an object", *it);
    for (const auto& [name, value] : it->items()) {
      if (!value.is_string()) {
        return field_error("error.headers." + name, "must be a string", value);
      }
      out.headers.emplace_back(name, value.get<std::string>());
    }
  }
  return out;
}

std::variant<ir::TcpFault, MbError> parse_tcp(const ir::Json& part) {
  ir::TcpFault out;
  const ir::Json* type = &part;
  if (part.is_object()) {
    // The object form exists to carry a probability, so it must give one (as the reference asks).
    if (!part.contains("probability")) {
      return field_error("tcp.probability",
                         "is required in the object form (a bare fault-type string always fires)",
                         part);
    }
    auto chance = probability(part, "tcp");
    if (auto* error = std::get_if<MbError>(&chance)) return *error;
    out.probability = std::get<double>(chance);
    auto it = part.find("type");
    if (it == part.end()) return field_error("tcp.type", "is required in the object form", part);
    type = &*it;
  } else if (!part.is_string()) {
    return field_error("tcp", "must be a fault-type string or an object {probability, type}", part);
  }
  const std::string field = part.is_object() ? "tcp.type" : "tcp";
  if (!type->is_string()) return field_error(field, "must be a string", *type);
  out.name = type->get<std::string>();
  auto kind = tcp_fault_kind(out.name);
  if (!kind) return field_error(field, std::string("must be one of ") + kKinds, *type);
  out.kind = *kind;
  return out;
}

}  // namespace

std::optional<ir::TcpFaultKind> tcp_fault_kind(std::string_view name) {
  if (name == "CONNECTION_RESET_BY_PEER" || name == "reset") return ir::TcpFaultKind::kReset;
  if (name == "EMPTY_RESPONSE" || name == "empty") return ir::TcpFaultKind::kEmpty;
  if (name == "RANDOM_DATA_THEN_CLOSE" || name == "random" || name == "garbage") {
    return ir::TcpFaultKind::kRandomData;
  }
  if (name == "MALFORMED_RESPONSE_CHUNK" || name == "malformed") {
    return ir::TcpFaultKind::kMalformedChunk;
  }
  return std::nullopt;
}

std::variant<std::optional<ir::ResponseFault>, MbError> parse_rift_fault(const ir::Json& response) {
  if (!response.is_object()) return std::nullopt;
  auto block = response.find("_rift");
  if (block == response.end() || !block->is_object()) return std::nullopt;
  auto fault = block->find("fault");
  if (fault == block->end() || fault->is_null()) return std::nullopt;
  if (!fault->is_object()) return bad_data("'_rift.fault' must be an object", *fault);
  ir::ResponseFault out;
  if (auto it = fault->find("latency"); it != fault->end() && !it->is_null()) {
    auto latency = parse_latency(*it);
    if (auto* error = std::get_if<MbError>(&latency)) return *error;
    out.latency = std::get<ir::LatencyFault>(latency);
  }
  if (auto it = fault->find("tcp"); it != fault->end() && !it->is_null()) {
    auto tcp = parse_tcp(*it);
    if (auto* error = std::get_if<MbError>(&tcp)) return *error;
    out.tcp = std::get<ir::TcpFault>(tcp);
  }
  if (auto it = fault->find("error"); it != fault->end() && !it->is_null()) {
    auto error_fault = parse_error(*it);
    if (auto* error = std::get_if<MbError>(&error_fault)) return *error;
    out.error = std::get<ir::ErrorFault>(error_fault);
  }
  if (!out.latency && !out.tcp && !out.error) return std::nullopt;
  return out;
}

}  // namespace rift::frontends
