#include "frontends/lenient_forms.h"

#include <array>
#include <charconv>
#include <optional>
#include <string>

namespace rift::frontends {
namespace {

constexpr std::array<const char*, 4> kResponseTypes = {"is", "proxy", "inject", "fault"};
constexpr std::array<const char*, 4> kFlatFields = {"statusCode", "headers", "body", "_mode"};

void rules_to_predicates(ir::Json& stub) {
  auto rules = stub.find("rules");
  if (rules == stub.end()) return;
  auto predicates = stub.find("predicates");
  const bool has_own = predicates != stub.end() && predicates->is_array() && !predicates->empty();
  if (!has_own) stub["predicates"] = std::move(*rules);
  stub.erase("rules");
}

bool has_script(const ir::Json& response) {
  auto block = response.find("_rift");
  return block != response.end() && block->is_object() && block->contains("script") &&
         !(*block)["script"].is_null();
}

bool has_fault(const ir::Json& response) {
  auto block = response.find("_rift");
  return block != response.end() && block->is_object() && block->contains("fault") &&
         !(*block)["fault"].is_null();
}

// No response type of Mountebank's and no script, but the fields of an `is`, or a `_rift.fault`
// to act on an empty one.
bool is_flat(const ir::Json& response) {
  if (!response.is_object() || has_script(response)) return false;
  for (const char* type : kResponseTypes) {
    if (response.contains(type)) return false;
  }
  for (const char* field : kFlatFields) {
    if (response.contains(field)) return true;
  }
  return has_fault(response);
}

// `behaviors` written as one object, like Mountebank's old `_behaviors` (on which Mountebank
// itself crashes): moved there, for the compatibility upcast to turn into an array.
void behaviors_object_to_legacy(ir::Json& response) {
  auto behaviors = response.find("behaviors");
  if (behaviors == response.end() || !behaviors->is_object() || response.contains("_behaviors")) {
    return;
  }
  response["_behaviors"] = std::move(*behaviors);
  response.erase("behaviors");
}

void flat_to_is(ir::Json& response) {
  ir::Json is = ir::Json::object();
  for (const char* field : kFlatFields) {
    auto it = response.find(field);
    if (it == response.end()) continue;
    is[field] = std::move(*it);
    response.erase(it);
  }
  response["is"] = std::move(is);
}

// A whole number of milliseconds up to Node's longest timer, written as a number or a numeric
// string.
std::optional<int64_t> milliseconds(const ir::Json& value) {
  constexpr uint64_t kMost = 2147483647;
  uint64_t out = 0;
  if (value.is_number_unsigned()) {
    out = value.get<uint64_t>();
  } else if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (out > kMost) return std::nullopt;
  return static_cast<int64_t>(out);
}

// The wait a `delayRange` stands for (its first entry, as in the reference), or the 400.
std::variant<std::optional<ir::Json>, MbError> delay_range_wait(const ir::Json& stub) {
  auto range = stub.find("delayRange");
  if (range == stub.end() || range->is_null()) return std::nullopt;
  if (!range->is_array()) return bad_data("'delayRange' must be an array of {min, max}", *range);
  if (range->empty()) return std::nullopt;
  const ir::Json& first = range->front();
  if (!first.is_object()) return bad_data("'delayRange[0]' must be an object {min, max}", first);
  std::optional<int64_t> bounds[2];
  const char* names[2] = {"min", "max"};
  for (int i = 0; i < 2; ++i) {
    auto it = first.find(names[i]);
    if (it != first.end()) bounds[i] = milliseconds(*it);
    if (!bounds[i]) {
      return bad_data(std::string("'delayRange[0].") + names[i] +
                          "' must be a whole number of milliseconds up to 2147483647 (a number "
                          "or a numeric string)",
                      first);
    }
  }
  if (*bounds[1] < *bounds[0]) return bad_data("'delayRange[0].max' is less than its min", first);
  if (*bounds[0] == *bounds[1]) return ir::Json(*bounds[0]);
  return ir::Json{{"min", *bounds[0]}, {"max", *bounds[1]}};
}

bool has_wait(const ir::Json& response) {
  auto behaviors = response.find("behaviors");
  if (behaviors == response.end() || !behaviors->is_array()) return false;
  for (const auto& behavior : *behaviors) {
    if (behavior.is_object() && behavior.contains("wait")) return true;
  }
  return false;
}

void add_wait(ir::Json& response, const ir::Json& wait) {
  if (!response.contains("is")) return;
  auto legacy = response.find("_behaviors");
  if (legacy != response.end() && legacy->is_object() && !response.contains("behaviors")) {
    if (!legacy->contains("wait")) (*legacy)["wait"] = wait;  // upcast next
    return;
  }
  if (has_wait(response)) return;
  ir::Json& behaviors = response["behaviors"];
  if (behaviors.is_null()) behaviors = ir::Json::array();
  if (!behaviors.is_array()) return;  // the behavior validator reports it
  behaviors.push_back(ir::Json{{"wait", wait}});
}

}  // namespace

std::variant<ir::Json, MbError> lenient_stub(ir::Json stub) {
  if (!stub.is_object()) return stub;
  rules_to_predicates(stub);
  auto wait = delay_range_wait(stub);
  if (auto* error = std::get_if<MbError>(&wait)) return *error;
  stub.erase("delayRange");
  auto responses = stub.find("responses");
  if (responses == stub.end() || !responses->is_array()) return stub;
  for (auto& response : *responses) {
    if (!response.is_object()) continue;
    if (is_flat(response)) flat_to_is(response);
    behaviors_object_to_legacy(response);
    if (const auto& value = std::get<std::optional<ir::Json>>(wait); value) {
      add_wait(response, *value);
    }
  }
  return stub;
}

}  // namespace rift::frontends
