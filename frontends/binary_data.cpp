#include "frontends/binary_data.h"

#include "compiler/base64.h"
#include "compiler/text_encoding.h"

namespace rift::frontends {
namespace {

void decode_strings(ir::Json& value) {
  if (value.is_string()) {
    value = to_valid_utf8(base64_decode_lenient(value.get<std::string>()));
  } else if (value.is_structured()) {
    for (auto& member : value) decode_strings(member);
  }
}

void decode_predicate(ir::Predicate& predicate) {
  for (auto& child : predicate.children) decode_predicate(child);
  if (!predicate.fields.is_object()) return;
  auto data = predicate.fields.find("data");
  if (data == predicate.fields.end()) return;
  decode_strings(*data);
  predicate.case_sensitive = true;
}

std::optional<MbError> refused(const ir::Predicate& predicate) {
  const char* selector = predicate.jsonpath ? "jsonpath" : predicate.xpath ? "xpath" : nullptr;
  if (selector) {
    return bad_data(std::string("the ") + selector +
                    " predicate parameter is not allowed in binary mode");
  }
  if (predicate.op == ir::Op::kMatches) {
    return bad_data("the matches predicate is not allowed in binary mode");
  }
  for (const auto& child : predicate.children) {
    if (auto error = refused(child)) return error;
  }
  return std::nullopt;
}

}  // namespace

std::optional<MbError> binary_mode_error(const std::vector<ir::Predicate>& predicates) {
  for (const auto& predicate : predicates) {
    if (auto error = refused(predicate)) return error;
  }
  return std::nullopt;
}

void decode_binary_data(std::vector<ir::Predicate>& predicates) {
  for (auto& predicate : predicates) decode_predicate(predicate);
}

}  // namespace rift::frontends
