#include "runtime/admin/call.h"

#include "compiler/ascii.h"
#include "runtime/http/query_string.h"
#include "runtime/http/url_path.h"

namespace rift {

ir::Json errors_body(const MbErrors& errors) {
  ir::Json list = ir::Json::array();
  for (const auto& error : errors) list.push_back(error.to_json());
  return ir::Json{{"errors", list}};
}

int refusal_status(const MbErrors& errors) {
  for (const auto& error : errors) {
    if (error.code == "resource conflict") return 409;
  }
  return 400;
}

Call::Call(const AdminRequest& request) : request_(request) {
  const std::string_view target = http::strip_scheme_and_authority(request.target);
  const size_t question = target.find('?');
  path_ = target.substr(0, question);
  if (path_.empty()) path_ = "/";
  if (question != std::string_view::npos) {
    query_ = http::parse_query_string(target.substr(question + 1));
  }
}

std::optional<std::string_view> Call::header(std::string_view name) const {
  const std::string* value = find_ignoring_case(request_.headers, name);
  if (value == nullptr) return std::nullopt;
  return *value;
}

std::optional<std::string_view> Call::query(std::string_view name) const {
  for (const auto& [key, value] : query_) {
    if (key == name) return value;
  }
  return std::nullopt;
}

std::vector<std::string_view> Call::queries(std::string_view name) const {
  std::vector<std::string_view> values;
  for (const auto& [key, value] : query_) {
    if (key == name) values.push_back(value);
  }
  return values;
}

std::string_view Call::raw_query() const {
  const std::string_view target = http::strip_scheme_and_authority(request_.target);
  const size_t question = target.find('?');
  return question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
}

bool Call::flag(std::string_view name) const {
  const auto value = query(name);
  return value && ascii::lower(*value) == "true";
}

bool Call::flag_not_false(std::string_view name) const {
  const auto value = query(name);
  return !value || ascii::lower(*value) != "false";
}

void Call::send(int status, const ir::Json& json, KeyValues headers) {
  send_json_text(status, json.dump(2), std::move(headers));
}

void Call::send_json_text(int status, std::string text, KeyValues headers) {
  send_raw(status, "application/json; charset=utf-8", std::move(text), std::move(headers));
}

void Call::send_raw(int status, std::string content_type, std::string body, KeyValues headers) {
  reply_.status = status;
  reply_.content_type = std::move(content_type);
  reply_.body = std::move(body);
  reply_.headers = cors_;
  for (auto& header : headers) reply_.headers.push_back(std::move(header));
  answered_ = true;
}

bool Call::negotiate() {
  const auto accept = header("accept");
  if (!accept || accept->empty()) return true;
  const std::string value = ascii::lower(*accept);
  for (const char* acceptable :
       {"*/*", "application/json", "application/*", "text/html", "text/*"}) {
    if (value.find(acceptable) != std::string::npos) return true;
  }
  send_raw(406, "text/plain; charset=utf-8", "Not Acceptable");
  return false;
}

void Call::add_cors_header(std::string name, std::string value) {
  cors_.emplace_back(std::move(name), std::move(value));
}

}  // namespace rift
