// The templates of one `is` response (docs/templates.md#where): its body text and each header
// value, compiled together. The frontends compile it to refuse a bad template when the stub is
// created; the plan compiles it again and keeps it, so both read one rule.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir.h"
#include "templates/template.h"

namespace rift::templates {

class ResponseTemplate {
 public:
  // `templated`: the response's `_rift.templated`. The error names the field:
  // "'is.body': unknown template function: 'bogus' in `{{bogus}}`".
  static std::variant<ResponseTemplate, std::string> compile(const ir::Json& is, bool templated);
  // An imposter's `defaultResponse`, as the reference Rift templates it: the date tokens of its
  // body only; `${request.*}` and `{{ }}` functions stay as written. Never refused (a token that
  // is not a date is text).
  static ResponseTemplate compile_default(const ir::Json& default_response);

  // True when nothing in the response is dynamic: it is served as it is written.
  bool is_static() const { return parts_.empty(); }
  // The body's template when the body is the only dynamic text, else null.
  const Template* body_only() const {
    return parts_.size() == 1 && parts_[0].at == ir::Json::json_pointer("/body") ? &parts_[0].text
                                                                                 : nullptr;
  }
  // `is` with every templated text rendered (the body becomes its rendered text). The first
  // failure is described in `*failure` when given.
  ir::Json render(const ir::Json& is, const Context& context, std::string* failure) const;

 private:
  struct Part {
    ir::Json::json_pointer at;  // /body, /headers/X-Name, /headers/Set-Cookie/1
    Template text;
    bool header = false;
  };
  std::vector<Part> parts_;
};

// The text of a body as the response renderer writes it (an object or array as 4-space JSON), or
// unset for a body no template can be in (null, a number, a boolean).
std::optional<std::string> body_text(const ir::Json& body);

}  // namespace rift::templates
