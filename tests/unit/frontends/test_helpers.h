// Shorthands shared by the frontends tests.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "compiler/errors.h"
#include "frontends/mountebank_json.h"

namespace rift::frontends::testing {

inline ir::Json json(const char* text) {
  return ir::Json::parse(text);
}

inline MbErrors imposter_errors(const ir::Json& body, bool allow_injection = false) {
  auto result = parse_imposter(body, ParseOptions{allow_injection});
  if (auto* errors = std::get_if<MbErrors>(&result)) return *errors;
  return {};
}

inline MbErrors stub_errors(const ir::Json& stub, bool allow_injection = false) {
  auto result = parse_stub(stub, ParseOptions{allow_injection});
  if (auto* errors = std::get_if<MbErrors>(&result)) return *errors;
  return {};
}

inline std::vector<std::string> messages(const MbErrors& errors) {
  std::vector<std::string> result;
  for (const auto& error : errors) result.push_back(error.message);
  return result;
}

// An http imposter holding the given stubs.
inline ir::Json imposter_with(const ir::Json& stubs) {
  ir::Json body = ir::Json::object();
  body["protocol"] = "http";
  body["port"] = 4545;
  body["stubs"] = stubs;
  return body;
}

}  // namespace rift::frontends::testing
