// The template language (templates/, docs/templates.md): the three spellings, compile-time
// refusals, request-time failures, and rendering.
#include "templates/template.h"

#include <gtest/gtest.h>

#include <regex>

#include "templates/clock_text.h"
#include "templates/response_template.h"

namespace rift::templates {
namespace {

constexpr Syntax kAll{.request_fields = true, .dates = true, .functions = true};
constexpr Syntax kPlain{.request_fields = true, .dates = true, .functions = false};

Request sample_request() {
  Request request;
  request.method = "POST";
  request.path = "/users/42/orders/";
  request.query = {{"a", "1"}, {"b", "x y"}, {"a", "2"}};
  request.headers = {{"X-Rep", "one"}, {"x-rep", "two"}, {"Host", "h"}};
  request.body = R"({"user": {"name": "Ann", "tags": ["a", "b"]}, "n": 1.5})";
  return request;
}

std::string render(std::string_view text, const Syntax& syntax = kAll,
                   std::string* failure = nullptr) {
  static const Request request = sample_request();
  static const ir::Json params = {{"id", "42"}};
  auto compiled = Template::compile(text, syntax);
  if (auto* error = std::get_if<std::string>(&compiled)) return "ERROR: " + *error;
  Context context;
  context.request = &request;
  context.path_params = &params;
  uint64_t counter = 0;
  context.random = [&counter] { return counter++; };
  context.state = [](std::string_view key) -> std::optional<ir::Json> {
    if (key == "count") return ir::Json(3);
    if (key == "obj") return ir::Json{{"b", 1}, {"a", "x"}};
    if (key == "broken") throw std::runtime_error("Redis down");
    return std::nullopt;
  };
  context.now = std::chrono::sys_days{std::chrono::year{2026} / 1 / 31} + std::chrono::hours(10);
  return std::get<Template>(compiled).render(context, failure);
}

TEST(Template, RequestFields) {
  EXPECT_EQ(render("${request.method} ${request.path} q=${request.query.a} "
                   "h=${request.headers.X-REP} p=${request.pathParams.id} x=${request.foo}"),
            "POST /users/42/orders/ q=2 h=two p=42 x=");
  // Not the exact token: text.
  EXPECT_EQ(render("${request.query.a.b} ${ request.path} ${path} ${cp}"),
            "${request.query.a.b} ${ request.path} ${path} ${cp}");
}

TEST(Template, DateTokens) {
  EXPECT_EQ(render("{{NOW}}|{{DAYS+1}}|{{DAYS-31}}|{{MONTHS+1}}|{{MONTHS-13}}"),
            "2026-01-31T10:00:00+00:00|2026-02-01T10:00:00+00:00|2025-12-31T10:00:00+00:00|"
            "2026-02-28T10:00:00+00:00|2024-12-31T10:00:00+00:00");
  EXPECT_EQ(render("{{ NOW }} {{now}} {{DAYS1}} {{DAYS+9999999999999}}", kPlain),
            "{{ NOW }} {{now}} {{DAYS1}} {{DAYS+9999999999999}}");
}

TEST(Template, DatesFarFromNow) {
  // Beyond what a nanosecond system_clock holds (1677 to 2262), and beyond the year 9999.
  EXPECT_EQ(render("{{now offset=+100000d format='%Y-%m-%d'}} {{DAYS-200000}} {{MONTHS+4000}}"),
            "2299-11-16 1478-07-03T10:00:00+00:00 2359-05-31T10:00:00+00:00");
  EXPECT_EQ(render("{{DAYS+3000000}}"), "{{DAYS+3000000}}");
  std::string failure;
  EXPECT_EQ(render("[{{now offset=+3000000d}}]", kAll, &failure), "[]");
  EXPECT_EQ(failure, "now: the date is out of range in `{{now offset=+3000000d}}`");
  EXPECT_EQ(render("{{request.path | regex '/(users)' +1}}"), "users");
}

TEST(Template, FunctionsOnlyWhenTemplated) {
  EXPECT_EQ(render("{{request.method}}", kPlain), "{{request.method}}");
  EXPECT_EQ(render("{{request.method}} {{ request.path | last_segment }}"), "POST orders");
  EXPECT_EQ(render("{{request.query.a}}-{{request.header 'x-Rep'}}"), "2-two");
  EXPECT_EQ(render("{{request.json '$.user.name'}}/{{request.json '$.user.tags[1]'}}/"
                   "{{request.json '$.n'}}/{{request.json '$.user.tags'}}"),
            "Ann/b/1.5/[\"a\",\"b\"]");
  EXPECT_EQ(render("{{state.count}} {{state.obj}}"), "3 {\"a\":\"x\",\"b\":1}");
  EXPECT_EQ(render("{{randomInt 7 7}} {{randomInt -3 -3}}"), "7 -3");
  EXPECT_EQ(render("{{now format='%Y-%m-%d %H:%M %Z %:z'}}"), "2026-01-31 10:00 UTC +00:00");
  EXPECT_EQ(render("{{now offset=+1d format=%F}} {{now offset='-30m' format='%T'}}"),
            "2026-02-01 09:30:00");
  EXPECT_TRUE(std::regex_match(render("{{uuid}}"),
                               std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-"
                                          "[0-9a-f]{12}")));
  EXPECT_EQ(render("{{request.path | regex '/users/(\\d+)' 1}}"), "42");
  EXPECT_EQ(render("{{request.json '$.user' | json}}"),
            R"({\"name\":\"Ann\",\"tags\":[\"a\",\"b\"]})");
  // An unclosed token is text; braces cannot be inside one.
  EXPECT_EQ(render("a=[{{request.method] b=[{{request.path | last_segment}}] {{{request.method}}}"),
            "a=[{{request.method] b=[orders] {POST}");
}

TEST(Template, BadTemplatesAreRefusedAtCompile) {
  for (const char* bad :
       {"{{bogus}}", "{{request.path | nope}}", "{{ }}", "{{request.path |}}", "{{request.header}}",
        "{{request.json 'a.b'}}", "{{randomInt 1}}", "{{randomInt 5 1}}", "{{randomInt 1.0 2}}",
        "{{now format='%Q'}}", "{{now offset=+1w}}", "{{now when=1}}", "{{now offset=+-5h}}",
        "{{now offset=-9223372036854775808s}}", "{{request.path | regex '(' 1}}",
        "{{request.path | regex 'a' x}}", "{{state.}}"}) {
    EXPECT_EQ(render(bad).rfind("ERROR: ", 0), 0u) << bad;
  }
  EXPECT_EQ(render("{{bogus}}"), "ERROR: unknown template function: 'bogus' in `{{bogus}}`");
}

TEST(Template, RequestTimeFailuresRenderEmpty) {
  std::string failure;
  EXPECT_EQ(render("[{{request.header 'X-None'}}][{{state.none}}][{{request.path | regex 'z+' 0}}]",
                   kAll, &failure),
            "[][][]");
  EXPECT_EQ(failure, "no such header: 'X-None' in `{{request.header 'X-None'}}`");
  failure.clear();
  EXPECT_EQ(render("{{state.broken}}", kAll, &failure), "");
  EXPECT_EQ(failure, "state.broken: flow store error: Redis down in `{{state.broken}}`");
}

TEST(Template, StaticTextStaysStatic) {
  auto compiled = Template::compile("plain {{request.method}} ${cp}", kPlain);
  EXPECT_TRUE(std::get<Template>(compiled).is_static());
}

TEST(ResponseTemplate, BodyAndHeadersNameTheField) {
  const ir::Json is = {
      {"body", {{"p", "${request.path}"}}},
      {"headers", {{"X-M", "{{request.method}}"}, {"X-L", {"a", "${request.method}"}}}}};
  auto compiled = ResponseTemplate::compile(is, true);
  ASSERT_TRUE(std::holds_alternative<ResponseTemplate>(compiled));
  const Request request = sample_request();
  Context context;
  context.request = &request;
  const ir::Json rendered = std::get<ResponseTemplate>(compiled).render(is, context, nullptr);
  EXPECT_EQ(rendered["body"], "{\n    \"p\": \"/users/42/orders/\"\n}");
  EXPECT_EQ(rendered["headers"]["X-M"], "POST");
  EXPECT_EQ(rendered["headers"]["X-L"], ir::Json({"a", "POST"}));
  auto refused = ResponseTemplate::compile({{"headers", {{"X-Bad", "{{nope}}"}}}}, true);
  EXPECT_EQ(std::get<std::string>(refused),
            "'is.headers.X-Bad': unknown template function: 'nope' in `{{nope}}`");
  // Not templated: function tokens are text, dates stay out of headers.
  auto plain = ResponseTemplate::compile({{"headers", {{"X", "{{NOW}} {{nope}}"}}}}, false);
  EXPECT_TRUE(std::get<ResponseTemplate>(plain).is_static());
}

TEST(ClockText, Rfc3339TrimsTheFraction) {
  const TimePoint second = std::chrono::sys_days{std::chrono::year{2026} / 12 / 5};
  EXPECT_EQ(*rfc3339(Instant::of(second)), "2026-12-05T00:00:00+00:00");
  EXPECT_EQ(*rfc3339(Instant::of(second + std::chrono::milliseconds(14))),
            "2026-12-05T00:00:00.014+00:00");
  EXPECT_EQ(*rfc3339(Instant::of(second + std::chrono::microseconds(14))),
            "2026-12-05T00:00:00.000014+00:00");
  EXPECT_EQ(*rfc3339(Instant::of(second + std::chrono::nanoseconds(14))),
            "2026-12-05T00:00:00.000000014+00:00");
  EXPECT_EQ(*format_time(Instant::of(second + std::chrono::milliseconds(5)), "%.3f|%f|%s"),
            ".005|005000000|1796428800");
}

}  // namespace
}  // namespace rift::templates
