#include "frontends/ejs.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

namespace rift::frontends {
namespace {

// Guards against a file that includes itself.
constexpr int kMaxDepth = 32;

// The longest tag code matched against the regexes below. libstdc++'s std::regex recurses once per
// character, so a tag of a few tens of KiB overflowed the stack (found by a long-input probe of
// tests/fuzz/fuzz_ejs); the code Rift supports is a path or a name, far shorter than this.
constexpr std::size_t kMaxCodeBytes = 8192;

struct Tag {
  char kind = ' ';  // ' ' scriptlet, '-' raw output, '=' escaped output, '#' comment
  std::string code;
  bool trim_newline = false;  // `-%>`
};

std::string trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const std::size_t last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::optional<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&#34;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// JSON.stringify(text) without the surrounding quotes.
std::string json_escape(const std::string& text) {
  const std::string quoted =
      ir::Json(text).dump(-1, ' ', false, ir::Json::error_handler_t::replace);
  return quoted.substr(1, quoted.size() - 2);
}

class Renderer {
 public:
  explicit Renderer(std::string root_file) : root_file_(std::move(root_file)) {}

  std::variant<std::string, ConfigError> render(std::string_view text, const std::string& file,
                                                int depth) {
    if (depth > kMaxDepth) return ConfigError{"EJS include nesting is too deep", file};
    std::string out;
    std::size_t position = 0;
    while (position < text.size()) {
      const std::size_t open = text.find("<%", position);
      if (open == std::string_view::npos) {
        out.append(text.substr(position));
        break;
      }
      out.append(text.substr(position, open - position));
      if (text.substr(open, 3) == "<%%") {  // escaped literal
        out += "<%";
        position = open + 3;
        continue;
      }
      const std::size_t close = text.find("%>", open + 2);
      if (close == std::string_view::npos) {
        return error(file, text, open, "unterminated EJS tag (missing '%>')");
      }
      const Tag tag = parse_tag(text.substr(open + 2, close - open - 2));
      position = close + 2;
      if (tag.trim_newline) {
        if (text.substr(position, 2) == "\r\n")
          position += 2;
        else if (text.substr(position, 1) == "\n")
          position += 1;
      }
      auto rendered = evaluate(tag, file, text, open, depth);
      if (auto* failure = std::get_if<ConfigError>(&rendered)) return *failure;
      out += std::get<std::string>(rendered);
    }
    return out;
  }

 private:
  static Tag parse_tag(std::string_view inner) {
    Tag tag;
    if (!inner.empty() && (inner.front() == '-' || inner.front() == '=' || inner.front() == '#' ||
                           inner.front() == '_')) {
      tag.kind = inner.front() == '_' ? ' ' : inner.front();
      inner.remove_prefix(1);
    }
    if (!inner.empty() && (inner.back() == '-' || inner.back() == '_')) {
      tag.trim_newline = inner.back() == '-';
      inner.remove_suffix(1);
    }
    tag.code = trim(inner);
    return tag;
  }

  static ConfigError error(const std::string& file, std::string_view text, std::size_t offset,
                           std::string message) {
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    return ConfigError{std::move(message), file, line, static_cast<int>(offset - line_start) + 1};
  }

  std::variant<std::string, ConfigError> evaluate(const Tag& tag, const std::string& file,
                                                  std::string_view text, std::size_t offset,
                                                  int depth) {
    if (tag.kind == '#') return std::string();
    static const std::regex kInclude(R"(include\s+(\S+))");
    static const std::regex kEnv(
        R"(process\.env(?:\.([A-Za-z_$][\w$]*)|\[\s*['"]([^'"]+)['"]\s*\]))");
    static const std::regex kStringify(
        R"((?:stringify|inject)\(\s*(?:([A-Za-z_$][\w$]*|'[^']*'|"[^"]*")\s*,\s*)?('[^']*'|"[^"]*")\s*(?:,\s*[^)]*)?\))");
    std::smatch match;
    const std::string& code = tag.code;
    if (code.size() > kMaxCodeBytes) {
      return error(file, text, offset,
                   "EJS code longer than " + std::to_string(kMaxCodeBytes) + " bytes");
    }
    if (tag.kind == ' ' && std::regex_match(code, match, kInclude)) {
      return include(std::filesystem::path(file).parent_path() / match[1].str(), file, text, offset,
                     depth);
    }
    std::string value;
    if (std::regex_match(code, match, kEnv)) {
      const std::string name = match[1].matched ? match[1].str() : match[2].str();
      const char* env = std::getenv(name.c_str());
      value = env == nullptr ? "" : env;  // EJS prints undefined as nothing
    } else if (std::regex_match(code, match, kStringify)) {
      auto stringified = stringify(match[2].str(), file, text, offset, depth);
      if (auto* failure = std::get_if<ConfigError>(&stringified)) return *failure;
      value = std::get<std::string>(stringified);
    } else {
      return error(file, text, offset,
                   "unsupported EJS code '" + code +
                       "': only include, stringify/inject and process.env are supported; use "
                       "--noParse for plain JSON");
    }
    if (tag.kind == ' ') return std::string();  // a scriptlet outputs nothing
    return tag.kind == '=' ? html_escape(value) : value;
  }

  std::variant<std::string, ConfigError> include(const std::filesystem::path& path,
                                                 const std::string& file, std::string_view text,
                                                 std::size_t offset, int depth) {
    const auto contents = read_file(path);
    if (!contents) return error(file, text, offset, "cannot read included file " + path.string());
    return render(*contents, path.string(), depth + 1);
  }

  std::variant<std::string, ConfigError> stringify(const std::string& quoted,
                                                   const std::string& file, std::string_view text,
                                                   std::size_t offset, int depth) {
    const std::filesystem::path path =
        std::filesystem::path(root_file_).parent_path() / quoted.substr(1, quoted.size() - 2);
    const auto contents = read_file(path);
    if (!contents)
      return error(file, text, offset, "cannot read stringified file " + path.string());
    // The file is rendered as a template of its own, like Mountebank does.
    auto rendered = render(*contents, root_file_, depth + 1);
    if (auto* failure = std::get_if<ConfigError>(&rendered)) return *failure;
    return json_escape(trim(std::get<std::string>(rendered)));
  }

  std::string root_file_;
};

}  // namespace

std::variant<std::string, ConfigError> render_ejs(std::string_view text, const std::string& file,
                                                  const std::string& root_file) {
  return Renderer(root_file).render(text, file, 0);
}

}  // namespace rift::frontends
