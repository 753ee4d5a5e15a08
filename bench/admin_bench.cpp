// Cost of an admin stub edit on the API imposter (benchmark fixture G2), apart from the network:
// Mountebank's API answers every edit with the whole imposter document, so printing it is part
// of every edit. RenderTree is how it was printed before per-stub texts were cached (a JSON tree
// of every stub, then dump(2)); RenderCachedText is how the admin API prints it now; StubEdit is
// PUT /imposters/:id/stubs/:i end to end (parse, copy, plan and publish, print).
#include <benchmark/benchmark.h>

#include <memory>

#include "bench/fixture_stubs.h"
#include "frontends/mountebank_json.h"
#include "runtime/imposter.h"
#include "runtime/imposter_json.h"

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

BENCHMARK(BM_RenderTree)->Arg(310)->Arg(3000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RenderCachedText)->Arg(310)->Arg(3000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StubEdit)->Arg(310)->Unit(benchmark::kMicrosecond);

}  // namespace
