// The filters of `{{ }}` functions (docs/templates.md#functions).
#include <charconv>

#include "compiler/regex.h"
#include "templates/stages.h"

namespace rift::templates {
namespace {

using FilterResult = std::variant<std::unique_ptr<const Filter>, std::string>;

class LastSegment final : public Filter {
 public:
  std::optional<std::string> apply(std::string& value) const override {
    while (!value.empty() && value.back() == '/') value.pop_back();
    const size_t slash = value.rfind('/');
    if (slash != std::string::npos) value.erase(0, slash + 1);
    return std::nullopt;
  }
};

class RegexGroup final : public Filter {
 public:
  RegexGroup(Regex regex, size_t group) : regex_(std::move(regex)), group_(group) {}
  std::optional<std::string> apply(std::string& value) const override {
    auto match = regex_.exec(value);
    if (!match) return "regex filter: pattern '" + regex_.source() + "' did not match";
    auto group = match->group(value, group_);
    if (!group) return "regex filter: no capture group " + std::to_string(group_);
    value = std::string(*group);
    return std::nullopt;
  }

 private:
  Regex regex_;
  size_t group_;
};

// Escaped for the inside of a JSON string: quotes, backslashes and control characters.
class JsonEscape final : public Filter {
 public:
  std::optional<std::string> apply(std::string& value) const override {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(value.size() + 8);
    for (unsigned char c : value) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        default:
          if (c < 0x20) {
            out += "\\u00";
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 0xF]);
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
    }
    value = std::move(out);
    return std::nullopt;
  }
};

}  // namespace

FilterResult compile_filter(const std::vector<std::string>& words) {
  const std::string& name = words.front();
  if (name == "last_segment") return std::make_unique<const LastSegment>();
  if (name == "json") return std::make_unique<const JsonEscape>();
  if (name == "regex") {
    if (words.size() < 3)
      return std::string("regex filter needs a pattern and a group: | regex '(\\d+)' 1");
    size_t group = 0;
    std::string_view text = words[2];
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);  // as randomInt reads `+4`
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), group);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
      return "regex filter: invalid group '" + words[2] + "'";
    }
    auto regex = Regex::compile(words[1], false);
    if (auto* problem = std::get_if<std::string>(&regex)) {
      return "regex filter: invalid pattern '" + words[1] + "': " + *problem;
    }
    return std::make_unique<const RegexGroup>(std::get<Regex>(std::move(regex)), group);
  }
  return "unknown template filter: '" + name + "'";
}

}  // namespace rift::templates
