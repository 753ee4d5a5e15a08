#include "frontends/yaml_to_json.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cstdlib>
#include <sstream>
#include <string>

#include "compiler/nesting.h"
#include "frontends/yaml_depth.h"

namespace rift::frontends {
namespace {

constexpr std::string_view kCoreTag = "tag:yaml.org,2002:";

// Raised inside the converter; caught at the entry point and turned into a YamlError.
struct ConversionError {
  YamlError error;
};

[[noreturn]] void fail(const YAML::Node& node, std::string message) {
  const YAML::Mark mark = node.Mark();
  throw ConversionError{{std::move(message), mark.line + 1, mark.column + 1}};
}

// The core schema's number forms are matched by hand: libstdc++'s std::regex recurses once per
// character, so a plain scalar of a few hundred thousand digits overflowed the stack (found by a
// long-input probe of tests/fuzz/fuzz_yaml).

// How many characters from `at` are digits of `base` (at most 16).
std::size_t digits_at(std::string_view text, std::size_t at, int base) {
  std::size_t end = at;
  for (; end < text.size(); ++end) {
    const char c = text[end];
    const int value = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : base;
    if (value >= base) break;
  }
  return end - at;
}

// Whether all of `text` from `at` is one or more digits of `base`.
bool only_digits_from(std::string_view text, std::size_t at, int base) {
  return at < text.size() && digits_at(text, at, base) == text.size() - at;
}

std::optional<ir::Json> integer_value(const std::string& text) {
  int base = 0;
  std::string digits = text;
  const bool sign = !text.empty() && (text[0] == '-' || text[0] == '+');
  if (only_digits_from(text, sign ? 1 : 0, 10)) {  // [-+]?[0-9]+
    base = 10;
    if (digits.front() == '+') digits.erase(0, 1);
  } else if (text.starts_with("0o") && only_digits_from(text, 2, 8)) {
    base = 8;
    digits.erase(0, 2);
  } else if (text.starts_with("0x") && only_digits_from(text, 2, 16)) {
    base = 16;
    digits.erase(0, 2);
  } else {
    return std::nullopt;
  }
  std::int64_t value = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (error == std::errc() && end == digits.data() + digits.size()) return ir::Json(value);
  // Too large for an integer: keep it as a number, like JSON parsers do.
  return ir::Json(std::strtod(digits.c_str(), nullptr));
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
std::optional<ir::Json> float_value(const std::string& text) {
  std::size_t at = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  const std::size_t whole = digits_at(text, at, 10);
  at += whole;
  std::size_t fraction = 0;
  const bool point = at < text.size() && text[at] == '.';
  if (point) {
    fraction = digits_at(text, at + 1, 10);
    at += 1 + fraction;
  }
  if (whole == 0 && fraction == 0) return std::nullopt;
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
    if (!only_digits_from(text, at, 10)) return std::nullopt;
    at = text.size();
  }
  if (at != text.size()) return std::nullopt;
  return ir::Json(std::strtod(text.c_str(), nullptr));
}

std::optional<ir::Json> bool_value(const std::string& text) {
  if (text == "true" || text == "True" || text == "TRUE") return ir::Json(true);
  if (text == "false" || text == "False" || text == "FALSE") return ir::Json(false);
  return std::nullopt;
}

bool is_null_text(const std::string& text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

// Core-schema resolution of a plain scalar. `.inf` and `.nan` stay strings: JSON has no such
// numbers.
ir::Json plain_scalar(const std::string& text) {
  if (is_null_text(text)) return nullptr;
  if (auto value = bool_value(text)) return *value;
  if (auto value = integer_value(text)) return *value;
  if (auto value = float_value(text)) return *value;
  return text;
}

// yaml-cpp passes bytes through as they are, but every string of a JSON tree must be UTF-8:
// nlohmann refuses to write out anything else, so one bad byte would make the imposter, its
// errors and every later listing unanswerable (found by tests/fuzz/fuzz_yaml).
const std::string& utf8_text(const YAML::Node& node, const std::string& text) {
  try {
    (void)ir::Json(text).dump();
  } catch (const ir::Json::type_error&) {
    fail(node, "invalid UTF-8 in a YAML scalar");
  }
  return text;
}

ir::Json tagged_scalar(const YAML::Node& node) {
  const std::string& tag = utf8_text(node, node.Tag());
  const std::string& text = utf8_text(node, node.Scalar());
  if (tag == "!" || tag.empty()) return text;  // quoted or block scalar
  if (tag == "?") return plain_scalar(text);
  if (tag.rfind(kCoreTag, 0) != 0) fail(node, "unsupported YAML tag '" + tag + "'");
  const std::string type = tag.substr(kCoreTag.size());
  if (type == "str") return text;
  if (type == "null" && is_null_text(text)) return nullptr;
  if (type == "bool") {
    if (auto value = bool_value(text)) return *value;
  }
  if (type == "int") {
    if (auto value = integer_value(text)) return *value;
  }
  if (type == "float") {
    if (auto value = integer_value(text)) return ir::Json(value->get<double>());
    if (auto value = float_value(text)) return *value;
  }
  fail(node, "'" + text + "' is not a valid !!" + type);
}

// The tree walk, bounded: nesting deeper than nesting::kMaxDepth is refused (an alias may even
// refer to the node that contains it), and so is a tree that aliases blow up far beyond the
// text's size (a "billion laughs" file).
class Converter {
 public:
  explicit Converter(std::size_t text_size) : nodes_left_(kNodesPerByte * text_size + 4096) {}

  ir::Json convert(const YAML::Node& node) {
    if (depth_ >= nesting::kMaxDepth) fail(node, nesting::limit_message());
    if (nodes_left_-- == 0) fail(node, "aliases expand the document past its size limit");
    ++depth_;
    ir::Json value = convert_node(node);
    --depth_;
    return value;
  }

 private:
  static constexpr std::size_t kNodesPerByte = 64;

  ir::Json convert_node(const YAML::Node& node);
  ir::Json convert_map(const YAML::Node& node);
  void merge_into(ir::Json& target, const YAML::Node& source);

  std::size_t depth_ = 0;
  std::size_t nodes_left_;
};

// `<<: *defaults` merges the referenced mapping(s) without overriding explicit keys.
void Converter::merge_into(ir::Json& target, const YAML::Node& source) {
  const auto merge_one = [&](const YAML::Node& mapping) {
    if (!mapping.IsMap()) fail(mapping, "'<<' (merge key) needs a mapping or a list of mappings");
    const ir::Json value = convert(mapping);
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (!target.contains(it.key())) target[it.key()] = it.value();
    }
  };
  if (source.IsSequence()) {
    for (const auto& element : source) merge_one(element);
  } else {
    merge_one(source);
  }
}

ir::Json Converter::convert_map(const YAML::Node& node) {
  ir::Json object = ir::Json::object();
  std::vector<YAML::Node> merges;
  for (const auto& entry : node) {
    const YAML::Node& key = entry.first;
    if (!key.IsScalar() && !key.IsNull()) fail(key, "mapping keys must be scalars");
    const std::string name = key.IsNull() ? "null" : utf8_text(key, key.Scalar());
    if (name == "<<" && key.Tag() == "?") {
      merges.push_back(entry.second);
      continue;
    }
    object[name] = convert(entry.second);
  }
  for (const auto& merge : merges) merge_into(object, merge);
  return object;
}

ir::Json Converter::convert_node(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
      // An explicitly tagged empty string (`!!str`) is still a string.
      if (node.Tag() == std::string(kCoreTag) + "str" || node.Tag() == "!") return "";
      return nullptr;
    case YAML::NodeType::Scalar:
      return tagged_scalar(node);
    case YAML::NodeType::Sequence: {
      ir::Json array = ir::Json::array();
      for (const auto& element : node) array.push_back(convert(element));
      return array;
    }
    case YAML::NodeType::Map:
      return convert_map(node);
    case YAML::NodeType::Undefined:
      break;
  }
  fail(node, "undefined YAML node");
}

// yaml-cpp 0.7's LoadAll never returns on a ',' outside any flow collection: its parser reports
// an empty document there without consuming the token, again and again, each one a new node in
// memory (found by tests/fuzz/fuzz_ejs). This pass only watches where documents start, and
// stops at the first one that starts where the one before it did.
class ProgressCheck final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (started_ && mark.pos == last_start_) {
      throw YAML::ParserException(mark, "unexpected token where a document should start");
    }
    started_ = true;
    last_start_ = mark.pos;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  bool started_ = false;
  int last_start_ = 0;
};

void check_progress(const std::string& text) {
  std::istringstream input(text);
  YAML::Parser parser(input);
  ProgressCheck check;
  while (parser.HandleNextDocument(check)) {
  }
}

}  // namespace

std::variant<std::vector<ir::Json>, YamlError> yaml_documents_to_json(std::string_view text) {
  try {
    // yaml-cpp's parser recurses once per level of nesting, so a text that could nest too deeply
    // never reaches it.
    if (yaml_nesting_exceeds(text, nesting::kMaxDepth)) {
      return YamlError{nesting::limit_message(), 0, 0};
    }
    const std::string copy(text);
    check_progress(copy);
    std::vector<ir::Json> documents;
    Converter converter(text.size());
    for (const auto& document : YAML::LoadAll(copy)) {
      documents.push_back(converter.convert(document));
    }
    return documents;
  } catch (const YAML::Exception& error) {
    return YamlError{error.msg, error.mark.line + 1, error.mark.column + 1};
  } catch (const ConversionError& error) {
    return error.error;
  }
}

}  // namespace rift::frontends
