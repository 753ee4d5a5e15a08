// A native YAML config file (docs/formats.md), loaded as `--configfile imposters.yaml` loads it:
// YAML to JSON documents, the imposters they declare, then each imposter validated as PUT
// /imposters validates it. YAML's own types (.inf, .nan, huge integers, anchors, merge keys,
// tags) reach the validator here in ways no JSON body can send them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "frontends/config_file.h"
#include "frontends/mountebank_json.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using rift::ir::Json;
  // --noParse: `<%` is text here; fuzz_ejs renders templates.
  auto loaded = rift::frontends::parse_config_text(rift::fuzz::as_text(data, size),
                                                   "imposters.yaml", {.no_parse = true});
  if (const auto* error = std::get_if<rift::frontends::ConfigError>(&loaded)) {
    (void)error->to_string();
    return 0;
  }
  for (const Json& document : std::get<std::vector<Json>>(loaded)) {
    auto parsed = rift::frontends::parse_imposter(document.is_object() ? document : Json::object(),
                                                  {.allow_injection = false});
    if (const auto* errors = std::get_if<rift::MbErrors>(&parsed)) {
      for (const auto& error : *errors) (void)error.to_json().dump();
    } else {
      (void)std::get<rift::ir::Imposter>(parsed).stubs.size();
    }
  }
  return 0;
}
