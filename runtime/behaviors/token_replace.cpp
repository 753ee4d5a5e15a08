#include "runtime/behaviors/token_replace.h"

#include <utility>
#include <vector>

namespace rift::behaviors {
namespace {

// Length of the UTF-8 sequence starting with `lead` (1 for stray continuation bytes).
size_t utf8_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

void rewrite_value(ir::Json& value, const std::function<std::string(std::string)>& rewrite);

void rewrite_object(ir::Json& object, const std::function<std::string(std::string)>& rewrite) {
  std::vector<std::pair<std::string, std::string>> renames;
  for (auto it = object.begin(); it != object.end(); ++it) {
    rewrite_value(it.value(), rewrite);
    std::string renamed = rewrite(it.key());
    if (renamed != it.key()) renames.emplace_back(it.key(), std::move(renamed));
  }
  // obj[newKey] = obj[key]; delete obj[key] — in order, exactly as Mountebank does.
  for (auto& [key, renamed] : renames) {
    auto found = object.find(key);
    if (found == object.end()) {
      object.erase(renamed);  // an earlier rename consumed it: the new key holds `undefined`
      continue;
    }
    ir::Json moved = std::move(found.value());
    object.erase(key);
    object[renamed] = std::move(moved);
  }
}

void rewrite_value(ir::Json& value, const std::function<std::string(std::string)>& rewrite) {
  if (value.is_string()) {
    value = rewrite(value.get<std::string>());
  } else if (value.is_object()) {
    rewrite_object(value, rewrite);
  } else if (value.is_array()) {
    for (auto& element : value) rewrite_value(element, rewrite);
  }
}

}  // namespace

std::string replace_all(std::string_view text, std::string_view token, const JsText& replacement) {
  const std::string_view joiner = replacement ? std::string_view(*replacement) : ",";
  if (replacement && token == *replacement) return std::string(text);
  std::string out;
  if (token.empty()) {
    // "abc".split("") gives the characters; join puts the replacement between them.
    for (size_t i = 0; i < text.size();) {
      const size_t length =
          std::min(utf8_length(static_cast<unsigned char>(text[i])), text.size() - i);
      if (i > 0) out += joiner;
      out += text.substr(i, length);
      i += length;
    }
    return out;
  }
  size_t start = 0;
  while (true) {
    const size_t found = text.find(token, start);
    if (found == std::string_view::npos) break;
    out += text.substr(start, found - start);
    out += joiner;
    start = found + token.size();
  }
  out += text.substr(start);
  return out;
}

void rewrite_strings(ir::Json& response, const std::function<std::string(std::string)>& rewrite) {
  // Object.keys on a non-object response (a shellTransform may return one) finds nothing to do.
  if (response.is_object()) rewrite_object(response, rewrite);
}

void replace_indexed(ir::Json& response, const std::string& token, const Selection& values) {
  rewrite_strings(response, [&](std::string field) {
    for (size_t i = 0; i < values.size(); ++i) {
      field = replace_all(field, token + "[" + std::to_string(i) + "]", values[i]);
    }
    if (!values.empty()) field = replace_all(field, token, values[0]);
    return field;
  });
}

void replace_columns(ir::Json& response, const std::string& token, const CsvRow& row) {
  rewrite_strings(response, [&](std::string field) {
    for (const auto& [column, cell] : row) {
      for (const char* quote : {"\"", "'", ""}) {
        field = replace_all(field, token + "[" + quote + column + quote + "]", cell);
      }
    }
    return field;
  });
}

}  // namespace rift::behaviors
