#include "compiler/json_stream.h"

#include <simdjson.h>

#include <algorithm>
#include <memory>

#include "compiler/ascii.h"
#include "compiler/nesting.h"
#include "compiler/predicate_value.h"

namespace rift::json_stream {
namespace {

// Bodies above this size are parsed by a parser of their own, so that one large request does not
// leave its buffers attached to the thread for good.
constexpr std::size_t kThreadParserLimit = std::size_t{1} << 20;

// simdjson refuses texts nested deeper than the parser's max_depth with DEPTH_ERROR, before any
// conversion; the depth is set once, by the first allocation, and kept when a larger text makes
// the parser grow. simdjson counts the document itself as a level, hence the + 1.
constexpr std::size_t kInitialCapacity = 4096;

void bound_depth(simdjson::dom::parser& parser) {
  constexpr std::size_t kDepth = nesting::kMaxDepth + 1;
  if (parser.max_depth() != kDepth) {
    // Out of memory leaves the parser unallocated; its parse() then fails with MEMALLOC too.
    [[maybe_unused]] const simdjson::error_code error =
        parser.allocate(std::max(parser.capacity(), kInitialCapacity), kDepth);
  }
}

// Parses with the thread's parser (or a one-shot one for a large text) and hands the root to
// `read` while the tape is alive. The tape is only valid until the next parse on this thread, so
// `read` converts what it needs before returning and must not parse JSON itself.
template <typename Read>
auto with_root(std::string_view text, Read read) -> decltype(read(simdjson::dom::element())) {
  thread_local simdjson::dom::parser thread_parser;
  std::unique_ptr<simdjson::dom::parser> own;
  simdjson::dom::parser* parser = &thread_parser;
  if (text.size() > kThreadParserLimit) {
    own = std::make_unique<simdjson::dom::parser>();
    parser = own.get();
  }
  bound_depth(*parser);
  simdjson::dom::element root;
  const auto error = parser->parse(text.data(), text.size(), true).get(root);
  if (!error) return read(root);
  using Result = decltype(read(simdjson::dom::element()));
  Result out;
  // Integers beyond 64 bits (doubles in JavaScript): simdjson refuses them where JSON.parse does
  // not. A text nested deeper than nesting::kMaxDepth counts as no JSON at all (every walk over
  // the tree it would make recurses once per level).
  out.outcome = error == simdjson::NUMBER_ERROR ? Outcome::kUnsupported : Outcome::kNotJson;
  return out;
}

// How a converted number is typed.
enum class Numbers {
  kJavaScript,  // every number a double, as JSON.parse gives it
  kNlohmann,    // as ir::Json::parse: non-negative integers unsigned, negative ones signed
};

// The one conversion of a simdjson value into ir::Json. Recursion is bounded by the parser's
// depth limit (bound_depth).
template <Numbers numbers>
ir::Json convert(simdjson::dom::element element) {
  switch (element.type()) {
    case simdjson::dom::element_type::ARRAY: {
      const simdjson::dom::array array = element.get_array().value_unsafe();
      ir::Json out = ir::Json::array();
      out.get_ref<ir::Json::array_t&>().reserve(array.size());
      for (simdjson::dom::element child : array) out.push_back(convert<numbers>(child));
      return out;
    }
    case simdjson::dom::element_type::OBJECT: {
      const simdjson::dom::object object = element.get_object().value_unsafe();
      ir::Json out = ir::Json::object();
      for (simdjson::dom::key_value_pair field : object) {
        out[std::string(field.key)] = convert<numbers>(field.value);  // repeated keys: last wins
      }
      return out;
    }
    case simdjson::dom::element_type::INT64: {
      const int64_t value = element.get_int64().value_unsafe();
      if constexpr (numbers == Numbers::kJavaScript) return static_cast<double>(value);
      // nlohmann keeps what has no minus sign unsigned; comparisons and dump() do not care,
      // but is_number_unsigned() does.
      if (value >= 0) return static_cast<uint64_t>(value);
      return value;
    }
    case simdjson::dom::element_type::UINT64: {
      const uint64_t value = element.get_uint64().value_unsafe();
      if constexpr (numbers == Numbers::kJavaScript) return static_cast<double>(value);
      return value;
    }
    case simdjson::dom::element_type::DOUBLE:
      return element.get_double().value_unsafe();
    case simdjson::dom::element_type::STRING:
      return std::string(element.get_string().value_unsafe());
    case simdjson::dom::element_type::BOOL:
      return element.get_bool().value_unsafe();
    case simdjson::dom::element_type::NULL_VALUE:
      return nullptr;
  }
  return nullptr;
}

// Integers beyond 64 bits: JavaScript reads them as doubles.
ir::Json to_doubles(ir::Json value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_structured()) {
    for (auto& child : value) child = to_doubles(std::move(child));
  }
  return value;
}

bool trivial(const predicates::Transform& transform) {
  return !transform.lower_keys && !transform.lower_values && !transform.except;
}

// try_json's normalization of one converted value.
ir::Json normalized(simdjson::dom::element element, const predicates::Transform& transform) {
  ir::Json value = convert<Numbers::kJavaScript>(element);
  if (trivial(transform)) return value;
  return predicates::transform_json(value, transform);
}

// Whether a document key, normalized by `transform`, is `name`.
bool key_is(std::string_view key, const std::string& name, const predicates::Transform& transform) {
  if (!transform.lower_keys) return key == name;
  bool ascii_only = true;
  for (char c : key) ascii_only = ascii_only && (static_cast<unsigned char>(c) < 0x80);
  if (ascii_only) {
    return std::equal(key.begin(), key.end(), name.begin(), name.end(),
                      [](char k, char n) { return ascii::lower(k) == n; });
  }
  return js::lower(key) == name;
}

// The member of `object` that try_json keeps under the normalized key `name`. JSON.parse keeps
// a repeated key's last value at its first position; transform_json then assigns the members in
// that order, so among differently spelled keys that fold to `name` the spelling that appeared
// first latest wins, with that spelling's last value.
std::optional<simdjson::dom::element> member(simdjson::dom::object object, const std::string& name,
                                             const predicates::Transform& transform) {
  std::optional<simdjson::dom::element> found;
  std::string_view spelling;
  std::vector<std::string_view> spellings;  // those seen, when folding can merge several
  for (auto field : object) {
    if (!key_is(field.key, name, transform)) continue;
    if (found && field.key != spelling) {
      if (std::find(spellings.begin(), spellings.end(), field.key) != spellings.end()) continue;
    }
    if (transform.lower_keys) spellings.push_back(field.key);
    spelling = field.key;
    found = field.value;
  }
  return found;
}

// js::property's canonical array index: digits, no leading zero, at most 9 of them.
std::optional<std::size_t> array_index(const std::string& key) {
  if (key.empty() || key.size() > 9 || (key.size() > 1 && key[0] == '0')) return std::nullopt;
  std::size_t index = 0;
  for (char c : key) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + static_cast<std::size_t>(c - '0');
  }
  return index;
}

// A JSON string literal as nlohmann's dump writes it (canonical's notation).
void append_quoted(const std::string& text, std::string& out) {
  out += ir::Json(text).dump(-1, ' ', false, ir::Json::error_handler_t::replace);
}

// predicates::canonical of the forced, twice-normalized value (see forced_canonical): every
// scalar is a string, object keys are sorted, arrays sorted at every level.
void append_forced_canonical(simdjson::dom::element element, const predicates::Transform& transform,
                             std::string& out) {
  switch (element.type()) {
    case simdjson::dom::element_type::OBJECT: {
      // JSON.parse's and transform_json's merging of repeated and folded keys (see member()):
      // number the spellings by first appearance, keep each one's last value, then let the
      // latest spelling win each folded key.
      struct Spelling {
        std::string_view raw;
        std::size_t first = 0;
        simdjson::dom::element value;
      };
      std::vector<Spelling> spellings;
      std::size_t position = 0;
      for (auto field : element.get_object()) {
        spellings.push_back({field.key, position++, field.value});
      }
      std::stable_sort(spellings.begin(), spellings.end(),
                       [](const Spelling& a, const Spelling& b) { return a.raw < b.raw; });
      struct Member {
        std::string key;
        std::size_t first = 0;
        simdjson::dom::element value;
      };
      std::vector<Member> members;
      for (std::size_t i = 0; i < spellings.size();) {
        std::size_t last = i;
        while (last + 1 < spellings.size() && spellings[last + 1].raw == spellings[i].raw) ++last;
        members.push_back({transform.key(std::string(spellings[i].raw)), spellings[i].first,
                           spellings[last].value});
        i = last + 1;
      }
      std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) {
        return a.key != b.key ? a.key < b.key : a.first < b.first;
      });
      out += '{';
      bool first = true;
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (i + 1 < members.size() && members[i + 1].key == members[i].key) continue;
        if (!first) out += ',';
        first = false;
        append_quoted(members[i].key, out);
        out += ':';
        append_forced_canonical(members[i].value, transform, out);
      }
      out += '}';
      return;
    }
    case simdjson::dom::element_type::ARRAY: {
      std::vector<std::string> elements;
      for (auto child : element.get_array()) {
        std::string text;
        append_forced_canonical(child, transform, text);
        elements.push_back(std::move(text));
      }
      predicates::append_canonical_array(elements, true, out);
      return;
    }
    case simdjson::dom::element_type::STRING:
      // try_json normalized it once, the second transform_json does again.
      append_quoted(transform.apply(transform.apply(std::string(std::string_view(element)))), out);
      return;
    default:
      // force_strings' String(value), then the second transform_json.
      append_quoted(transform.apply(js::to_string(convert<Numbers::kJavaScript>(element))), out);
      return;
  }
}

}  // namespace

Canonical forced_canonical(std::string_view text, const predicates::Transform& transform) {
  return with_root(text, [&](simdjson::dom::element root) {
    Canonical out;
    out.outcome = Outcome::kRead;
    append_forced_canonical(root, transform, out.text);
    return out;
  });
}

std::optional<ir::Json> parse(std::string_view text) {
  struct Parsed {
    Outcome outcome = Outcome::kRead;
    std::optional<ir::Json> value;
  };
  Parsed parsed = with_root(text, [](simdjson::dom::element root) {
    return Parsed{Outcome::kRead, convert<Numbers::kJavaScript>(root)};
  });
  if (parsed.outcome == Outcome::kUnsupported) return parse_plainly(text);
  return std::move(parsed.value);
}

// nlohmann's lexer takes a NUL byte for the end of the text, so `{"a": 1}\0junk` would parse.
// JSON.parse refuses a NUL anywhere (outside strings it is no whitespace, inside one it must be
// escaped), so a text holding one is never JSON (found by tests/fuzz/fuzz_predicates: the slow
// paths read such a body as JSON, the fast paths did not).
namespace {
bool holds_nul(std::string_view text) {
  return text.find('\0') != std::string_view::npos;
}
}  // namespace

ir::Json parse_nlohmann(std::string_view text) {
  // A parser of its own, released on return: admin bodies run to megabytes, and the control
  // thread that reads them should not keep a parser's buffers for good.
  simdjson::dom::parser parser;
  bound_depth(parser);
  simdjson::dom::element root;
  const auto error = parser.parse(text.data(), text.size(), true).get(root);
  if (error == simdjson::SUCCESS) return convert<Numbers::kNlohmann>(root);
  if (nesting::json_exceeds(text) || holds_nul(text)) {
    return ir::Json(ir::Json::value_t::discarded);
  }
  return ir::Json::parse(text, nullptr, false);
}

std::optional<ir::Json> parse_plainly(std::string_view text) {
  // JSON.parse reads U+FEFF as no whitespace, so a text that starts with a byte order mark is not
  // JSON (simdjson refuses it too); nlohmann's parser would skip it.
  if (text.starts_with("\xEF\xBB\xBF") || nesting::json_exceeds(text) || holds_nul(text)) {
    return std::nullopt;
  }
  auto parsed = ir::Json::parse(text, nullptr, false);
  if (parsed.is_discarded()) return std::nullopt;
  return to_doubles(std::move(parsed));
}

Walk walk(std::string_view text, const std::vector<std::string>& names,
          const predicates::Transform& transform) {
  return with_root(text, [&](simdjson::dom::element node) {
    Walk out;
    out.outcome = Outcome::kRead;
    if (node.type() == simdjson::dom::element_type::STRING) {
      out.root_is_string = true;
      return out;
    }
    for (const std::string& name : names) {
      if (node.type() == simdjson::dom::element_type::OBJECT) {
        auto found = member(node.get_object(), name, transform);
        if (!found) return out;
        node = *found;
      } else if (node.type() == simdjson::dom::element_type::ARRAY && name != "length") {
        const auto index = array_index(name);
        simdjson::dom::element element;
        if (!index || node.get_array().at(*index).get(element)) return out;
        node = element;
      } else {
        break;  // a scalar, or an array's length: the caller's evaluator takes over
      }
      ++out.consumed;
    }
    out.node = normalized(node, transform);
    return out;
  });
}

Members members(std::string_view text, const std::vector<std::string>& keys,
                const predicates::Transform& transform) {
  return with_root(text, [&](simdjson::dom::element root) {
    Members out;
    if (root.type() != simdjson::dom::element_type::OBJECT) return out;  // kUnsupported
    out.outcome = Outcome::kRead;
    const simdjson::dom::object object = root.get_object();
    out.values.reserve(keys.size());
    for (const std::string& key : keys) {
      const auto element = member(object, key, transform);
      out.values.push_back(element ? std::optional<ir::Json>(normalized(*element, transform))
                                   : std::nullopt);
    }
    return out;
  });
}

}  // namespace rift::json_stream
