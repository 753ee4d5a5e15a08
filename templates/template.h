// Response templates (docs/templates.md): one language whose scanner accepts the reference Rift's
// three spellings — `${request.<field>[.<name>]}`, the date tokens `{{NOW}}` / `{{DAYS±N}}` /
// `{{MONTHS±N}}`, and `{{ head args | filter args }}` functions — compiled once, when the plan
// is published, into literal and dynamic pieces. Rendering is a concatenation: nothing is parsed
// per request, and what a piece produces is never scanned again.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/ir.h"
#include "compiler/request.h"

namespace rift::templates {

// Which spellings a text is scanned for. `${request.*}` is always on in `is` bodies and header
// values; date tokens in bodies, and in headers of a `_rift.templated` response; functions only
// in a `_rift.templated` response.
struct Syntax {
  bool request_fields = true;
  bool dates = true;
  bool functions = false;
};

// What a render reads. `state` and `random` may be empty: a `state.<key>` then fails (an empty
// piece), `uuid`/`randomInt` draw from a per-thread generator.
struct Context {
  const Request* request = nullptr;
  const ir::Json* path_params = nullptr;  // `request.pathParams`: an object of strings, or null
  // The flow's value of a key, unset when it has none; throws std::runtime_error when the store
  // cannot be read.
  std::function<std::optional<ir::Json>(std::string_view key)> state;
  std::function<uint64_t()> random;
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();
};

struct Piece;

class Template {
 public:
  // The text's pieces, or the first error a text can be refused for before any request
  // (an unknown function or filter, a pattern that does not compile, a bad `now` format ...),
  // naming the token: "unknown template function 'bogus' in `{{bogus}}`".
  static std::variant<Template, std::string> compile(std::string_view text, const Syntax& syntax);

  // True when the text has no dynamic piece: it renders to itself.
  bool is_static() const;
  // The rendered text. A piece that fails at request time (a missing header, a body that is not
  // JSON, a regex that does not match) renders empty, and the first such failure is described in
  // `*failure` when given: "no such header: 'X-Id' in `{{request.header 'X-Id'}}`".
  std::string render(const Context& context, std::string* failure = nullptr) const;

  Template(const Template&) = default;
  Template(Template&&) noexcept = default;
  Template& operator=(const Template&) = default;
  Template& operator=(Template&&) noexcept = default;
  ~Template();

 private:
  Template() = default;
  std::vector<std::shared_ptr<const Piece>> pieces_;
};

}  // namespace rift::templates
