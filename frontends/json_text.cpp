#include "frontends/json_text.h"

#include <simdjson.h>

namespace rift::frontends {
namespace {

ir::Json convert(simdjson::dom::element element) {
  switch (element.type()) {
    case simdjson::dom::element_type::ARRAY: {
      const simdjson::dom::array array = element.get_array().value_unsafe();
      ir::Json out = ir::Json::array();
      out.get_ref<ir::Json::array_t&>().reserve(array.size());
      for (simdjson::dom::element child : array) out.push_back(convert(child));
      return out;
    }
    case simdjson::dom::element_type::OBJECT: {
      const simdjson::dom::object object = element.get_object().value_unsafe();
      ir::Json out = ir::Json::object();
      for (simdjson::dom::key_value_pair field : object) {
        out[std::string(field.key)] = convert(field.value);  // a repeated key: its last value
      }
      return out;
    }
    case simdjson::dom::element_type::INT64: {
      // nlohmann keeps what has no minus sign unsigned; comparisons and dump() do not care,
      // but is_number_unsigned() does.
      const int64_t value = element.get_int64().value_unsafe();
      if (value >= 0) return static_cast<uint64_t>(value);
      return value;
    }
    case simdjson::dom::element_type::UINT64:
      return element.get_uint64().value_unsafe();
    case simdjson::dom::element_type::DOUBLE:
      return element.get_double().value_unsafe();
    case simdjson::dom::element_type::STRING:
      return std::string(element.get_string().value_unsafe());
    case simdjson::dom::element_type::BOOL:
      return element.get_bool().value_unsafe();
    case simdjson::dom::element_type::NULL_VALUE:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

ir::Json parse_json_text(std::string_view text) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(text.data(), text.size(), true).get(root) == simdjson::SUCCESS) {
    return convert(root);
  }
  return ir::Json::parse(text, nullptr, false);
}

}  // namespace rift::frontends
