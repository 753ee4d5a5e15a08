#include "runtime/smtp/html_text.h"

#include <glib.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "compiler/text_encoding.h"
#include "runtime/smtp/html_entities.h"
#include "runtime/smtp/js_text.h"

namespace rift::smtp {
namespace {

// ---- UTF-8 -------------------------------------------------------------------------------------

// The code point at `at` and its length in bytes (text is valid UTF-8).
uint32_t code_point(std::string_view text, size_t at, size_t& length) {
  const auto lead = static_cast<unsigned char>(text[at]);
  if (lead < 0x80) {
    length = 1;
    return lead;
  }
  length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  length = std::min(length, text.size() - at);
  uint32_t code = lead & (0xFF >> (length + 1));
  for (size_t i = 1; i < length; ++i)
    code = (code << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3F);
  return code;
}

// A JavaScript string's length: UTF-16 code units.
long js_length(std::string_view text) {
  long units = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte & 0xC0) != 0x80) units += byte >= 0xF0 ? 2 : 1;
  }
  return units;
}

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// ---- Character references (htmlparser2 with decodeEntities) ------------------------------------

void append_numeric(std::string& out, uint32_t code) {
  if (auto replaced = numeric_override(code)) {
    out.append(*replaced);
  } else if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    out.append("\xEF\xBF\xBD");
  } else {
    append_utf8(out, code);
  }
}

std::string decode_references(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t amp = text.find('&', i);
    out.append(text.substr(i, amp == std::string_view::npos ? std::string_view::npos : amp - i));
    if (amp == std::string_view::npos) break;
    i = amp + 1;
    if (i < text.size() && text[i] == '#') {
      const bool hex = i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X');
      size_t j = i + (hex ? 2 : 1);
      const size_t digits = j;
      uint64_t code = 0;
      while (j < text.size() && (hex ? std::isxdigit(static_cast<unsigned char>(text[j])) != 0
                                     : (text[j] >= '0' && text[j] <= '9'))) {
        const char c = text[j++];
        const uint64_t value = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        code = std::min<uint64_t>(code * (hex ? 16 : 10) + value, 0x110000);
      }
      if (j == digits) {
        out.push_back('&');
        continue;
      }
      if (j < text.size() && text[j] == ';') ++j;
      append_numeric(out, static_cast<uint32_t>(code));
      i = j;
      continue;
    }
    size_t end = i;
    while (end < text.size() && end - i < 32 && is_alnum(text[end])) ++end;
    const std::string_view name = text.substr(i, end - i);
    if (end < text.size() && text[end] == ';') {
      if (auto value = named_reference(name)) {
        out.append(*value);
        i = end + 1;
        continue;
      }
    }
    // The longest Latin-1 name that may go without its ';'.
    size_t length = name.size();
    for (; length > 0; --length) {
      if (legacy_reference(name.substr(0, length))) break;
    }
    const size_t after = i + length;
    if (length > 0 &&
        !(attribute && after < text.size() && (is_alnum(text[after]) || text[after] == '='))) {
      out.append(*named_reference(name.substr(0, length)));
      i = after;
      continue;
    }
    out.push_back('&');
  }
  return out;
}

// ---- The document (htmlparser2's tree rules) ---------------------------------------------------

struct Node {
  enum class Kind { text, element, ignored };
  Kind kind = Kind::element;
  std::string name;  // lower-cased tag name
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string text;
  std::vector<std::unique_ptr<Node>> children;

  const std::string* attribute(std::string_view key) const {
    for (const auto& [name_, value] : attributes) {
      if (name_ == key) return &value;
    }
    return nullptr;
  }
};

bool is_void(std::string_view name) {
  static constexpr std::string_view kVoid[] = {
      "area", "base",  "basefont", "br",     "col",  "command", "embed", "frame",  "hr",    "image",
      "img",  "input", "isindex",  "keygen", "link", "meta",    "param", "source", "track", "wbr"};
  return std::find(std::begin(kVoid), std::end(kVoid), name) != std::end(kVoid);
}

// htmlparser2's openImpliesClose: the open elements a new one closes while they are innermost.
bool implied_close(std::string_view opening, std::string_view open) {
  static constexpr std::string_view kPClosers[] = {
      "p",        "h1",         "h2",     "h3",         "h4",      "h5",     "h6",
      "address",  "article",    "aside",  "blockquote", "details", "div",    "dl",
      "fieldset", "figcaption", "figure", "footer",     "form",    "header", "hr",
      "main",     "nav",        "ol",     "pre",        "section", "table",  "ul"};
  static constexpr std::string_view kFormTags[] = {"input",  "option",   "optgroup", "select",
                                                   "button", "datalist", "textarea"};
  auto in = [&](auto& list) {
    return std::find(std::begin(list), std::end(list), open) != std::end(list);
  };
  if (std::find(std::begin(kPClosers), std::end(kPClosers), opening) != std::end(kPClosers))
    return open == "p";
  if (opening == "tr") return open == "tr" || open == "th" || open == "td";
  if (opening == "th") return open == "th";
  if (opening == "td") return open == "thead" || open == "th" || open == "td";
  if (opening == "body") return open == "head" || open == "link" || open == "script";
  if (opening == "li") return open == "li";
  if (opening == "select" || opening == "input" || opening == "output" || opening == "button" ||
      opening == "datalist" || opening == "textarea") {
    return in(kFormTags);
  }
  if (opening == "option") return open == "option";
  if (opening == "optgroup") return open == "optgroup" || open == "option";
  if (opening == "dd" || opening == "dt") return open == "dd" || open == "dt";
  if (opening == "rt" || opening == "rp") return open == "rt" || open == "rp";
  if (opening == "tbody" || opening == "tfoot") return open == "thead" || open == "tbody";
  return false;
}

class TreeBuilder {
 public:
  static constexpr size_t kMaxDepth = 256;
  static constexpr size_t kMaxAttributes = 64;

  TreeBuilder() { stack_.push_back(&root_); }

  std::unique_ptr<Node> parse(std::string_view html) {
    size_t i = 0;
    while (i < html.size()) {
      if (html[i] != '<') {
        const size_t end = std::min(html.find('<', i), html.size());
        add_text(decode_references(html.substr(i, end - i), false));
        i = end;
        continue;
      }
      if (html.compare(i, 4, "<!--") == 0) {
        const size_t end = html.find("-->", i + 4);
        i = end == std::string_view::npos ? html.size() : end + 3;
      } else if (i + 1 < html.size() && html[i + 1] == '/' && i + 2 < html.size() &&
                 is_alpha(html[i + 2])) {
        size_t end = i + 2;
        while (end < html.size() && html[end] != '>' && html[end] != '/' &&
               !std::isspace(static_cast<unsigned char>(html[end]))) {
          ++end;
        }
        close(ascii_lower(html.substr(i + 2, end - i - 2)));
        const size_t gt = html.find('>', end);
        i = gt == std::string_view::npos ? html.size() : gt + 1;
      } else if (i + 1 < html.size() && is_alpha(html[i + 1])) {
        i = start_tag(html, i + 1);
      } else if (i + 1 < html.size() &&
                 (html[i + 1] == '!' || html[i + 1] == '?' || html[i + 1] == '/')) {
        const size_t gt = html.find('>', i);
        i = gt == std::string_view::npos ? html.size() : gt + 1;
      } else {
        add_text("<");
        ++i;
      }
    }
    return std::make_unique<Node>(std::move(root_));
  }

 private:
  size_t start_tag(std::string_view html, size_t i) {
    size_t end = i;
    while (end < html.size() && html[end] != '>' && html[end] != '/' &&
           !std::isspace(static_cast<unsigned char>(html[end]))) {
      ++end;
    }
    auto element = std::make_unique<Node>();
    element->name = ascii_lower(html.substr(i, end - i));
    i = end;
    while (i < html.size() && html[i] != '>') {
      const char c = html[i];
      if (std::isspace(static_cast<unsigned char>(c)) || c == '/') {
        ++i;
        continue;
      }
      size_t name_end = i;
      while (name_end < html.size() && html[name_end] != '>' && html[name_end] != '/' &&
             html[name_end] != '=' && !std::isspace(static_cast<unsigned char>(html[name_end]))) {
        ++name_end;
      }
      if (name_end == i) ++name_end;  // a stray '=': part of no name
      std::string name = ascii_lower(html.substr(i, name_end - i));
      i = name_end;
      while (i < html.size() && std::isspace(static_cast<unsigned char>(html[i]))) ++i;
      std::string value;
      if (i < html.size() && html[i] == '=') {
        ++i;
        while (i < html.size() && std::isspace(static_cast<unsigned char>(html[i]))) ++i;
        if (i < html.size() && (html[i] == '"' || html[i] == '\'')) {
          const size_t close_quote = html.find(html[i], i + 1);
          const size_t value_end =
              close_quote == std::string_view::npos ? html.size() : close_quote;
          value = decode_references(html.substr(i + 1, value_end - i - 1), true);
          i = value_end == html.size() ? value_end : value_end + 1;
        } else {
          size_t value_end = i;
          while (value_end < html.size() && html[value_end] != '>' &&
                 !std::isspace(static_cast<unsigned char>(html[value_end]))) {
            ++value_end;
          }
          value = decode_references(html.substr(i, value_end - i), true);
          i = value_end;
        }
      }
      // Only a few attributes are ever read; a tag with thousands of them must not cost
      // thousands squared lookups.
      if (element->attributes.size() < kMaxAttributes && element->attribute(name) == nullptr) {
        element->attributes.emplace_back(std::move(name), std::move(value));
      }
    }
    if (i < html.size()) ++i;  // '>'
    const std::string name = element->name;
    open(std::move(element));
    if (name == "script" || name == "style" || name == "title" || name == "textarea") {
      // Raw text up to the matching end tag: script and style are not text at all.
      const std::string closing = "</" + name;
      size_t end = i;
      while (end < html.size()) {
        end = html.find("</", end);
        if (end == std::string_view::npos) {
          end = html.size();
          break;
        }
        if (ascii_lower(html.substr(end, closing.size())) == closing) break;
        end += 2;
      }
      const std::string_view raw = html.substr(i, end - i);
      if (name == "script" || name == "style") {
        stack_.back()->kind = Node::Kind::ignored;
      } else if (!raw.empty()) {
        add_text(decode_references(raw, false));
      }
      close(name);
      const size_t gt = html.find('>', end);
      i = end >= html.size() ? end : (gt == std::string_view::npos ? html.size() : gt + 1);
    }
    return i;
  }

  void open(std::unique_ptr<Node> element) {
    while (stack_.size() > 1 && implied_close(element->name, stack_.back()->name))
      stack_.pop_back();
    Node* raw = element.get();
    stack_.back()->children.push_back(std::move(element));
    // Past kMaxDepth an element holds nothing: what follows goes to its parent, so rendering (and
    // destroying) the tree recurses a bounded depth however deep the markup nests.
    if (!is_void(raw->name) && stack_.size() < kMaxDepth) stack_.push_back(raw);
  }

  void close(const std::string& name) {
    if (is_void(name)) {
      if (name == "br") open(std::make_unique<Node>(Node{Node::Kind::element, "br", {}, {}, {}}));
      return;
    }
    for (size_t depth = stack_.size(); depth-- > 1;) {
      if (stack_[depth]->name == name) {
        stack_.resize(depth);
        return;
      }
    }
    if (name == "p") {
      open(std::make_unique<Node>(Node{Node::Kind::element, "p", {}, {}, {}}));
      stack_.pop_back();
    }
  }

  void add_text(std::string text) {
    if (text.empty()) return;
    auto& children = stack_.back()->children;
    if (!children.empty() && children.back()->kind == Node::Kind::text) {
      children.back()->text.append(text);
      return;
    }
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::text;
    node->text = std::move(text);
    children.push_back(std::move(node));
  }

  Node root_;
  std::vector<Node*> stack_;
};

// ---- The text builder (html-to-text's InlineTextBuilder and BlockTextBuilder) ------------------

constexpr long kWordwrap = 80;

// html-to-text's whitespace: space, tab, CR, LF, form feed and U+200B.
size_t html_space_at(std::string_view text, size_t at) {
  const char c = text[at];
  if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') return 1;
  return text.compare(at, 3, "\xE2\x80\x8B") == 0 ? 3 : 0;
}

class InlineBuilder {
 public:
  explicit InlineBuilder(long max_line) : max_line_(max_line), available_(max_line) {}

  long max_line() const { return max_line_; }
  bool stashed_space = false;
  bool word_break = false;

  void push_word(std::string word) { push_word(std::move(word), js_length(word)); }

  void concat_word(std::string word) {
    const long length = js_length(word);
    if (word_break && length > available_) {
      push_word(std::move(word), length);
      word_break = false;
      return;
    }
    if (words_.empty()) {
      push_word(std::move(word), length);
      return;
    }
    // Glued to the last word: appended in place (a long run of inline elements without spaces
    // between them is one word, and copying it for each piece would be quadratic).
    std::string last = std::move(words_.back());
    const long last_length = lengths_.back();
    words_.pop_back();
    lengths_.pop_back();
    available_ += last_length + (words_.empty() ? 0 : 1);
    last.append(word);
    push_word(std::move(last), last_length + length);
  }

  void start_new_line(int count = 1) {
    lines_.push_back(std::move(words_));
    for (int i = 1; i < count; ++i) lines_.emplace_back();
    words_.clear();
    lengths_.clear();
    available_ = max_line_;
  }

  bool empty() const { return lines_.empty() && words_.empty(); }

  void clear() {
    lines_.clear();
    words_.clear();
    lengths_.clear();
    available_ = max_line_;
  }

  std::string str() const {
    std::string out;
    auto line = [&out](const std::vector<std::string>& words) {
      for (size_t i = 0; i < words.size(); ++i) out.append(i > 0 ? " " : "").append(words[i]);
    };
    for (const auto& words : lines_) {
      line(words);
      out.push_back('\n');
    }
    line(words_);
    return out;
  }

 private:
  void push_word(std::string word, long length) {
    if (available_ <= 0) start_new_line();
    const bool line_start = words_.empty();
    const long cost = length + (line_start ? 0 : 1);
    if (cost > available_ && !line_start) {
      start_new_line();  // too long for what is left: onto a new line (words are never split)
      available_ -= length;
    } else {
      available_ -= cost;
    }
    words_.push_back(std::move(word));
    lengths_.push_back(length);
  }

  std::vector<std::vector<std::string>> lines_;
  std::vector<std::string> words_;
  std::vector<long> lengths_;  // each word's JavaScript length
  long max_line_;
  long available_;
};

struct StackItem {
  enum class Kind { block, list, list_item };
  Kind kind;
  InlineBuilder inline_text;
  std::string raw;
  int leading;
  int stashed = 0;
  bool pre = false;
  int max_prefix = 0;  // list
  std::string prefix;  // list item
};

using Transform = std::function<std::string(std::string)>;

class TextBuilder {
 public:
  TextBuilder() {
    stack_.push_back(StackItem{StackItem::Kind::block, InlineBuilder(kWordwrap), "", 1});
  }

  std::string result() { return text_of(stack_.front()); }

  void push_transform(Transform transform) { transforms_.push_back(std::move(transform)); }
  void pop_transform() { transforms_.pop_back(); }

  void add_inline(const std::string& text, bool no_transform = false) {
    StackItem& top = stack_.back();
    if (top.pre) {
      top.raw.append(text);
      return;
    }
    if (text.empty() || (top.stashed > 0 && !contains_words(text))) return;
    if (top.stashed > 0) top.inline_text.start_new_line(top.stashed);
    shrink_wrap_add(text, top.inline_text, no_transform);
    top.stashed = 0;
  }

  void add_line_break() {
    StackItem& top = stack_.back();
    if (top.pre) {
      top.raw.push_back('\n');
    } else {
      top.inline_text.start_new_line();
    }
  }

  void add_word_break_opportunity() { stack_.back().inline_text.word_break = true; }

  void open_block(int leading, long reserved = 0, bool pre = false) {
    const long max_line = std::max(20L, stack_.back().inline_text.max_line() - reserved);
    const bool inherited_pre = stack_.back().pre;
    stack_.push_back(StackItem{StackItem::Kind::block, InlineBuilder(max_line), "", leading});
    stack_.back().pre = inherited_pre || pre;
  }

  void close_block(int trailing,
                   const std::function<std::string(std::string)>& transform = nullptr) {
    StackItem block = pop();
    std::string text = text_of(block);
    if (transform) text = transform(std::move(text));
    add_text(stack_.back(), text, block.leading, std::max(block.stashed, trailing));
  }

  void open_list(int max_prefix, int leading) {
    const long max_line = stack_.back().inline_text.max_line();
    const bool inherited_pre = stack_.back().pre;
    stack_.push_back(StackItem{StackItem::Kind::list, InlineBuilder(max_line), "", leading});
    stack_.back().pre = inherited_pre;
    stack_.back().max_prefix = max_prefix;
  }

  void open_list_item(const std::string& prefix) {
    const StackItem& list = stack_.back();
    const long prefix_length = std::max<long>(js_length(prefix), list.max_prefix);
    const long max_line = std::max(20L, list.inline_text.max_line() - prefix_length);
    const bool inherited_pre = list.pre;
    stack_.push_back(StackItem{StackItem::Kind::list_item, InlineBuilder(max_line), "", 1});
    stack_.back().pre = inherited_pre;
    stack_.back().prefix = prefix;
  }

  void close_list_item() {
    StackItem item = pop();
    StackItem& list = stack_.back();
    const long prefix_length = std::max<long>(js_length(item.prefix), list.max_prefix);
    std::string text =
        item.prefix + std::string(static_cast<size_t>(prefix_length - js_length(item.prefix)), ' ');
    const std::string spacing = "\n" + std::string(static_cast<size_t>(prefix_length), ' ');
    for (char c : text_of(item)) {
      if (c == '\n') {
        text.append(spacing);
      } else {
        text.push_back(c);
      }
    }
    add_text(list, text, item.leading, std::max(item.stashed, 1));
  }

  void close_list(int trailing) {
    StackItem list = pop();
    const std::string text = text_of(list);
    if (!text.empty()) add_text(stack_.back(), text, list.leading, trailing);
  }

 private:
  StackItem pop() {
    StackItem item = std::move(stack_.back());
    stack_.pop_back();
    return item;
  }

  static std::string text_of(const StackItem& item) {
    return item.inline_text.empty() ? item.raw : item.raw + item.inline_text.str();
  }

  // The parent's text so far, then the line breaks, then `text`; written onto the parent's raw
  // text in place (copying the document's text for every closing block would be quadratic).
  static void add_text(StackItem& item, const std::string& text, int leading, int trailing) {
    const int breaks = std::max(item.stashed, leading);
    if (!item.inline_text.empty()) item.raw.append(item.inline_text.str());
    item.inline_text.clear();
    if (!item.raw.empty()) {
      item.raw.append(static_cast<size_t>(breaks), '\n');
      item.raw.append(text);
    } else {
      item.raw = text;
      item.leading = breaks;
    }
    item.stashed = trailing;
  }

  static bool contains_words(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
      const size_t space = html_space_at(text, i);
      if (space == 0) return true;
      i += space;
    }
    return false;
  }

  std::string transformed(std::string word) const {
    for (auto it = transforms_.rbegin(); it != transforms_.rend(); ++it)
      word = (*it)(std::move(word));
    return word;
  }

  void shrink_wrap_add(std::string_view text, InlineBuilder& builder, bool no_transform) {
    const bool previously_stashed = builder.stashed_space;
    bool any = false;
    size_t i = 0;
    while (i < text.size()) {
      const size_t space = html_space_at(text, i);
      if (space > 0) {
        i += space;
        continue;
      }
      size_t end = i;
      while (end < text.size() && html_space_at(text, end) == 0) ++end;
      std::string word(text.substr(i, end - i));
      if (!no_transform) word = transformed(std::move(word));
      if (!any && !previously_stashed && i == 0) {
        builder.concat_word(word);
      } else {
        builder.push_word(word);
      }
      any = true;
      i = end;
    }
    bool trailing_space = false;
    if (!text.empty()) {
      const size_t last = text.size() - 1;
      trailing_space = html_space_at(text, last) == 1 ||
                       (text.size() >= 3 && html_space_at(text, text.size() - 3) == 3);
    }
    builder.stashed_space = (previously_stashed && !any) || trailing_space;
  }

  std::vector<StackItem> stack_;
  std::vector<Transform> transforms_;
};

// ---- html-to-text's default formatters ---------------------------------------------------------

std::string upper(std::string word) {
  gchar* upper = g_utf8_strup(word.data(), static_cast<gssize>(word.size()));
  std::string out(upper);
  g_free(upper);
  return out;
}

std::string to_letters(long index, char first) {
  std::string out;
  for (; index > 0; index = (index - 1) / 26)
    out.insert(out.begin(), static_cast<char>(first + (index - 1) % 26));
  return out;
}

std::string to_roman(long index) {
  static constexpr std::pair<int, std::string_view> kNumerals[] = {
      {1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"},
      {40, "XL"},  {10, "X"},   {9, "IX"},  {5, "V"},    {4, "IV"},  {1, "I"}};
  std::string out;
  for (const auto& [value, numeral] : kNumerals) {
    for (; index >= value; index -= value) out.append(numeral);
  }
  return out;
}

class Renderer {
 public:
  void walk(const std::vector<std::unique_ptr<Node>>& nodes, const Node* parent) {
    for (const auto& node : nodes) visit(*node, parent);
  }

  void visit(const Node& node, const Node* parent) {
    switch (node.kind) {
      case Node::Kind::text:
        builder_.add_inline(node.text);
        return;
      case Node::Kind::ignored:
        return;
      case Node::Kind::element:
        format(node, parent);
        return;
    }
  }

  std::string result() { return builder_.result(); }

 private:
  void format(const Node& node, const Node* parent) {
    const std::string& name = node.name;
    static constexpr std::string_view kBlocks[] = {"article", "aside", "div", "footer", "form",
                                                   "header",  "main",  "nav", "section"};
    if (std::find(std::begin(kBlocks), std::end(kBlocks), name) != std::end(kBlocks)) {
      block(node, 1, 1);
    } else if (name == "p" || name == "table") {
      block(node, 2, 2);
    } else if (name == "a") {
      anchor(node);
    } else if (name == "blockquote") {
      builder_.open_block(2, 2);
      walk(node.children, &node);
      builder_.close_block(2, [](std::string text) {
        const size_t begin = text.find_first_not_of('\n');
        text = begin == std::string::npos
                   ? ""
                   : text.substr(begin, text.find_last_not_of('\n') - begin + 1);
        std::string out = "> ";
        for (char c : text) out.append(c == '\n' ? "\n> " : std::string(1, c));
        return out;
      });
    } else if (name == "br") {
      builder_.add_line_break();
    } else if (name == "wbr") {
      builder_.add_word_break_opportunity();
    } else if (name.size() == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6') {
      builder_.open_block(name[1] <= '3' ? 3 : 2);
      builder_.push_transform(upper);
      walk(node.children, &node);
      builder_.pop_transform();
      builder_.close_block(2);
    } else if (name == "hr") {
      builder_.open_block(2);
      builder_.add_inline(std::string(static_cast<size_t>(kWordwrap), '-'));
      builder_.close_block(2);
    } else if (name == "img") {
      const std::string* alt_attribute = node.attribute("alt");
      const std::string* src_attribute = node.attribute("src");
      const std::string alt = alt_attribute != nullptr ? *alt_attribute : "";
      const std::string src = src_attribute != nullptr ? *src_attribute : "";
      builder_.add_inline(
          src.empty() ? alt : (alt.empty() ? "[" + src + "]" : alt + " [" + src + "]"), true);
    } else if (name == "pre") {
      builder_.open_block(2, 0, true);
      walk(node.children, &node);
      builder_.close_block(2);
    } else if (name == "ul" || name == "ol") {
      list(node, parent);
    } else {
      walk(node.children, &node);  // inline
    }
  }

  void block(const Node& node, int leading, int trailing) {
    builder_.open_block(leading);
    walk(node.children, &node);
    builder_.close_block(trailing);
  }

  void anchor(const Node& node) {
    const std::string* attribute = node.attribute("href");
    std::string href = attribute != nullptr ? *attribute : "";
    if (href.compare(0, 7, "mailto:") == 0) href.erase(0, 7);
    if (!href.empty() && href.front() == '#') href.clear();
    if (href.empty()) {
      walk(node.children, &node);
      return;
    }
    std::string text;
    builder_.push_transform([&text](std::string word) {
      text.append(word);
      return word;
    });
    walk(node.children, &node);
    builder_.pop_transform();
    builder_.add_inline(text.empty() ? href : " [" + href + "]", true);
  }

  void list(const Node& node, const Node* parent) {
    const bool nested = parent != nullptr && parent->name == "li";
    const bool ordered = node.name == "ol";
    long next_index = 1;
    std::string type = "1";
    if (ordered) {
      if (const std::string* start = node.attribute("start")) {
        char* end = nullptr;
        const long value = std::strtol(start->c_str(), &end, 10);
        if (end != start->c_str()) next_index = value;
      }
      if (const std::string* kind = node.attribute("type")) type = *kind;
    }
    auto next_prefix = [&]() -> std::string {
      if (!ordered) return " * ";
      const long index = next_index++;
      std::string marker;
      if (type == "a") {
        marker = to_letters(index, 'a');
      } else if (type == "A") {
        marker = to_letters(index, 'A');
      } else if (type == "i") {
        marker = ascii_lower(to_roman(index));
      } else if (type == "I") {
        marker = to_roman(index);
      } else {
        marker = std::to_string(index);
      }
      return " " + marker + ". ";
    };
    std::vector<std::pair<const Node*, std::string>> items;
    long max_prefix = 0;
    for (const auto& child : node.children) {
      if (child->kind == Node::Kind::text && js_trim(child->text).empty()) continue;
      if (child->kind != Node::Kind::element || child->name != "li") {
        items.emplace_back(child.get(), "");
        continue;
      }
      std::string prefix = next_prefix();
      if (nested) prefix.erase(0, prefix.find_first_not_of(' '));
      max_prefix = std::max(max_prefix, js_length(prefix));
      items.emplace_back(child.get(), std::move(prefix));
    }
    if (items.empty()) return;
    builder_.open_list(static_cast<int>(max_prefix), nested ? 1 : 2);
    for (const auto& [item, prefix] : items) {
      builder_.open_list_item(prefix);
      visit(*item, &node);
      builder_.close_list_item();
    }
    builder_.close_list(nested ? 1 : 2);
  }

  TextBuilder builder_;
};

// The body elements, if the document has any; otherwise the whole document.
void find_bodies(const Node& node, std::vector<const Node*>& bodies) {
  for (const auto& child : node.children) {
    if (child->kind != Node::Kind::element) continue;
    if (child->name == "body") {
      bodies.push_back(child.get());
    } else {
      find_bodies(*child, bodies);
    }
  }
}

// he.encode's escape for one code point: &#x<HEX>;.
void hex_reference(std::string& out, uint32_t code) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string digits;
  for (; code > 0; code >>= 4) digits.insert(digits.begin(), kHex[code & 15]);
  out.append("&#x").append(digits.empty() ? "0" : digits).push_back(';');
}

// he's regexBmpWhitelist: the code points it leaves as they are (printable ASCII, LF, CR and a few
// C1 controls).
bool he_keeps(uint32_t code) {
  if (code == 0 || code == '\n' || code == '\r' || (code >= 0x20 && code <= 0x7E)) return true;
  if (code == 0x80 || (code >= 0x82 && code <= 0x8C) || code == 0x8E ||
      (code >= 0x91 && code <= 0x9C) || code == 0x9E || code == 0x9F) {
    return true;
  }
  return false;
}

std::string he_encode(std::string_view text, bool named) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t length = 0;
    const uint32_t code = code_point(text, i, length);
    if (code == '"' || code == '&' || code == '\'' || code == '<' || code == '>' || code == '`') {
      if (!named) {
        hex_reference(out, code);
      } else if ((code == '<' || code == '>') && text.compare(i + 1, 3, "\xE2\x83\x92") == 0) {
        out.append(code == '<' ? "&nvlt;" : "&nvgt;");
        i += 4;
        continue;
      } else {
        out.append("&").append(*reference_name(text.substr(i, 1))).push_back(';');
      }
      i += length;
      continue;
    }
    if (named) {
      // A pair with a name first (one non-ASCII character in it), then the character alone.
      size_t second_length = 0;
      if (i + length < text.size()) {
        code_point(text, i + length, second_length);
        const std::string_view pair = text.substr(i, length + second_length);
        if (code >= 0x80 || static_cast<unsigned char>(text[i + length]) >= 0x80) {
          if (auto name = reference_name(pair)) {
            out.append("&").append(*name).push_back(';');
            i += pair.size();
            continue;
          }
        }
      }
      if (code >= 0x80) {
        if (auto name = reference_name(text.substr(i, length))) {
          out.append("&").append(*name).push_back(';');
          i += length;
          continue;
        }
      }
    }
    if (he_keeps(code)) {
      out.append(text.substr(i, length));
    } else {
      hex_reference(out, code);
    }
    i += length;
  }
  return out;
}

}  // namespace

std::string html_to_text(std::string_view html) {
  const std::unique_ptr<Node> document = TreeBuilder().parse(html);
  std::vector<const Node*> bodies;
  find_bodies(*document, bodies);
  Renderer renderer;
  if (bodies.empty()) {
    renderer.walk(document->children, nullptr);
  } else {
    for (const Node* body : bodies) renderer.visit(*body, nullptr);
  }
  return renderer.result();
}

std::string html_escape(std::string_view text) {
  return he_encode(text, false);
}

std::string text_to_html(std::string_view text) {
  const std::string encoded = he_encode(text, true);
  // .replace(/\r?\n/g, '\n').trim()
  std::string lines;
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] == '\r' && i + 1 < encoded.size() && encoded[i + 1] == '\n') continue;
    lines.push_back(encoded[i]);
  }
  // .replace(/[ \t]+$/gm, '').trim(): spaces before each line end (LF or CR) and at the end.
  std::string stripped;
  size_t pending = 0;
  const std::string_view trimmed = js_trim(lines);
  for (size_t i = 0; i < trimmed.size(); ++i) {
    const char c = trimmed[i];
    if (c == ' ' || c == '\t') {
      ++pending;
      continue;
    }
    if (c != '\n' && c != '\r') stripped.append(trimmed.substr(i - pending, pending));
    pending = 0;
    stripped.push_back(c);
  }
  const std::string_view body = js_trim(stripped);
  // .replace(/\n\n+/g, '</p><p>').trim().replace(/\n/g, '<br/>')
  std::string paragraphs;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\n' && i + 1 < body.size() && body[i + 1] == '\n') {
      while (i + 1 < body.size() && body[i + 1] == '\n') ++i;
      paragraphs.append("</p><p>");
      continue;
    }
    paragraphs.push_back(body[i]);
  }
  std::string out = "<p>";
  for (char c : js_trim(paragraphs)) {
    if (c == '\n') {
      out.append("<br/>");
    } else {
      out.push_back(c);
    }
  }
  out.append("</p>");
  return out;
}

}  // namespace rift::smtp
