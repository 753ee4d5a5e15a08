#include "compiler/explain_describe.h"

#include <cmath>
#include <cstdint>
#include <memory>

#include "compiler/jsonpath.h"
#include "compiler/predicate_normalize.h"
#include "compiler/predicate_value.h"
#include "compiler/regex.h"
#include "compiler/xpath.h"

namespace rift::explaining {
namespace {

constexpr size_t kShowLimit = 160;

std::string fold(const std::string& text, bool fold_case) {
  return fold_case ? js::lower(text) : text;
}

// Like Mountebank's property lookup after key folding: the last key that folds to `name` wins.
const ir::Json* member(const ir::Json& object, const std::string& name, bool fold_case) {
  if (!object.is_object()) return nullptr;
  const std::string wanted = fold(name, fold_case);
  const ir::Json* found = nullptr;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (fold(it.key(), fold_case) == wanted) found = &it.value();
  }
  return found;
}

// `except` deletes its matches from every string the predicate reads.
ir::Json strip_except(const ir::Json& value, const Regex* except) {
  if (except == nullptr) return value;
  if (value.is_string()) return except->replace_all(value.get<std::string>(), "");
  if (value.is_structured()) {
    ir::Json out = value;
    for (auto& child : out) child = strip_except(child, except);
    return out;
  }
  return value;
}

std::optional<ir::Json> from_results(std::vector<ir::Json> results) {
  if (results.empty()) return std::nullopt;
  if (results.size() == 1) return std::move(results.front());
  ir::Json out = ir::Json::array();
  for (auto& result : results) out.push_back(std::move(result));
  return out;
}

std::optional<ir::Json> select_jsonpath(const ir::Predicate& predicate, const std::string& text) {
  const bool fold_case = !predicate.case_sensitive;
  auto parsed = jsonpath::parse_json(text);
  if (!parsed || parsed->is_string()) return std::nullopt;
  predicates::Transform keys;
  keys.lower_keys = fold_case;
  // Mountebank folds the selector and the document's keys together.
  auto path = jsonpath::Path::parse(fold(*predicate.jsonpath, fold_case));
  if (path.index() != 0) return std::nullopt;
  return from_results(std::get<0>(path).select(predicates::transform_json(*parsed, keys)));
}

std::optional<ir::Json> select_xpath(const ir::Predicate& predicate, std::string text) {
  // The selector, namespaces and document fold together (values too, except for `matches`).
  const bool fold_case = !predicate.case_sensitive && predicate.op != ir::Op::kMatches;
  std::map<std::string, std::string> ns = predicate.xpath->ns;
  for (auto& [prefix, uri] : ns) uri = fold(uri, fold_case);
  auto selector = xpath::Selector::compile(fold(predicate.xpath->selector, fold_case), ns);
  if (selector.index() != 0) return std::nullopt;
  xpath::Result result;
  try {
    result = xpath::select(std::get<0>(selector), fold(text, fold_case));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (auto* number = std::get_if<double>(&result)) return ir::Json(*number);
  if (auto* flag = std::get_if<bool>(&result)) return ir::Json(*flag);
  if (auto* string = std::get_if<std::string>(&result)) return ir::Json(*string);
  if (auto* values = std::get_if<std::vector<std::string>>(&result)) {
    std::vector<ir::Json> out(values->begin(), values->end());
    return from_results(std::move(out));
  }
  return std::nullopt;
}

// value[key] the way the evaluator descends: JSON text is parsed, arrays answer for their
// elements (any element may hold, so all their values are shown).
std::optional<ir::Json> descend(const ir::Json& value, const std::string& key, bool fold_case) {
  if (value.is_string()) {
    auto parsed = jsonpath::parse_json(value.get_ref<const std::string&>());
    if (!parsed || parsed->is_string()) return std::nullopt;
    return descend(*parsed, key, fold_case);
  }
  if (const ir::Json* found = member(value, key, fold_case)) return *found;
  if (!value.is_array()) return std::nullopt;
  std::vector<ir::Json> found;
  for (const auto& element : value) {
    if (auto child = descend(element, key, fold_case)) found.push_back(std::move(*child));
  }
  return from_results(std::move(found));
}

std::string regex_text(const ir::Json& expected, const ir::Predicate& clause) {
  const std::string source = js::to_string(expected);  // `new RegExp(expected)`
  return "/" + source + "/" + (clause.case_sensitive ? "" : "i");
}

// deepEquals on objects: which keys are missing, unexpected or different.
std::string object_differences(const ir::Json& expected, const ir::Json& actual, bool fold_case) {
  if (!expected.is_object() || !actual.is_object()) return "";
  std::string missing, unexpected, different;
  auto add = [](std::string& list, const std::string& key) {
    list += (list.empty() ? "" : ", ") + key;
  };
  for (auto it = expected.begin(); it != expected.end(); ++it) {
    const ir::Json* other = member(actual, it.key(), fold_case);
    if (other == nullptr) {
      add(missing, it.key());
    } else if (js::to_string(*other) != js::to_string(it.value()) &&
               fold(js::to_string(*other), fold_case) !=
                   fold(js::to_string(it.value()), fold_case)) {
      add(different, it.key());
    }
  }
  for (auto it = actual.begin(); it != actual.end(); ++it) {
    if (member(expected, it.key(), fold_case) == nullptr) add(unexpected, it.key());
  }
  std::string out;
  if (!missing.empty()) out += "; missing: " + missing;
  if (!unexpected.empty()) out += "; unexpected: " + unexpected;
  if (!different.empty()) out += "; different: " + different;
  return out.empty() ? "" : " (" + out.substr(2) + ")";
}

// JSON bodies parse numbers as doubles (as JavaScript does); show 8, not 8.0.
ir::Json tidy_numbers(ir::Json value) {
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (std::isfinite(number) && std::trunc(number) == number && std::fabs(number) < 9.0e15) {
      return static_cast<int64_t>(number);
    }
    return value;
  }
  if (value.is_structured()) {
    for (auto& child : value) child = tidy_numbers(std::move(child));
  }
  return value;
}

}  // namespace

std::string show(const ir::Json& value) {
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.size() > kShowLimit) text = text.substr(0, kShowLimit) + "...";
  return value.is_string() ? "'" + text + "'" : text;
}

std::optional<ir::Json> actual_value(const ir::Predicate& predicate,
                                     const std::vector<std::string>& keys,
                                     RequestContext& context) {
  if (keys.empty()) return std::nullopt;
  const bool fold_case = !predicate.case_sensitive;
  std::unique_ptr<Regex> except;
  if (!predicate.except.empty()) {
    auto compiled = Regex::compile(predicate.except, fold_case && predicate.op != ir::Op::kMatches);
    if (compiled.index() == 0) except = std::make_unique<Regex>(std::get<0>(std::move(compiled)));
  }
  const ir::Json* raw = member(context.json(), keys.front(), fold_case);
  if (raw == nullptr) return std::nullopt;
  std::optional<ir::Json> value = strip_except(*raw, except.get());
  if (value->is_string() && predicate.jsonpath) {
    value = select_jsonpath(predicate, value->get<std::string>());
  } else if (value->is_string() && predicate.xpath) {
    value = select_xpath(predicate, value->get<std::string>());
  }
  for (size_t i = 1; i < keys.size() && value; ++i) value = descend(*value, keys[i], fold_case);
  if (value) value = tidy_numbers(std::move(*value));
  return value;
}

std::string failure_reason(const ir::Predicate& clause, const std::string& field,
                           const ir::Json& expected, const std::optional<ir::Json>& actual) {
  const std::string op = ir::op_name(clause.op);
  std::string selected;
  if (clause.jsonpath) selected = " at jsonpath '" + *clause.jsonpath + "'";
  if (clause.xpath) selected = " at xpath '" + clause.xpath->selector + "'";
  const std::string where = field + selected;

  if (clause.op == ir::Op::kExists) {
    if (js::truthy(&expected)) {
      if (!actual) return op + ": expected " + where + " to be present but the request has none";
      return op + ": expected " + where + " to be present but it is " + show(*actual);
    }
    return op + ": expected " + where + " to be absent but the request has " +
           (actual ? show(*actual) : "it");
  }
  std::string out;
  if (!actual) {
    out = op + ": expected " +
          (clause.op == ir::Op::kMatches ? regex_text(expected, clause) : show(expected)) +
          " but the request has no " + where;
  } else {
    const std::string a = show(*actual), e = show(expected);
    switch (clause.op) {
      case ir::Op::kEquals:
        out = op + ": expected " + e + " but the request has " + a;
        break;
      case ir::Op::kDeepEquals:
        out = op + ": expected exactly " + e + " but the request has " + a +
              object_differences(expected, *actual, !clause.case_sensitive);
        break;
      case ir::Op::kContains:
        out = op + ": expected " + a + " to contain " + e;
        break;
      case ir::Op::kStartsWith:
        out = op + ": expected " + a + " to start with " + e;
        break;
      case ir::Op::kEndsWith:
        out = op + ": expected " + a + " to end with " + e;
        break;
      case ir::Op::kMatches:
        out = op + ": " + a + " does not match " + regex_text(expected, clause);
        break;
      default:
        out = op + ": expected " + e + " but the request has " + a;
        break;
    }
    if (clause.op == ir::Op::kEquals && clause.case_sensitive && actual->is_string() &&
        expected.is_string() &&
        js::lower(actual->get<std::string>()) == js::lower(expected.get<std::string>())) {
      out += " (they differ only in letter case and the predicate is caseSensitive)";
    }
  }
  if (!clause.except.empty()) out += " (after removing matches of /" + clause.except + "/)";
  return out;
}

}  // namespace rift::explaining
