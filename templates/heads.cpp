// The heads of `{{ }}` functions (docs/templates.md#functions).
#include <charconv>
#include <random>

#include "compiler/canonical_json.h"
#include "templates/clock_text.h"
#include "templates/json_path.h"
#include "templates/request_values.h"
#include "templates/stages.h"

namespace rift::templates {
namespace {

using HeadResult = std::variant<std::unique_ptr<const Head>, std::string>;

uint64_t draw(const Context& context) {
  if (context.random) return context.random();
  thread_local std::mt19937_64 generator{std::random_device{}()};
  return generator();
}

class Method final : public Head {
 public:
  std::optional<std::string> evaluate(const Context& context, std::string& out) const override {
    out = context.request->method;
    return std::nullopt;
  }
};

class Path final : public Head {
 public:
  std::optional<std::string> evaluate(const Context& context, std::string& out) const override {
    out = context.request->path;
    return std::nullopt;
  }
};

class Query final : public Head {
 public:
  explicit Query(std::string name) : name_(std::move(name)) {}
  std::optional<std::string> evaluate(const Context& context, std::string& out) const override {
    const std::string* value = last_value(context.request->query, name_, false);
    if (value == nullptr) return "no such query parameter: '" + name_ + "'";
    out = *value;
    return std::nullopt;
  }

 private:
  std::string name_;
};

class Header final : public Head {
 public:
  explicit Header(std::string name) : name_(std::move(name)) {}
  std::optional<std::string> evaluate(const Context& context, std::string& out) const override {
    const std::string* value = last_value(context.request->headers, name_, true);
    if (value == nullptr) return "no such header: '" + name_ + "'";
    out = *value;
    return std::nullopt;
  }

 private:
  std::string name_;
};

class Json final : public Head {
 public:
  explicit Json(JsonPath path) : path_(std::move(path)) {}
  std::optional<std::string> evaluate(const Context& context, std::string& out) const override {
    const auto& body = context.request->body;
    const ir::Json document = ir::Json::parse(body ? *body : std::string(), nullptr, false);
    if (document.is_discarded()) return "request body is not valid JSON";
    auto found = path_.find(document);
    if (auto* error = std::get_if<std::string>(&found)) return *error;
    out = value_text(*std::get<const ir::Json*>(found));
    return std::nullopt;
  }

 private:
  JsonPath path_;
};

class Now final : public Head {
 public:
  Now(std::chrono::seconds offset, std::optional<std::string> format)
      : offset_(offset), format_(std::move(format)) {}
  std::optional<std::string> evaluate(const Context& context, std::string& out) const override {
    const Instant at = Instant::of(context.now).plus(offset_);
    if (format_) {
      auto text = format_time(at, *format_);
      if (!text) return "now: the date is out of range";
      out = std::move(*text);
      return std::nullopt;
    }
    auto text = rfc3339(at);
    if (!text) return "now: the date is out of range";
    out = std::move(*text);
    return std::nullopt;
  }

 private:
  std::chrono::seconds offset_;
  std::optional<std::string> format_;
};

class Uuid final : public Head {
 public:
  std::optional<std::string> evaluate(const Context& context, std::string& out) const override {
    uint64_t halves[2] = {draw(context), draw(context)};
    halves[0] = (halves[0] & ~0xF000ull) | 0x4000ull;        // version 4
    halves[1] = (halves[1] & ~(3ull << 62)) | (2ull << 62);  // variant 10
    static constexpr char kHex[] = "0123456789abcdef";
    out.clear();
    for (int i = 0; i < 32; ++i) {
      if (i == 8 || i == 12 || i == 16 || i == 20) out.push_back('-');
      const uint64_t half = halves[i / 16];
      out.push_back(kHex[(half >> (60 - 4 * (i % 16))) & 0xF]);
    }
    return std::nullopt;
  }
};

class RandomInt final : public Head {
 public:
  RandomInt(int64_t low, int64_t high) : low_(low), high_(high) {}
  std::optional<std::string> evaluate(const Context& context, std::string& out) const override {
    const uint64_t span = static_cast<uint64_t>(high_) - static_cast<uint64_t>(low_);
    const uint64_t offset = span == UINT64_MAX ? draw(context) : draw(context) % (span + 1);
    out = std::to_string(static_cast<int64_t>(static_cast<uint64_t>(low_) + offset));
    return std::nullopt;
  }

 private:
  int64_t low_;
  int64_t high_;
};

class State final : public Head {
 public:
  explicit State(std::string key) : key_(std::move(key)) {}
  std::optional<std::string> evaluate(const Context& context, std::string& out) const override {
    if (!context.state) return "no such state key: '" + key_ + "'";
    try {
      auto value = context.state(key_);
      if (!value) return "no such state key: '" + key_ + "'";
      out = value_text(*value);
    } catch (const std::exception& error) {
      return "state." + key_ + ": flow store error: " + error.what();
    }
    return std::nullopt;
  }

 private:
  std::string key_;
};

std::optional<int64_t> whole(const std::string& text) {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return value;
}

HeadResult compile_now(const std::vector<std::string>& words) {
  std::chrono::seconds offset{0};
  std::optional<std::string> format;
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word.rfind("offset=", 0) == 0) {
      auto parsed = parse_offset(std::string_view(word).substr(7));
      if (!parsed) {
        return "now: invalid offset '" + word.substr(7) +
               "' (a signed whole number and s, m, h or d)";
      }
      offset = *parsed;
    } else if (word.rfind("format=", 0) == 0) {
      format = word.substr(7);
      if (auto problem = format_problem(*format)) return "now: " + *problem;
    } else {
      return "now: unknown argument '" + word + "'";
    }
  }
  return std::make_unique<const Now>(offset, std::move(format));
}

}  // namespace

std::string value_text(const ir::Json& value) {
  if (value.is_string()) return value.get<std::string>();
  return canonical_json(value);
}

HeadResult compile_head(const std::vector<std::string>& words) {
  const std::string& head = words.front();
  if (head == "request.method") return std::make_unique<const Method>();
  if (head == "request.path") return std::make_unique<const Path>();
  if (head.rfind("request.query.", 0) == 0) {
    if (head.size() == 14) return std::string("request.query needs a parameter name");
    return std::make_unique<const Query>(head.substr(14));
  }
  if (head == "request.header") {
    if (words.size() < 2)
      return std::string("request.header needs a header name: {{request.header 'X-Name'}}");
    return std::make_unique<const Header>(words[1]);
  }
  if (head == "request.json") {
    if (words.size() < 2) return std::string("request.json needs a path: {{request.json '$.a.b'}}");
    auto path = JsonPath::parse(words[1]);
    if (auto* error = std::get_if<std::string>(&path)) return *error;
    return std::make_unique<const Json>(std::get<JsonPath>(std::move(path)));
  }
  if (head == "now") return compile_now(words);
  if (head == "uuid") return std::make_unique<const Uuid>();
  if (head == "randomInt") {
    if (words.size() < 3)
      return std::string("randomInt needs two whole numbers: {{randomInt 1 6}}");
    const auto low = whole(words[1]), high = whole(words[2]);
    if (!low) return "randomInt: invalid integer '" + words[1] + "'";
    if (!high) return "randomInt: invalid integer '" + words[2] + "'";
    if (*low > *high) {
      return "randomInt: lower bound " + words[1] + " is greater than upper bound " + words[2];
    }
    return std::make_unique<const RandomInt>(*low, *high);
  }
  if (head.rfind("state.", 0) == 0) {
    if (head.size() == 6) return std::string("state needs a key: {{state.<key>}}");
    return std::make_unique<const State>(head.substr(6));
  }
  return "unknown template function: '" + head + "'";
}

}  // namespace rift::templates
