#include "runtime/app/frozen_match_bench.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "codegen/compiled_matcher.h"
#include "compiler/interpreter.h"
#include "frontends/mountebank_json.h"

namespace rift {
namespace {

Request request_from_json(const ir::Json& json) {
  Request request;
  request.method = json.value("method", "GET");
  request.path = json.value("path", "/");
  for (const ir::Json query = json.value("query", ir::Json::object());
       const auto& [key, value] : query.items()) {
    if (value.is_array()) {
      for (const auto& item : value) request.query.emplace_back(key, item.get<std::string>());
    } else {
      request.query.emplace_back(key, value.get<std::string>());
    }
  }
  for (const ir::Json headers = json.value("headers", ir::Json::object());
       const auto& [key, value] : headers.items()) {
    request.headers.emplace_back(key, value.get<std::string>());
  }
  request.body = json.value("body", "");
  request.request_from = "127.0.0.1:1";
  request.ip = "127.0.0.1";
  return request;
}

// Nanoseconds per match of `matcher` over `requests`, each matched `iterations` times with a
// fresh context (as the server does per request). `answers` gets the stub of each request.
double time_matcher(const Matcher& matcher, const std::vector<Request>& requests, long iterations,
                    std::vector<int>& answers) {
  answers.assign(requests.size(), kNoMatch);
  const auto started = std::chrono::steady_clock::now();
  for (long i = 0; i < iterations; ++i) {
    for (size_t r = 0; r < requests.size(); ++r) {
      RequestContext context(requests[r]);
      answers[r] = matcher.match(context);
    }
  }
  const auto elapsed = std::chrono::steady_clock::now() - started;
  return std::chrono::duration<double, std::nano>(elapsed).count() /
         static_cast<double>(iterations * static_cast<long>(requests.size()));
}

}  // namespace

namespace {

int run_checked(const FrozenBuild& build, const std::string& requests_file, long iterations) {
  std::ifstream in(requests_file);
  std::stringstream text;
  text << in.rdbuf();
  const ir::Json spec = ir::Json::parse(text.str(), nullptr, false);
  if (!in || spec.is_discarded() || !spec.is_object() || !spec.contains("requests")) {
    std::cerr << "--match-bench: " << requests_file << " is not {\"port\", \"requests\": [...]}\n";
    return 2;
  }
  const int port = spec.value("port", 0);
  const ir::Json imposters = frozen_imposters(build);
  const compiled::Module* module = nullptr;
  for (size_t i = 0; i < build.module_count; ++i) {
    if (build.modules[i]->port == port) module = build.modules[i];
  }
  for (const ir::Json& document : imposters) {
    if (document.value("port", -1) != port || module == nullptr) continue;
    auto parsed = frontends::parse_imposter(document, {true});
    if (!std::holds_alternative<ir::Imposter>(parsed)) break;
    const auto& stubs = std::get<ir::Imposter>(parsed).stubs;
    auto tree = plan::build(stubs);
    if (!std::holds_alternative<std::shared_ptr<const plan::Tree>>(tree)) break;
    const auto& planned = std::get<std::shared_ptr<const plan::Tree>>(tree);
    auto bound = compiled::bind(*module, stubs, planned);
    if (auto* reason = std::get_if<std::string>(&bound)) {
      std::cerr << "--match-bench: " << *reason << "\n";
      return 2;
    }
    const auto& aot = std::get<std::unique_ptr<Matcher>>(bound);
    const Interpreter interpreter(planned);

    std::vector<Request> requests;
    for (const ir::Json& request : spec["requests"]) requests.push_back(request_from_json(request));
    std::vector<int> aot_answers;
    std::vector<int> interpreter_answers;
    // One untimed round warms caches and lazily built state in both tiers.
    time_matcher(*aot, requests, 1, aot_answers);
    time_matcher(interpreter, requests, 1, interpreter_answers);
    const double aot_ns = time_matcher(*aot, requests, iterations, aot_answers);
    const double interpreter_ns =
        time_matcher(interpreter, requests, iterations, interpreter_answers);
    size_t matched = 0;
    for (int answer : aot_answers) matched += answer != kNoMatch;
    ir::Json report = {{"port", port},
                       {"stubs", stubs.size()},
                       {"requests", requests.size()},
                       {"matched", matched},
                       {"iterations", iterations},
                       {"aot_ns_per_match", aot_ns},
                       {"interpreter_ns_per_match", interpreter_ns},
                       {"answers_agree", aot_answers == interpreter_answers}};
    std::cout << report.dump() << '\n';
    return aot_answers == interpreter_answers ? 0 : 1;
  }
  std::cerr << "--match-bench: no compiled imposter on port " << port << "\n";
  return 2;
}

}  // namespace

int run_match_bench(const FrozenBuild& build, const std::string& requests_file, long iterations) {
  try {
    return run_checked(build, requests_file, iterations);
  } catch (const ir::Json::exception& error) {
    // A requests file of the wrong shape (a number where a string belongs ...).
    std::cerr << "--match-bench: " << requests_file << ": " << error.what() << "\n";
    return 2;
  }
}

}  // namespace rift
