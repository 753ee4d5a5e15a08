// A `{{ head args | filter args ... }}` token: its stages compiled once, run left to right.
#include <vector>

#include "templates/piece.h"
#include "templates/stages.h"
#include "templates/words.h"

namespace rift::templates {
namespace {

class Function final : public Piece {
 public:
  Function(std::unique_ptr<const Head> head, std::vector<std::unique_ptr<const Filter>> filters,
           std::string raw)
      : head_(std::move(head)), filters_(std::move(filters)), raw_(std::move(raw)) {}

  std::optional<std::string> append(const Context& context, std::string& out) const override {
    std::string value;
    auto error = head_->evaluate(context, value);
    for (size_t i = 0; !error && i < filters_.size(); ++i) error = filters_[i]->apply(value);
    if (error) return *error + " in `" + raw_ + "`";
    out.append(value);
    return std::nullopt;
  }

 private:
  std::unique_ptr<const Head> head_;
  std::vector<std::unique_ptr<const Filter>> filters_;
  std::string raw_;
};

}  // namespace

Compiled function_piece(std::string_view inner, std::string raw) {
  const auto in = [&](const std::string& reason) { return reason + " in `" + raw + "`"; };
  const auto stages = split_stages(inner);
  auto head_words = split_words(stages.front());
  if (head_words.empty()) return in("empty template expression");
  auto head = compile_head(head_words);
  if (auto* error = std::get_if<std::string>(&head)) return in(*error);
  std::vector<std::unique_ptr<const Filter>> filters;
  for (size_t i = 1; i < stages.size(); ++i) {
    auto words = split_words(stages[i]);
    if (words.empty()) return in("empty template filter");
    auto filter = compile_filter(words);
    if (auto* error = std::get_if<std::string>(&filter)) return in(*error);
    filters.push_back(std::get<std::unique_ptr<const Filter>>(std::move(filter)));
  }
  return std::make_shared<const Function>(std::get<std::unique_ptr<const Head>>(std::move(head)),
                                          std::move(filters), std::move(raw));
}

}  // namespace rift::templates
