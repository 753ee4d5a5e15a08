#include "templates/template.h"

#include <cctype>

#include "templates/piece.h"

namespace rift::templates {
namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool ident_char(char c, bool dash) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (dash && c == '-');
}

// An identifier at `at`: its length (0 when there is none).
size_t identifier(std::string_view text, size_t at, bool dash) {
  if (at >= text.size() || !ident_start(text[at])) return 0;
  size_t end = at + 1;
  while (end < text.size() && ident_char(text[end], dash)) ++end;
  return end - at;
}

// `${request.<field>[.<name>]}` at `at` (the reference's exact token; anything else is text).
size_t scan_request_field(std::string_view text, size_t at, std::shared_ptr<const Piece>& piece) {
  constexpr std::string_view kOpen = "${request.";
  if (text.substr(at, kOpen.size()) != kOpen) return 0;
  size_t cursor = at + kOpen.size();
  const size_t field = identifier(text, cursor, false);
  if (field == 0) return 0;
  const std::string_view field_text = text.substr(cursor, field);
  cursor += field;
  std::string_view name;
  if (cursor < text.size() && text[cursor] == '.') {
    const size_t length = identifier(text, cursor + 1, true);
    if (length == 0) return 0;
    name = text.substr(cursor + 1, length);
    cursor += 1 + length;
  }
  if (cursor >= text.size() || text[cursor] != '}') return 0;
  piece = request_field_piece(std::string(field_text), std::string(name));
  return cursor + 1 - at;
}

// `{{NOW}}`, `{{DAYS±N}}`, `{{MONTHS±N}}` exactly (upper case, a sign, digits, no spaces).
size_t scan_date(std::string_view text, size_t at, std::shared_ptr<const Piece>& piece) {
  if (text.substr(at, 7) == "{{NOW}}") {
    piece = date_piece('N', 0, "{{NOW}}");
    return 7;
  }
  for (auto [word, unit] : {std::pair{std::string_view("{{DAYS"), 'D'}, {"{{MONTHS", 'M'}}) {
    if (text.substr(at, word.size()) != word) continue;
    size_t cursor = at + word.size();
    if (cursor >= text.size() || (text[cursor] != '+' && text[cursor] != '-')) return 0;
    const bool negative = text[cursor] == '-';
    const size_t digits_start = ++cursor;
    while (cursor < text.size() && std::isdigit(static_cast<unsigned char>(text[cursor]))) {
      ++cursor;
    }
    if (cursor == digits_start || text.substr(cursor, 2) != "}}") return 0;
    const std::string_view digits = text.substr(digits_start, cursor - digits_start);
    const size_t length = cursor + 2 - at;
    // Out of range: the token stays as it is written.
    if (digits.size() > 9) return 0;
    int64_t amount = std::stoll(std::string(digits));
    if (negative) amount = -amount;
    piece = date_piece(unit, amount, std::string(text.substr(at, length)));
    return piece ? length : 0;
  }
  return 0;
}

// `{{ inner }}` with no brace inside (so an unclosed `{{` is text), or 0.
size_t scan_function(std::string_view text, size_t at, std::string_view& inner) {
  if (text.substr(at, 2) != "{{") return 0;
  size_t cursor = at + 2;
  while (cursor < text.size() && text[cursor] != '{' && text[cursor] != '}') ++cursor;
  if (text.substr(cursor, 2) != "}}" || cursor == at + 2) return 0;
  inner = text.substr(at + 2, cursor - at - 2);
  return cursor + 2 - at;
}

}  // namespace

Template::~Template() = default;

std::variant<Template, std::string> Template::compile(std::string_view text, const Syntax& syntax) {
  Template out;
  // Most texts have no token at all: one search each, and no piece is built for them.
  const bool may_have_field = syntax.request_fields && text.find("${request.") != text.npos;
  const bool may_have_braces = (syntax.dates || syntax.functions) && text.find("{{") != text.npos;
  if (!may_have_field && !may_have_braces) {
    if (!text.empty()) out.pieces_.push_back(literal_piece(std::string(text)));
    return out;
  }
  std::string literal;
  const auto flush = [&] {
    if (!literal.empty()) out.pieces_.push_back(literal_piece(std::move(literal)));
    literal.clear();
  };
  for (size_t at = 0; at < text.size();) {
    std::shared_ptr<const Piece> piece;
    size_t length = 0;
    if (text[at] == '$' && syntax.request_fields) {
      length = scan_request_field(text, at, piece);
    } else if (text[at] == '{') {
      if (syntax.dates) length = scan_date(text, at, piece);
      std::string_view inner;
      if (length == 0 && syntax.functions) {
        length = scan_function(text, at, inner);
        if (length != 0) {
          auto compiled = function_piece(inner, std::string(text.substr(at, length)));
          if (auto* error = std::get_if<std::string>(&compiled)) return *error;
          piece = std::get<std::shared_ptr<const Piece>>(std::move(compiled));
        }
      }
    }
    if (length == 0) {
      literal.push_back(text[at++]);
      continue;
    }
    flush();
    out.pieces_.push_back(std::move(piece));
    at += length;
  }
  flush();
  return out;
}

bool Template::is_static() const {
  for (const auto& piece : pieces_) {
    if (!piece->is_literal()) return false;
  }
  return true;
}

std::string Template::render(const Context& context, std::string* failure) const {
  std::string out;
  for (const auto& piece : pieces_) {
    auto error = piece->append(context, out);
    if (error && failure != nullptr && failure->empty()) *failure = std::move(*error);
  }
  return out;
}

namespace {

class Literal final : public Piece {
 public:
  explicit Literal(std::string text) : text_(std::move(text)) {}
  std::optional<std::string> append(const Context&, std::string& out) const override {
    out.append(text_);
    return std::nullopt;
  }
  bool is_literal() const override { return true; }

 private:
  std::string text_;
};

}  // namespace

std::shared_ptr<const Piece> literal_piece(std::string text) {
  return std::make_shared<const Literal>(std::move(text));
}

}  // namespace rift::templates
