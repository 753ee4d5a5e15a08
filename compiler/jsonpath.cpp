#include "compiler/jsonpath.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <initializer_list>

#include "compiler/json_stream.h"
#include "compiler/nesting.h"
#include "compiler/predicate_value.h"

namespace rift::jsonpath {
namespace {

// ---------------------------------------------------------------------------------------------
// Filter expressions: a small JavaScript subset evaluated with `@` bound to the candidate.

using Value = std::optional<ir::Json>;  // nullopt: undefined

struct Expr {
  enum class Kind { kLiteral, kCurrent, kNot, kBinary } kind = Kind::kLiteral;
  Value literal;
  std::vector<std::string> path;  // kCurrent: property chain after `@`
  std::string op;                 // kBinary
  std::vector<Expr> operands;
};

class ExprParser {
 public:
  explicit ExprParser(std::string_view text) : text_(text) {}

  std::optional<Expr> parse() {
    auto expr = parse_or();
    skip_space();
    if (!expr || pos_ != text_.size()) return std::nullopt;
    return expr;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  bool eat(std::string_view token) {
    skip_space();
    if (text_.substr(pos_).starts_with(token)) {
      pos_ += token.size();
      return true;
    }
    return false;
  }
  // Parsing, evaluating and destroying an expression recurse once per level of its tree, and a
  // chain `a||b||...` is as deep as it is long; so operators and parentheses together are
  // bounded like any nesting (a longer filter is a syntax error).
  bool nest() { return ++levels_ <= nesting::kMaxDepth; }

  std::optional<Expr> binary(std::optional<Expr> left, std::string op, std::optional<Expr> right) {
    if (!left || !right || !nest()) return std::nullopt;
    Expr out;
    out.kind = Expr::Kind::kBinary;
    out.op = std::move(op);
    out.operands.push_back(std::move(*left));
    out.operands.push_back(std::move(*right));
    return out;
  }
  std::optional<Expr> parse_or() {
    auto left = parse_and();
    while (left && eat("||")) left = binary(std::move(left), "||", parse_and());
    return left;
  }
  std::optional<Expr> parse_and() {
    auto left = parse_equality();
    while (left && eat("&&")) left = binary(std::move(left), "&&", parse_equality());
    return left;
  }
  // The first operator of `candidates` at the cursor, consumed; "" when none is there. Longer
  // spellings come first so "===" is not read as "==".
  std::string eat_first(std::initializer_list<const char*> candidates) {
    for (const char* candidate : candidates) {
      if (eat(candidate)) return candidate;
    }
    return {};
  }
  std::optional<Expr> parse_equality() {
    auto left = parse_relational();
    while (left) {
      const std::string op = eat_first({"===", "!==", "==", "!="});
      if (op.empty()) break;
      left = binary(std::move(left), op, parse_relational());
    }
    return left;
  }
  std::optional<Expr> parse_relational() {
    auto left = parse_unary();
    while (left) {
      const std::string op = eat_first({"<=", ">=", "<", ">"});
      if (op.empty()) break;
      left = binary(std::move(left), op, parse_unary());
    }
    return left;
  }
  std::optional<Expr> parse_unary() {
    if (eat("!")) {
      if (!nest()) return std::nullopt;
      auto operand = parse_unary();
      if (!operand) return std::nullopt;
      Expr out;
      out.kind = Expr::Kind::kNot;
      out.operands.push_back(std::move(*operand));
      return out;
    }
    return parse_primary();
  }
  std::optional<std::string> parse_quoted() {
    const char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out += text_[pos_++];
    }
    if (pos_ >= text_.size()) return std::nullopt;
    ++pos_;
    return out;
  }
  std::optional<Expr> parse_primary() {
    skip_space();
    if (pos_ >= text_.size()) return std::nullopt;
    const char c = text_[pos_];
    Expr out;
    if (c == '(') {
      ++pos_;
      if (!nest()) return std::nullopt;
      auto inner = parse_or();
      if (!inner || !eat(")")) return std::nullopt;
      return inner;
    }
    if (c == '\'' || c == '"') {
      auto text = parse_quoted();
      if (!text) return std::nullopt;
      out.literal = ir::Json(*text);
      return out;
    }
    if (c == '@') {
      ++pos_;
      out.kind = Expr::Kind::kCurrent;
      while (pos_ < text_.size()) {
        if (text_[pos_] == '.') {
          ++pos_;
          std::string name;
          while (pos_ < text_.size() &&
                 (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                  text_[pos_] == '$' || static_cast<unsigned char>(text_[pos_]) >= 0x80)) {
            name += text_[pos_++];
          }
          if (name.empty()) return std::nullopt;
          out.path.push_back(std::move(name));
        } else if (text_[pos_] == '[') {
          ++pos_;
          skip_space();
          if (pos_ < text_.size() && (text_[pos_] == '\'' || text_[pos_] == '"')) {
            auto name = parse_quoted();
            if (!name) return std::nullopt;
            out.path.push_back(std::move(*name));
          } else {
            std::string index;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
              index += text_[pos_++];
            }
            if (index.empty()) return std::nullopt;
            out.path.push_back(std::move(index));
          }
          if (!eat("]")) return std::nullopt;
        } else {
          break;
        }
      }
      return out;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.') {
      // A numeric literal, read as JavaScript reads it; "1.2.3" or "1e" is a syntax error.
      std::size_t end = pos_ + 1;
      while (end < text_.size()) {
        const char next = text_[end];
        const bool exponent_sign =
            (next == '+' || next == '-') && (text_[end - 1] == 'e' || text_[end - 1] == 'E');
        if (!std::isdigit(static_cast<unsigned char>(next)) && next != '.' && next != 'e' &&
            next != 'E' && !exponent_sign) {
          break;
        }
        ++end;
      }
      const auto number = js::number_from_string(text_.substr(pos_, end - pos_));
      if (!number) return std::nullopt;
      out.literal = ir::Json(*number);
      pos_ = end;
      return out;
    }
    for (const auto& [word, value] :
         std::initializer_list<std::pair<const char*, Value>>{{"true", ir::Json(true)},
                                                              {"false", ir::Json(false)},
                                                              {"null", ir::Json(nullptr)},
                                                              {"undefined", std::nullopt}}) {
      if (eat(word)) {
        out.literal = value;
        return out;
      }
    }
    return std::nullopt;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t levels_ = 0;
};

// The work one selection may do, counted in the units of Budget::charge_tree (docs/limits.md).
// Without it, `$..a..a..a` on a deep body selects millions of nodes and copying them out
// exhausts memory; a filter comparing every node of a deep array as text is quadratic.
class Budget {
 public:
  struct Exhausted {};

  void charge(std::size_t units) {
    if (units > left_) throw Exhausted{};
    left_ -= units;
  }
  // What copying or printing `node` costs: one unit per value and one per 16 bytes of text (a
  // unit is about the memory one more value takes). Stops as soon as the budget is spent.
  void charge_tree(const ir::Json& node) {
    charge(1);
    if (node.is_string()) charge(node.get_ref<const std::string&>().size() / 16);
    if (node.is_object()) {
      for (const auto& [key, child] : node.items()) {
        charge(key.size() / 16);
        charge_tree(child);
      }
    } else if (node.is_array()) {
      for (const auto& child : node) charge_tree(child);
    }
  }

 private:
  std::size_t left_ = kMaxSelectionWork;
};

// A filter operand: undefined (null), a node of the document or of the expression, or a value
// the evaluation computed. Nodes are referred to, never copied: `$..[?(@)]` would otherwise copy
// every subtree of the document.
class Operand {
 public:
  Operand() = default;
  static Operand of(const ir::Json* node) {
    Operand out;
    out.node_ = node;
    return out;
  }
  explicit Operand(ir::Json computed) : computed_(std::move(computed)) {}
  const ir::Json* get() const { return computed_ ? &*computed_ : node_; }

 private:
  const ir::Json* node_ = nullptr;
  std::optional<ir::Json> computed_;
};

bool strict_equal(const ir::Json* a, const ir::Json* b) {
  if (!a || !b) return !a && !b;
  if (a->is_number() && b->is_number()) return a->get<double>() == b->get<double>();
  if (js::is_object(*a) || js::is_object(*b)) return false;  // distinct objects
  return *a == *b;
}

// String(v) of an object or array, charged for what printing it costs.
ir::Json printed(const ir::Json& value, Budget& budget) {
  budget.charge_tree(value);
  return ir::Json(js::to_string(value));
}

bool loose_equal(const ir::Json* a, const ir::Json* b, Budget& budget) {
  const bool a_nullish = !a || a->is_null();
  const bool b_nullish = !b || b->is_null();
  if (a_nullish || b_nullish) return a_nullish && b_nullish;
  if (a->type() == b->type() || (a->is_number() && b->is_number())) return strict_equal(a, b);
  if (js::is_object(*a) && js::is_object(*b)) return false;  // an object and an array
  // An object against a primitive compares its String() form (ToPrimitive) with it.
  if (js::is_object(*a)) {
    const ir::Json text = printed(*a, budget);
    return loose_equal(&text, b, budget);
  }
  if (js::is_object(*b)) {
    const ir::Json text = printed(*b, budget);
    return loose_equal(a, &text, budget);
  }
  return js::to_number(a) == js::to_number(b);
}

// IsLessThan: objects become their String() form; two strings compare as text, anything else
// as numbers (NaN compares false).
bool relational(const ir::Json* a, const ir::Json* b, const std::string& op, Budget& budget) {
  const auto textual = [](const ir::Json* v) { return v && (v->is_string() || js::is_object(*v)); };
  if (textual(a) && textual(b)) {
    if (js::is_object(*a)) budget.charge_tree(*a);
    if (js::is_object(*b)) budget.charge_tree(*b);
    const std::string x = js::to_string(*a);
    const std::string y = js::to_string(*b);
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    return x >= y;
  }
  if (a && js::is_object(*a)) budget.charge_tree(*a);
  if (b && js::is_object(*b)) budget.charge_tree(*b);
  const double x = js::to_number(a);
  const double y = js::to_number(b);
  if (op == "<") return x < y;
  if (op == "<=") return x <= y;
  if (op == ">") return x > y;
  return x >= y;
}

bool truthy(const Operand& value) {
  return js::truthy(value.get());
}

Operand evaluate(const Expr& expr, const ir::Json& current, Budget& budget) {
  switch (expr.kind) {
    case Expr::Kind::kLiteral:
      return Operand::of(expr.literal ? &*expr.literal : nullptr);
    case Expr::Kind::kCurrent: {
      const ir::Json* node = &current;
      ir::Json scratch;
      for (const auto& key : expr.path) {
        node = js::property(*node, key, scratch);
        if (node == nullptr) return Operand();
      }
      return node == &scratch ? Operand(std::move(scratch)) : Operand::of(node);
    }
    case Expr::Kind::kNot:
      return Operand(ir::Json(!truthy(evaluate(expr.operands[0], current, budget))));
    case Expr::Kind::kBinary: {
      Operand left = evaluate(expr.operands[0], current, budget);
      if (expr.op == "&&") {
        return truthy(left) ? evaluate(expr.operands[1], current, budget) : std::move(left);
      }
      if (expr.op == "||") {
        return truthy(left) ? std::move(left) : evaluate(expr.operands[1], current, budget);
      }
      const Operand right = evaluate(expr.operands[1], current, budget);
      const ir::Json* a = left.get();
      const ir::Json* b = right.get();
      if (expr.op == "===") return Operand(ir::Json(strict_equal(a, b)));
      if (expr.op == "!==") return Operand(ir::Json(!strict_equal(a, b)));
      if (expr.op == "==") return Operand(ir::Json(loose_equal(a, b, budget)));
      if (expr.op == "!=") return Operand(ir::Json(!loose_equal(a, b, budget)));
      return Operand(ir::Json(relational(a, b, expr.op, budget)));
    }
  }
  return Operand();
}

// ---------------------------------------------------------------------------------------------
// Selectors.

struct Slice {
  std::optional<long> start, end;
  long step = 1;
};

struct Selector {
  enum class Kind { kName, kWildcard, kSlice, kFilter } kind = Kind::kName;
  std::string name;  // kName (an index is a name too, as in JavaScript)
  Slice slice;
  std::shared_ptr<const Expr> filter;
};

struct Segment {
  bool recursive = false;           // `..`
  std::vector<Selector> selectors;  // a union when more than one
};

std::optional<Slice> parse_slice(std::string_view text) {
  Slice out;
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == ':') {
      parts.emplace_back();
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-') {
      parts.back() += c;
    } else if (c != ' ') {
      return std::nullopt;
    }
  }
  if (parts.size() < 2 || parts.size() > 3) return std::nullopt;
  try {
    if (!parts[0].empty()) out.start = std::stol(parts[0]);
    if (!parts[1].empty()) out.end = std::stol(parts[1]);
    if (parts.size() == 3 && !parts[2].empty()) out.step = std::stol(parts[2]);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (out.step == 0) out.step = 1;
  return out;
}

std::optional<Selector> parse_bracket_item(std::string_view item) {
  while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
  while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
  Selector out;
  if (item == "*") {
    out.kind = Selector::Kind::kWildcard;
    return out;
  }
  if (item.size() >= 2 && (item.front() == '\'' || item.front() == '"') &&
      item.back() == item.front()) {
    out.name = std::string(item.substr(1, item.size() - 2));
    return out;
  }
  if (item.starts_with("?(") && item.ends_with(")")) {
    auto expr = ExprParser(item.substr(2, item.size() - 3)).parse();
    if (!expr) return std::nullopt;
    out.kind = Selector::Kind::kFilter;
    out.filter = std::make_shared<const Expr>(std::move(*expr));
    return out;
  }
  if (item.find(':') != std::string_view::npos) {
    auto slice = parse_slice(item);
    if (!slice) return std::nullopt;
    out.kind = Selector::Kind::kSlice;
    out.slice = *slice;
    return out;
  }
  if (item.empty()) return std::nullopt;
  out.name = std::string(item);
  return out;
}

// Splits a bracket body on top-level commas (not inside quotes or parentheses).
std::vector<std::string_view> split_union(std::string_view body) {
  std::vector<std::string_view> parts;
  int depth = 0;
  char quote = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(body.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(body.substr(start));
  return parts;
}

std::optional<std::vector<Segment>> parse_path(std::string_view text) {
  std::vector<Segment> segments;
  std::size_t pos = 0;
  if (text.starts_with("$")) pos = 1;
  bool first = true;
  while (pos < text.size()) {
    Segment segment;
    if (text.substr(pos).starts_with("..")) {
      segment.recursive = true;
      pos += 2;
    } else if (text[pos] == '.') {
      ++pos;
    } else if (text[pos] != '[' && !first) {
      return std::nullopt;
    }
    first = false;
    if (pos < text.size() && text[pos] == '[') {
      // Find the matching ']' outside quotes and parentheses.
      std::size_t end = pos + 1;
      int depth = 0;
      char quote = 0;
      for (; end < text.size(); ++end) {
        const char c = text[end];
        if (quote) {
          if (c == '\\')
            ++end;
          else if (c == quote)
            quote = 0;
        } else if (c == '\'' || c == '"') {
          quote = c;
        } else if (c == '(') {
          ++depth;
        } else if (c == ')') {
          --depth;
        } else if (c == ']' && depth == 0) {
          break;
        }
      }
      if (end >= text.size()) return std::nullopt;
      for (auto item : split_union(text.substr(pos + 1, end - pos - 1))) {
        auto selector = parse_bracket_item(item);
        if (!selector) return std::nullopt;
        segment.selectors.push_back(std::move(*selector));
      }
      pos = end + 1;
    } else {
      std::size_t end = pos;
      while (end < text.size() && text[end] != '.' && text[end] != '[') ++end;
      const std::string_view name = text.substr(pos, end - pos);
      if (name.empty()) {
        if (!segment.recursive) return std::nullopt;  // `$..` alone selects everything
        Selector all;
        all.kind = Selector::Kind::kWildcard;
        segment.selectors.push_back(std::move(all));
      } else {
        Selector selector;
        if (name == "*") {
          selector.kind = Selector::Kind::kWildcard;
        } else {
          selector.name = std::string(name);
        }
        segment.selectors.push_back(std::move(selector));
      }
      pos = end;
    }
    segments.push_back(std::move(segment));
  }
  return segments;
}

}  // namespace

struct Path::Impl {
  std::string source;
  std::vector<Segment> segments;
  std::vector<std::string> leading_names;  // see Path::leading_names

  // Evaluation state: node pointers into the document or into `owned`, which holds computed
  // values ("length") for the whole evaluation; a deque never moves what it already holds.
  struct Nodes {
    std::vector<const ir::Json*> items;
    std::deque<ir::Json>& owned;
    Budget& budget;
  };

  // Each child visited costs a unit. A name step costs nothing: it selects at most one node
  // per node the step before selected (and paid for), and leaving it free keeps the cost of a
  // selection the same whether its leading names were followed on the tree or on simdjson's
  // tape (select_from).
  static void children(const ir::Json& value, Budget& budget,
                       const std::function<void(const ir::Json&)>& visit) {
    if (value.is_array() || value.is_object()) {
      for (const auto& child : value) {
        budget.charge(1);
        visit(child);
      }
    }
  }

  static void apply(const Selector& selector, const ir::Json& value, Nodes& out) {
    switch (selector.kind) {
      case Selector::Kind::kName: {
        if (value.is_string() && selector.name == "length") {
          // JavaScript counts UTF-16 code units.
          std::size_t units = 0;
          for (unsigned char c : value.get_ref<const std::string&>()) {
            if ((c & 0xC0) != 0x80) units += (c >= 0xF0) ? 2 : 1;
          }
          out.items.push_back(&out.owned.emplace_back(units));
          return;
        }
        ir::Json scratch;
        const ir::Json* found = js::property(value, selector.name, scratch);
        if (found == &scratch) {
          out.items.push_back(&out.owned.emplace_back(std::move(scratch)));
        } else if (found != nullptr) {
          out.items.push_back(found);
        }
        return;
      }
      case Selector::Kind::kWildcard:
        children(value, out.budget, [&](const ir::Json& child) { out.items.push_back(&child); });
        return;
      case Selector::Kind::kSlice: {
        if (!value.is_array()) return;
        const long size = static_cast<long>(value.size());
        auto clamp = [size](long index) {
          if (index < 0) index += size;
          return std::max(0L, std::min(index, size));
        };
        const long start = clamp(selector.slice.start.value_or(0));
        const long end = clamp(selector.slice.end.value_or(size));
        for (long i = start; i < end; i += std::max(1L, selector.slice.step)) {
          out.budget.charge(1);
          out.items.push_back(&value[static_cast<std::size_t>(i)]);
        }
        return;
      }
      case Selector::Kind::kFilter:
        children(value, out.budget, [&](const ir::Json& child) {
          if (truthy(evaluate(*selector.filter, child, out.budget))) out.items.push_back(&child);
        });
        return;
    }
  }

  // `..`: the node itself, then every descendant object/array, in pre-order.
  static void descend(const ir::Json& value, const Segment& segment, Nodes& out) {
    for (const auto& selector : segment.selectors) apply(selector, value, out);
    children(value, out.budget, [&](const ir::Json& child) {
      if (child.is_object() || child.is_array()) descend(child, segment, out);
    });
  }
};

Path::Path(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Path::Path(Path&&) noexcept = default;
Path& Path::operator=(Path&&) noexcept = default;
Path::Path(const Path& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
Path& Path::operator=(const Path& other) {
  impl_ = std::make_unique<Impl>(*other.impl_);
  return *this;
}
Path::~Path() = default;

std::variant<Path, std::string> Path::parse(std::string_view selector) {
  auto segments = parse_path(selector);
  if (!segments) return "invalid jsonpath selector: " + std::string(selector);
  auto impl = std::make_unique<Impl>();
  impl->source = std::string(selector);
  impl->segments = std::move(*segments);
  for (const auto& segment : impl->segments) {
    if (segment.recursive || segment.selectors.size() != 1 ||
        segment.selectors.front().kind != Selector::Kind::kName) {
      break;
    }
    impl->leading_names.push_back(segment.selectors.front().name);
  }
  return Path(std::move(impl));
}

const std::vector<std::string>& Path::leading_names() const {
  return impl_->leading_names;
}

std::vector<ir::Json> Path::select(const ir::Json& document) const {
  return select_from(document, 0).value_or(std::vector<ir::Json>());
}

std::optional<std::vector<ir::Json>> Path::try_select(const ir::Json& document) const {
  return select_from(document, 0);
}

std::optional<std::vector<ir::Json>> Path::select_from(const ir::Json& start,
                                                       std::size_t first_segment) const {
  std::deque<ir::Json> owned;
  Budget budget;
  try {
    Impl::Nodes current{{&start}, owned, budget};
    const auto& segments = impl_->segments;
    for (std::size_t i = std::min(first_segment, segments.size()); i < segments.size(); ++i) {
      const Segment& segment = segments[i];
      Impl::Nodes next{{}, owned, budget};
      for (const ir::Json* node : current.items) {
        if (segment.recursive) {
          Impl::descend(*node, segment, next);
        } else {
          for (const auto& selector : segment.selectors) Impl::apply(selector, *node, next);
        }
      }
      current.items = std::move(next.items);
    }
    for (const ir::Json* node : current.items) budget.charge_tree(*node);
    std::vector<ir::Json> out;
    out.reserve(current.items.size());
    for (const ir::Json* node : current.items) out.push_back(*node);
    return out;
  } catch (const Budget::Exhausted&) {
    return std::nullopt;
  }
}

const std::string& Path::source() const {
  return impl_->source;
}

// ---------------------------------------------------------------------------------------------
// JSON.parse on simdjson: the thread's parser (compiler/json_stream.h).

std::optional<ir::Json> JsonParser::parse(std::string_view text) {
  return json_stream::parse(text);
}

std::optional<ir::Json> parse_json(std::string_view text) {
  return json_stream::parse(text);
}

}  // namespace rift::jsonpath
