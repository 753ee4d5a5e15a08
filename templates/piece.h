// The pieces a template compiles into (template.h). Each dynamic piece knows its token as
// written, so a failure can say which one failed.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "templates/template.h"

namespace rift::templates {

struct Piece {
  virtual ~Piece() = default;
  // Appends the piece's text to `out`; on failure appends nothing and returns why.
  virtual std::optional<std::string> append(const Context& context, std::string& out) const = 0;
  virtual bool is_literal() const { return false; }
};

using Compiled = std::variant<std::shared_ptr<const Piece>, std::string>;

std::shared_ptr<const Piece> literal_piece(std::string text);
// `${request.<field>[.<name>]}`: field and name as the scanner matched them.
std::shared_ptr<const Piece> request_field_piece(std::string field, std::string name);
// `{{NOW}}`, `{{DAYS±N}}`, `{{MONTHS±N}}` (`unit` 'N', 'D' or 'M'); unset when N is out of
// range, so the token stays literal text.
std::shared_ptr<const Piece> date_piece(char unit, int64_t amount, std::string raw);
// `{{ head args | filter args ... }}`: `inner` is the text between the braces, `raw` the token.
Compiled function_piece(std::string_view inner, std::string raw);

}  // namespace rift::templates
