#include "runtime/behaviors/lookup_step.h"

#include <charconv>

#include "compiler/js_value.h"
#include "runtime/behaviors/services.h"
#include "runtime/behaviors/token_replace.h"

namespace rift::behaviors {
namespace {

std::string string_or_empty(const ir::Json& value) {
  return value.is_string() ? value.get<std::string>() : std::string();
}

// `keyValues[key.index || 0]`: a falsy index reads element 0; a non-negative integer (or its
// canonical text) reads that element; anything else reads a property arrays do not have.
std::optional<size_t> element_index(const ir::Json& index) {
  if (!js::truthy(index)) return 0;
  if (index.is_number()) {
    const double number = index.get<double>();
    // An array index is below 2**32 - 1; a larger number names a property arrays lack.
    if (number >= 0 && number < 4294967295.0 &&
        number == static_cast<double>(static_cast<size_t>(number))) {
      return static_cast<size_t>(number);
    }
    return std::nullopt;
  }
  if (index.is_string()) {
    const auto& text = index.get_ref<const std::string&>();
    size_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    const bool canonical = text == "0" || (!text.empty() && text[0] != '0');
    if (error == std::errc() && end == text.data() + text.size() && canonical) return value;
  }
  return std::nullopt;
}

}  // namespace

LookupStep::LookupStep(const ir::Json& config)
    : from_(config_member(config_member(config, "key"), "from")),
      selector_(config_member(config_member(config, "key"), "using")),
      index_(element_index(config_member(config_member(config, "key"), "index"))),
      into_(string_or_empty(config_member(config, "into"))) {
  const ir::Json& csv = config_member(config_member(config, "fromDataSource"), "csv");
  if (js::truthy(csv)) {
    path_ = string_or_empty(config_member(csv, "path"));
    key_column_ = string_or_empty(config_member(csv, "keyColumn"));
    const std::string delimiter = string_or_empty(config_member(csv, "delimiter"));
    delimiter_ = delimiter.empty() ? "," : delimiter;
  }
}

void LookupStep::apply(const StepContext& context, Flow flow, Next next) const {
  if (!path_) {
    next(std::move(flow));
    return;
  }
  auto selected = selector_.select(select_field(*context.request, from_));
  auto* values = std::get_if<Selection>(&selected);
  if (!values) {
    next(std::move(flow));  // Mountebank logs the error and carries on
    return;
  }
  // The key is compared as text: `undefined` (no such element) reads "undefined".
  JsText key;
  if (index_ && *index_ < values->size()) key = (*values)[*index_];
  const std::string key_text = key.value_or("undefined");

  if (auto table = context.services->csv().load(*path_, delimiter_)) {
    if (auto row = find_row(*table, key_column_, key_text)) {
      replace_columns(flow.response, into_, *row);
    }
  }
  next(std::move(flow));
}

}  // namespace rift::behaviors
