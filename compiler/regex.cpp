#include "compiler/regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <array>

namespace rift {

struct Regex::Code {
  pcre2_code* code = nullptr;
  bool jit = false;
  ~Code() { pcre2_code_free(code); }
};

namespace {

struct MatchDataDeleter {
  void operator()(pcre2_match_data* data) const { pcre2_match_data_free(data); }
};
using MatchData = std::unique_ptr<pcre2_match_data, MatchDataDeleter>;

bool is_ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Letters that are escapes in JavaScript (non-unicode mode). Any other escaped letter is an
// identity escape in JavaScript but may mean something (or be an error) in PCRE2.
bool js_letter_escape(char c, bool in_class) {
  switch (c) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 's':
    case 'S':
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case 'x':
    case 'u':
    case 'b':
      return true;
    case 'B':
    case 'k':
      return !in_class;
    default:
      return false;
  }
}

// Rewrites JavaScript regex syntax into the equivalent PCRE2 syntax, or returns an error for
// constructs JavaScript rejects but PCRE2 would accept (inline flags, possessive quantifiers).
struct Translated {
  std::string pattern;
  std::string error;  // non-empty: JavaScript would reject the pattern
};

Translated translate(std::string_view source) {
  std::string out;
  out.reserve(source.size() + 8);
  bool in_class = false;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '\\') {
      if (i + 1 >= source.size()) return {{}, "\\ at end of pattern"};
      const char next = source[++i];
      if (next == 'v') {
        out += "\\x0B";  // PCRE2's \v is a class of vertical spaces
      } else if (next == 'c') {
        if (i + 1 < source.size() && is_ascii_letter(source[i + 1])) {
          out += "\\c";
          out += source[++i];
        } else {
          out += "\\\\c";  // Annex B: a lone \c is a literal backslash and c
        }
      } else if (is_ascii_letter(next) && !js_letter_escape(next, in_class)) {
        out += next;  // identity escape
      } else {
        out += '\\';
        out += next;
      }
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      if (c == '[') {
        out += "\\[";  // JavaScript has no POSIX [:classes:]
        continue;
      }
      out += c;
      continue;
    }
    switch (c) {
      case '[':
        in_class = true;
        out += c;
        if (i + 1 < source.size() && source[i + 1] == '^') out += source[++i];
        if (i + 1 < source.size() && source[i + 1] == ']') {
          // `[]` / `[^]`: keep as is, ALLOW_EMPTY_CLASS gives them JavaScript's meaning.
          out += source[++i];
          in_class = false;
        }
        continue;
      case '(':
        if (i + 1 < source.size() && source[i + 1] == '?') {
          const std::string_view rest = source.substr(i + 2);
          const bool ok = rest.starts_with(":") || rest.starts_with("=") || rest.starts_with("!") ||
                          rest.starts_with("<=") || rest.starts_with("<!") ||
                          (rest.starts_with("<") && rest.size() > 1 &&
                           (is_ascii_letter(rest[1]) || rest[1] == '_' || rest[1] == '$'));
          if (!ok) return {{}, "Invalid group"};
        }
        out += c;
        continue;
      case '*':
      case '+':
      case '?':
        out += c;
        if (i + 1 < source.size() && source[i + 1] == '+' &&
            !(c == '?' && i > 0 && source[i - 1] == '(')) {
          return {{}, "Nothing to repeat"};
        }
        continue;
      default:
        out += c;
        continue;
    }
  }
  if (in_class) return {{}, "Unterminated character class"};
  return {std::move(out), {}};
}

}  // namespace

std::optional<std::string_view> RegexMatch::group(std::string_view subject,
                                                  std::size_t index) const {
  if (index >= groups.size() || !groups[index]) return std::nullopt;
  return subject.substr(groups[index]->begin, groups[index]->end - groups[index]->begin);
}

Regex::Regex(std::shared_ptr<const Code> code, std::string source, bool ignore_case)
    : code_(std::move(code)), source_(std::move(source)), ignore_case_(ignore_case) {}

std::variant<Regex, std::string> Regex::compile(std::string_view source, bool ignore_case,
                                                bool multiline) {
  auto translated = translate(source);
  if (!translated.error.empty()) {
    return "Invalid regular expression: /" + std::string(source) + "/: " + translated.error;
  }
  const std::string& pattern = translated.pattern;
  uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX |
                     PCRE2_ALLOW_EMPTY_CLASS | PCRE2_MATCH_UNSET_BACKREF;
  if (ignore_case) options |= PCRE2_CASELESS;
  if (multiline) options |= PCRE2_MULTILINE;

  std::unique_ptr<pcre2_compile_context, decltype(&pcre2_compile_context_free)> context(
      pcre2_compile_context_create(nullptr), &pcre2_compile_context_free);
  // JavaScript's `.` excludes \r as well as \n.
  pcre2_set_newline(context.get(), PCRE2_NEWLINE_ANYCRLF);

  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   options, &error_code, &error_offset, context.get());
  if (code == nullptr) {
    std::array<PCRE2_UCHAR, 256> buffer{};
    pcre2_get_error_message(error_code, buffer.data(), buffer.size());
    return "Invalid regular expression: /" + std::string(source) +
           "/: " + reinterpret_cast<const char*>(buffer.data());
  }
  auto owned = std::make_shared<Code>();
  owned->code = code;
  owned->jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
  return Regex(std::move(owned), std::string(source), ignore_case);
}

namespace {

// Runs one match from `start`; returns the match count (>0) or a negative PCRE2 code.
int run(const pcre2_code* code, std::string_view subject, std::size_t start,
        pcre2_match_data* data) {
  return pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), start, 0,
                     data, nullptr);
}

MatchData make_match_data(const pcre2_code* code) {
  return MatchData(pcre2_match_data_create_from_pattern(code, nullptr));
}

}  // namespace

bool Regex::test(std::string_view subject) const {
  // A yes/no needs no captures: one match block per thread, with one ovector pair, serves every
  // pattern, and PCRE2 keeps its backtracking frames in it between calls (no allocation).
  // PCRE2 returns 0, not a failure, when the captures do not fit that one pair.
  thread_local const MatchData data(pcre2_match_data_create(1, nullptr));
  return run(code_->code, subject, 0, data.get()) >= 0;
}

std::optional<RegexMatch> Regex::exec(std::string_view subject, std::size_t start) const {
  if (start > subject.size()) return std::nullopt;
  MatchData data = make_match_data(code_->code);
  if (run(code_->code, subject, start, data.get()) <= 0) return std::nullopt;
  const uint32_t pairs = pcre2_get_ovector_count(data.get());
  const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
  uint32_t capture_count = 0;
  pcre2_pattern_info(code_->code, PCRE2_INFO_CAPTURECOUNT, &capture_count);
  RegexMatch match;
  match.groups.resize(capture_count + 1);
  for (uint32_t i = 0; i <= capture_count && i < pairs; ++i) {
    if (ovector[2 * i] == PCRE2_UNSET) continue;
    match.groups[i] = RegexMatch::Span{ovector[2 * i], ovector[2 * i + 1]};
  }
  return match;
}

std::string Regex::replace_all(std::string_view subject, std::string_view replacement) const {
  MatchData data = make_match_data(code_->code);
  std::string out;
  std::size_t copied = 0;  // subject[0, copied) is already in `out`
  std::size_t position = 0;
  while (position <= subject.size()) {
    if (run(code_->code, subject, position, data.get()) <= 0) break;
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
    const std::size_t begin = ovector[0];
    const std::size_t end = ovector[1];
    out.append(subject.substr(copied, begin - copied));
    out.append(replacement);
    copied = end;
    if (end == begin) {
      // JavaScript advances lastIndex past an empty match; step over one UTF-8 character.
      if (end >= subject.size()) break;
      std::size_t next = end + 1;
      while (next < subject.size() && (static_cast<unsigned char>(subject[next]) & 0xC0) == 0x80) {
        ++next;
      }
      position = next;
    } else {
      position = end;
    }
  }
  out.append(subject.substr(copied));
  return out;
}

}  // namespace rift
