#include "templates/response_template.h"

#include "compiler/js_value.h"

namespace rift::templates {
namespace {

std::string pointer_token(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// A header value cannot hold control characters: what a request put there (a CR LF in a query
// value) is dropped rather than let it start a header of its own.
void strip_controls(std::string& value) {
  std::erase_if(value, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

}  // namespace

std::optional<std::string> body_text(const ir::Json& body) {
  if (body.is_string()) return body.get<std::string>();
  if (body.is_object() || body.is_array()) return js::stringify(body, 4);
  return std::nullopt;
}

std::variant<ResponseTemplate, std::string> ResponseTemplate::compile(const ir::Json& is,
                                                                      bool templated) {
  ResponseTemplate out;
  if (!is.is_object()) return out;
  const auto add = [&](const std::string& pointer, const std::string& text,
                       const Syntax& syntax) -> std::optional<std::string> {
    auto compiled = Template::compile(text, syntax);
    if (auto* error = std::get_if<std::string>(&compiled)) {
      std::string field = "is" + pointer;
      for (char& c : field) c = c == '/' ? '.' : c;
      return "'" + field + "': " + *error;
    }
    Template& compiled_text = std::get<Template>(compiled);
    if (!compiled_text.is_static()) {
      out.parts_.push_back({ir::Json::json_pointer(pointer), std::move(compiled_text),
                            pointer.rfind("/headers/", 0) == 0});
    }
    return std::nullopt;
  };
  // Date tokens reach header values only in a templated response, as in the reference Rift.
  const Syntax body_syntax{.request_fields = true, .dates = true, .functions = templated};
  const Syntax header_syntax{.request_fields = true, .dates = templated, .functions = templated};
  if (auto body = is.find("body"); body != is.end()) {
    if (auto text = body_text(*body)) {
      if (auto error = add("/body", *text, body_syntax)) return *error;
    }
  }
  if (auto headers = is.find("headers"); headers != is.end() && headers->is_object()) {
    for (const auto& [name, value] : headers->items()) {
      const std::string at = "/headers/" + pointer_token(name);
      if (value.is_string()) {
        if (auto error = add(at, value.get<std::string>(), header_syntax)) return *error;
      } else if (value.is_array()) {
        for (size_t i = 0; i < value.size(); ++i) {
          if (!value[i].is_string()) continue;
          const std::string item = at + "/" + std::to_string(i);
          if (auto error = add(item, value[i].get<std::string>(), header_syntax)) return *error;
        }
      }
    }
  }
  return out;
}

ResponseTemplate ResponseTemplate::compile_default(const ir::Json& default_response) {
  ResponseTemplate out;
  if (!default_response.is_object()) return out;
  const auto body = default_response.find("body");
  if (body == default_response.end()) return out;
  const auto text = body_text(*body);
  if (!text) return out;
  auto compiled =
      Template::compile(*text, Syntax{.request_fields = false, .dates = true, .functions = false});
  if (auto* kept = std::get_if<Template>(&compiled); kept && !kept->is_static()) {
    out.parts_.push_back({ir::Json::json_pointer("/body"), std::move(*kept), false});
  }
  return out;
}

ir::Json ResponseTemplate::render(const ir::Json& is, const Context& context,
                                  std::string* failure) const {
  ir::Json out = is;
  for (const Part& part : parts_) {
    std::string text = part.text.render(context, failure);
    if (part.header) strip_controls(text);
    out[part.at] = std::move(text);
  }
  return out;
}

}  // namespace rift::templates
