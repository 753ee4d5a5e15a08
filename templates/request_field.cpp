// `${request.<field>[.<name>]}` (docs/templates.md#request-fields): always on, never an error;
// what the request does not have is the empty string, as in the reference Rift.
#include "templates/piece.h"
#include "templates/request_values.h"

namespace rift::templates {
namespace {

class RequestField final : public Piece {
 public:
  RequestField(std::string field, std::string name)
      : field_(std::move(field)), name_(std::move(name)) {}

  std::optional<std::string> append(const Context& context, std::string& out) const override {
    const Request& request = *context.request;
    if (name_.empty()) {
      if (field_ == "path") out.append(request.path);
      if (field_ == "method") out.append(request.method);
      if (field_ == "body" && request.body) out.append(*request.body);
      return std::nullopt;
    }
    const std::string* value = nullptr;
    if (field_ == "query") value = last_value(request.query, name_, false);
    if (field_ == "headers") value = last_value(request.headers, name_, true);
    if ((field_ == "pathParams" || field_ == "path_params") && context.path_params) {
      auto it = context.path_params->find(name_);
      if (it != context.path_params->end() && it->is_string()) {
        value = &it->get_ref<const std::string&>();
      }
    }
    if (value != nullptr) out.append(*value);
    return std::nullopt;
  }

 private:
  std::string field_;
  std::string name_;
};

}  // namespace

std::shared_ptr<const Piece> request_field_piece(std::string field, std::string name) {
  return std::make_shared<const RequestField>(std::move(field), std::move(name));
}

}  // namespace rift::templates
