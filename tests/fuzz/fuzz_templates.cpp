// A response template (templates/, docs/templates.md) compiled with every spelling on, then
// rendered against a request that carries the input too: the scanner, the words of a `{{ }}`
// token, the heads (request.json paths, now's offsets and strftime formats, randomInt bounds),
// the filters (regex patterns and groups, json) and the dates far from now.
//
// Input: "template\n%%\nbody". The body is the request's body, its `q` query parameter and its
// X-Fuzz header. Without a separator the whole input is the template, with a fixed JSON body.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "templates/response_template.h"
#include "templates/template.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

void render(const rift::templates::Template& text, const rift::Request& request,
            const rift::ir::Json& params) {
  uint64_t counter = 0;
  rift::templates::Context context;
  context.request = &request;
  context.path_params = &params;
  context.random = [&counter] { return counter++ * 0x9e3779b97f4a7c15ull; };
  context.state = [](std::string_view key) -> std::optional<rift::ir::Json> {
    if (key.empty()) throw std::runtime_error("no key");
    if (key.size() % 3 == 0) return std::nullopt;
    if (key.size() % 3 == 1) return rift::ir::Json{{"k", std::string(key)}, {"n", 1.5}};
    return rift::ir::Json(std::string(key));
  };
  context.now =
      std::chrono::sys_days{std::chrono::year{2026} / 12 / 5} + std::chrono::nanoseconds(123456789);
  std::string failure;
  (void)text.render(context, &failure);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto parts = rift::fuzz::split_parts(rift::fuzz::as_text(data, size), 2);
  const std::string text = rift::fuzz::valid_utf8(parts.front());
  const std::string body =
      parts.size() == 2 ? rift::fuzz::valid_utf8(parts.back()) : R"({"a":{"b":[1,"x",null]}})";
  rift::Request request;
  request.method = "POST";
  request.path = "/users/42/orders/7";
  request.query = {{"q", body}, {"q", "last"}};
  request.headers = {{"X-Fuzz", body}, {"Host", "h"}};
  request.body = body;
  const rift::ir::Json params = {{"id", "42"}};

  for (const bool functions : {false, true}) {
    const rift::templates::Syntax syntax{
        .request_fields = true, .dates = true, .functions = functions};
    auto compiled = rift::templates::Template::compile(text, syntax);
    if (const auto* ok = std::get_if<rift::templates::Template>(&compiled)) {
      render(*ok, request, params);
    }
  }
  const rift::ir::Json is = {{"body", text}, {"headers", {{"X-T", text}, {"X-L", {text, 5}}}}};
  auto response = rift::templates::ResponseTemplate::compile(is, true);
  if (const auto* ok = std::get_if<rift::templates::ResponseTemplate>(&response)) {
    rift::templates::Context context;
    context.request = &request;
    std::string failure;
    (void)ok->render(is, context, &failure);
  }
  return 0;
}
