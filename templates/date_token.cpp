// `{{NOW}}`, `{{DAYS±N}}`, `{{MONTHS±N}}` (docs/templates.md#dates): the render's instant moved by
// N days or calendar months, in RFC 3339. A token whose date cannot be written stays as it is
// written, as in the reference Rift.
#include "templates/clock_text.h"
#include "templates/piece.h"

namespace rift::templates {
namespace {

class DateToken final : public Piece {
 public:
  DateToken(char unit, int64_t amount, std::string raw)
      : unit_(unit), amount_(amount), raw_(std::move(raw)) {}

  std::optional<std::string> append(const Context& context, std::string& out) const override {
    std::optional<Instant> at = Instant::of(context.now);
    if (unit_ == 'D') at = at->plus(std::chrono::days(amount_));
    if (unit_ == 'M') at = add_months(*at, amount_);
    std::optional<std::string> text = at ? rfc3339(*at) : std::nullopt;
    out.append(text ? *text : raw_);
    return std::nullopt;
  }

 private:
  char unit_;
  int64_t amount_;
  std::string raw_;
};

}  // namespace

std::shared_ptr<const Piece> date_piece(char unit, int64_t amount, std::string raw) {
  // Beyond ten thousand years no date can be written: the token is text.
  if (unit == 'D' && (amount > 3'660'000 || amount < -3'660'000)) return nullptr;
  return std::make_shared<const DateToken>(unit, amount, std::move(raw));
}

}  // namespace rift::templates
