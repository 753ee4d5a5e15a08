#include "compiler/jsonpath.h"

namespace rift::jsonpath {

struct Path::Impl {
  std::string source;
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
  auto impl = std::make_unique<Impl>();
  impl->source = std::string(selector);
  return Path(std::move(impl));
}

std::vector<ir::Json> Path::select(const ir::Json&) const {
  return {};
}
const std::string& Path::source() const {
  return impl_->source;
}

struct JsonParser::Impl {};
JsonParser::JsonParser() : impl_(std::make_unique<Impl>()) {}
JsonParser::~JsonParser() = default;
std::optional<ir::Json> JsonParser::parse(std::string_view) {
  return std::nullopt;
}

std::optional<ir::Json> parse_json(std::string_view text) {
  JsonParser parser;
  return parser.parse(text);
}

}  // namespace rift::jsonpath
