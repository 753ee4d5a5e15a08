#include "templates/json_path.h"

#include <cctype>

namespace rift::templates {

std::variant<JsonPath, std::string> JsonPath::parse(std::string_view text) {
  const std::string given(text);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  const auto bad = [&](const std::string& why) {
    return "request.json: invalid path '" + given + "': " + why;
  };
  if (text.empty() || text.front() != '$') return bad("it must start with '$'");
  JsonPath path;
  size_t at = 1;
  while (at < text.size()) {
    if (text[at] == '.') {
      size_t end = at + 1;
      while (end < text.size() && text[end] != '.' && text[end] != '[') ++end;
      if (end == at + 1) return bad("an empty key");
      path.steps_.push_back({std::string(text.substr(at + 1, end - at - 1)), std::nullopt});
      at = end;
    } else if (text[at] == '[') {
      size_t end = at + 1;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
      if (end == at + 1 || end >= text.size() || text[end] != ']' || end - at > 19) {
        return bad("an index is digits in brackets");
      }
      path.steps_.push_back({{}, std::stoull(std::string(text.substr(at + 1, end - at - 1)))});
      at = end + 1;
    } else {
      return bad("expected '.' or '[' at " + std::to_string(at));
    }
  }
  return path;
}

std::variant<const ir::Json*, std::string> JsonPath::find(const ir::Json& document) const {
  const ir::Json* current = &document;
  for (const Step& step : steps_) {
    if (step.index) {
      if (!current->is_array() || *step.index >= current->size()) {
        return "request.json: no index [" + std::to_string(*step.index) + "]";
      }
      current = &(*current)[*step.index];
    } else {
      if (!current->is_object()) return "request.json: no key '" + step.key + "'";
      auto it = current->find(step.key);
      if (it == current->end()) return "request.json: no key '" + step.key + "'";
      current = &*it;
    }
  }
  return current;
}

}  // namespace rift::templates
