// The admin API prints one imposter from cached stub texts (runtime/imposter/stub_text.h); it must
// be byte for byte what printing the whole JSON tree gives, before and after every kind of edit.
#include <gtest/gtest.h>

#include <memory>

#include "runtime/imposter/imposter.h"
#include "runtime/imposter/views.h"

namespace rift {
namespace {

ir::Stub stub_with(ir::Json source) {
  ir::Stub out;
  ir::Response response;
  response.value = ir::Json::object();
  out.responses.push_back(response);
  out.source = std::move(source);
  return out;
}

// Shapes whose printing has edge cases: empty containers, escapes, non-ASCII, nesting, numbers.
std::vector<ir::Stub> awkward_stubs() {
  return {
      stub_with(ir::Json::parse(R"({"responses":[{"is":{"body":"plain"}}]})")),
      stub_with(ir::Json::parse(
          R"({"predicates":[{"equals":{"path":"/a\"b\\c\n\td","query":{}}},{"or":[]}],
              "responses":[{"is":{"statusCode":201,"headers":{},"body":{"k":[1,2.5,-3e20,null,true,[],{}]}}}]})")),
      stub_with(ir::Json::parse(
          R"({"responses":[{"is":{"body":"h\u00e9llo \u2603 \ud83d\ude00"}},{"proxy":{"to":"http://x"}}],
              "predicates":[{"deepEquals":{"body":{"nested":{"deeper":{"deepest":"v"}}}}}]})")),
      stub_with(ir::Json::parse(R"({"responses":[{"is":{}}],"repeat":2,"extra":"kept as sent"})")),
  };
}

std::shared_ptr<Imposter> make(ir::Imposter config) {
  auto created = Imposter::create(std::move(config), ServingOptions{});
  EXPECT_TRUE(std::holds_alternative<std::shared_ptr<Imposter>>(created));
  return std::get<std::shared_ptr<Imposter>>(created);
}

void expect_same_text(const Imposter& imposter, const RenderOptions& options) {
  EXPECT_EQ(render_imposter_text(imposter, options), render_imposter(imposter, options).dump(2));
}

void expect_same_text_every_form(const Imposter& imposter) {
  RenderOptions options;
  options.base_url = "http://localhost:2525";
  expect_same_text(imposter, options);
  options.base_url = "http://odd\"host";  // the Host header is the client's: escaped, not trusted
  expect_same_text(imposter, options);
  for (const ImposterForm form :
       {ImposterForm::kList, ImposterForm::kFull, ImposterForm::kReplayable}) {
    for (const bool remove_proxies : {false, true}) {
      for (const bool debug : {false, true}) {
        options.form = form;
        options.remove_proxies = remove_proxies;
        options.debug = debug;
        expect_same_text(imposter, options);
      }
    }
  }
}

ir::Imposter https_imposter() {
  ir::Imposter config;
  config.protocol = "https";
  config.port = 4545;
  config.name = "orders";
  config.default_response = ir::Json{{"statusCode", 404}, {"headers", ir::Json::object()}};
  config.tls.ca = std::vector<std::string>{"CA"};
  config.tls.ciphers = "HIGH";
  return config;
}

TEST(ImposterText, MatchesTheTreeForEveryStubShapeAndForm) {
  ir::Imposter config = https_imposter();
  config.stubs = awkward_stubs();
  expect_same_text_every_form(*make(config));
}

TEST(ImposterText, MatchesTheTreeWithoutStubs) {
  ir::Imposter config;
  config.protocol = "http";
  config.port = 4546;
  expect_same_text_every_form(*make(config));
}

TEST(ImposterText, StubsWhoseTextCannotBeReusedAreRenderedAfresh) {
  ir::Imposter config = https_imposter();
  config.stubs = awkward_stubs();
  config.stubs.push_back(stub_with(ir::Json::parse(R"({"_links":"theirs","responses":[]})")));
  config.stubs.push_back(stub_with(ir::Json::object()));
  expect_same_text_every_form(*make(config));
}

TEST(ImposterText, FollowsEveryKindOfEdit) {
  ir::Imposter config = https_imposter();
  config.stubs = awkward_stubs();
  auto imposter = make(config);
  std::vector<ir::Stub> stubs = awkward_stubs();

  // Inserted at the front: old texts move down one place.
  stubs.insert(stubs.begin(),
               stub_with(ir::Json::parse(R"({"responses":[{"is":{"body":"new"}}]})")));
  ASSERT_EQ(imposter->set_stubs(stubs, {-1, 0, 1, 2, 3}), std::nullopt);
  expect_same_text_every_form(*imposter);

  // Kept in place (same cycle position) but with different JSON, as trimming recordings does.
  stubs[2].source["responses"] = ir::Json::parse(R"([{"is":{"body":"trimmed"}}])");
  ASSERT_EQ(imposter->set_stubs(stubs, {0, 1, 2, 3, 4}), std::nullopt);
  expect_same_text_every_form(*imposter);
  EXPECT_NE(render_imposter_text(*imposter, {}).find("trimmed"), std::string::npos);

  // Deleted from the middle, then everything replaced.
  stubs.erase(stubs.begin() + 1);
  ASSERT_EQ(imposter->set_stubs(stubs, {0, 2, 3, 4}), std::nullopt);
  expect_same_text_every_form(*imposter);
  ASSERT_EQ(imposter->set_stubs(awkward_stubs(), {-1, -1, -1, -1}), std::nullopt);
  expect_same_text_every_form(*imposter);
}

}  // namespace
}  // namespace rift
