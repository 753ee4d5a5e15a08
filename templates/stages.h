// The stages of a `{{ }}` function token (docs/templates.md#functions): one head that produces a
// value, then filters that each take the value and give another. Arguments are checked when the
// template is compiled; what can only fail on a request fails there, as an empty piece.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "templates/template.h"

namespace rift::templates {

struct Head {
  virtual ~Head() = default;
  // The value into `out`, or why there is none.
  virtual std::optional<std::string> evaluate(const Context& context, std::string& out) const = 0;
};

struct Filter {
  virtual ~Filter() = default;
  // `value` replaced by the filtered value, or why it cannot be.
  virtual std::optional<std::string> apply(std::string& value) const = 0;
};

// `words` as split_words() gives them, the first naming the head or filter; or the error.
std::variant<std::unique_ptr<const Head>, std::string> compile_head(
    const std::vector<std::string>& words);
std::variant<std::unique_ptr<const Filter>, std::string> compile_filter(
    const std::vector<std::string>& words);

// A JSON value as a template writes it: a string as its text, anything else as compact JSON
// with the keys of objects sorted.
std::string value_text(const ir::Json& value);

}  // namespace rift::templates
