// Cost of an admin stub edit on the API imposter (benchmark fixture G2), apart from the network:
// Mountebank's API answers every edit with the whole imposter document, so printing it is part
// of every edit. RenderTree is how it was printed before per-stub texts were cached (a JSON tree
// of every stub, then dump(2)); RenderCachedText is how the admin API prints it now; StubEdit is
// PUT /imposters/:id/stubs/:i end to end (parse, copy, plan and publish, print).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "bench/fixture_stubs.h"
#include "compiler/json_stream.h"
#include "frontends/mountebank_json.h"
#include "runtime/imposter/imposter.h"
#include "runtime/imposter/views.h"

namespace {

std::shared_ptr<rift::Imposter> api_imposter(int stubs) {
  const auto doc = rift::bench::imposter_doc("API", 4545, rift::bench::g2_api(stubs));
  auto parsed = rift::frontends::parse_imposter(doc, {});
  auto created = rift::Imposter::create(std::get<rift::ir::Imposter>(std::move(parsed)), {});
  return std::get<std::shared_ptr<rift::Imposter>>(std::move(created));
}

rift::RenderOptions full_form() {
  rift::RenderOptions options;
  options.base_url = "http://localhost:2525";
  return options;
}

void BM_RenderTree(benchmark::State& state) {
  const auto imposter = api_imposter(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::string text = rift::render_imposter(*imposter, full_form()).dump(2);
    benchmark::DoNotOptimize(text);
  }
}

void BM_RenderCachedText(benchmark::State& state) {
  const auto imposter = api_imposter(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::string text = rift::render_imposter_text(*imposter, full_form());
    benchmark::DoNotOptimize(text);
  }
}

void BM_StubEdit(benchmark::State& state) {
  const auto imposter = api_imposter(static_cast<int>(state.range(0)));
  const rift::ir::Json edited = rift::ir::Json::parse(
      R"({"predicates":[{"equals":{"method":"GET","path":"/edited"}}],
          "responses":[{"is":{"statusCode":200,"body":"edited"}}]})");
  for (auto _ : state) {
    auto stub = rift::frontends::parse_stub(edited, {});
    std::vector<rift::ir::Stub> stubs = imposter->config().stubs;
    std::vector<int> keep(stubs.size());
    for (size_t i = 0; i < keep.size(); ++i) keep[i] = static_cast<int>(i);
    stubs[5] = std::get<rift::ir::Stub>(std::move(stub));
    keep[5] = -1;
    imposter->set_stubs(std::move(stubs), keep);
    std::string text = rift::render_imposter_text(*imposter, full_form());
    benchmark::DoNotOptimize(text);
  }
}

// POST /imposters of one imposter with 10,000 exact-path stubs (issue 6, item 4; the workload of
// bench/footprint.py) without the network, as the admin API does it: parse the body, parse and
// validate the stubs, plan and publish, print the answer. The phases are timed apart as well.
std::string big_imposter_text(int stubs) {
  std::string out = R"({"port": 4545, "protocol": "http", "name": "Big", "stubs": [)";
  for (int i = 0; i < stubs; ++i) {
    const std::string n = std::to_string(i);
    if (i > 0) out += ", ";
    out += R"({"predicates": [{"equals": {"method": "GET", "path": "/api/v1/item/)" + n +
           R"("}}], "responses": [{"is": {"statusCode": 200, "headers": {"Content-Type": )"
           R"("application/json"}, "body": "{\"id\": )" +
           n + R"(, \"name\": \"item_)" + n + R"(\"}"}}]})";
  }
  return out + "]}";
}

rift::ir::Imposter parse_big(const std::string& text) {
  auto body = rift::json_stream::parse_nlohmann(text);
  return std::get<rift::ir::Imposter>(rift::frontends::parse_imposter_moving_stubs(body, {}));
}

void BM_BigPost(benchmark::State& state) {
  const std::string text = big_imposter_text(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto created = rift::Imposter::create(parse_big(text), {});
    const auto& imposter = std::get<std::shared_ptr<rift::Imposter>>(created);
    std::string answer = rift::render_imposter_text(*imposter, full_form());
    benchmark::DoNotOptimize(answer);
  }
}

void BM_BigPostParseBody(benchmark::State& state) {
  const std::string text = big_imposter_text(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto body = rift::json_stream::parse_nlohmann(text);
    benchmark::DoNotOptimize(body);
  }
}

void BM_BigPostParseStubs(benchmark::State& state) {
  const auto body = rift::ir::Json::parse(big_imposter_text(static_cast<int>(state.range(0))));
  for (auto _ : state) {
    state.PauseTiming();
    rift::ir::Json copy = body;
    state.ResumeTiming();
    auto parsed = rift::frontends::parse_imposter_moving_stubs(copy, {});
    benchmark::DoNotOptimize(parsed);
  }
}

void BM_BigPostCreate(benchmark::State& state) {
  const auto config = parse_big(big_imposter_text(static_cast<int>(state.range(0))));
  for (auto _ : state) {
    state.PauseTiming();
    rift::ir::Imposter copy = config;
    state.ResumeTiming();
    auto created = rift::Imposter::create(std::move(copy), {});
    benchmark::DoNotOptimize(created);
  }
}

void BM_BigGet(benchmark::State& state) {
  auto created =
      rift::Imposter::create(parse_big(big_imposter_text(static_cast<int>(state.range(0)))), {});
  const auto& imposter = std::get<std::shared_ptr<rift::Imposter>>(created);
  for (auto _ : state) {
    std::string text = rift::render_imposter_text(*imposter, full_form());
    benchmark::DoNotOptimize(text);
  }
}

BENCHMARK(BM_RenderTree)->Arg(310)->Arg(3000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RenderCachedText)->Arg(310)->Arg(3000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StubEdit)->Arg(310)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BigPost)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BigPostParseBody)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BigPostParseStubs)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BigPostCreate)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BigGet)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
