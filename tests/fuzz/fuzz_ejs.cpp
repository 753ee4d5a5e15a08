// A `--configfile` holding EJS (docs/mountebank-semantics.md §7), rendered and then read as JSON
// or YAML by its first character, as frontends/config_file.cpp does for a file without a known
// extension. Its includes and stringify calls resolve in a fixture folder written once per
// process: plain files, a nested folder, a file that includes itself, one that stringifies.
#include <stdlib.h>  // mkdtemp, setenv

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "frontends/config_file.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, std::string_view text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// The folder the fuzzed file "lives" in; removed when the process exits.
class Fixture {
 public:
  Fixture() {
    std::string pattern = (fs::temp_directory_path() / "rift-fuzz-ejs-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) rift::fuzz::contract_broken("mkdtemp failed");
    root_ = pattern;
    write(
        root_ / "stub.ejs",
        R"({"responses": [{"is": {"statusCode": 200, "body": "<%- stringify('body.txt') %>"}}]})");
    write(root_ / "body.txt", "line one\n\"quoted\" \\ tab\t<%= process.env.RIFT_FUZZ_EJS %>\n");
    write(root_ / "self.ejs", "<% include self.ejs %>");
    write(root_ / "predicates.ejs", R"([{"equals": {"path": "/<%- process.env.HOME %>"}}])");
    write(root_ / "nested" / "inner.ejs", "<% include ../stub.ejs %>");
    write(root_ / "nested" / "broken.ejs", "{\"a\": <% unknown() %>}");
    write(root_ / "imposter.yaml",
          "port: 4545\nprotocol: http\nstubs:\n  - <% include stub.ejs %>\n");
    setenv("RIFT_FUZZ_EJS", "<b>\"env\"</b> & 'more'", 1);
    file_ = (root_ / "imposters").string();
  }
  ~Fixture() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }
  const std::string& file() const { return file_; }

 private:
  fs::path root_;
  std::string file_;
};

// Whether every path the text could name stays inside the fixture folder. The fuzzer would
// otherwise find /dev/zero or a FIFO, whose read never ends: a config file names the operator's
// own files, so that is no finding. Paths start after whitespace (include) or a quote
// (stringify); relative ones climb only with "..".
bool paths_stay_inside(std::string_view text) {
  if (text.find("..") != std::string_view::npos) return false;
  for (size_t at = text.find('/'); at != std::string_view::npos; at = text.find('/', at + 1)) {
    if (at == 0) return false;
    const unsigned char before = static_cast<unsigned char>(text[at - 1]);
    const bool in_name = std::isalnum(before) || before == '_' || before == '-' || before == '.';
    if (!in_name) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Fixture fixture;
  const std::string_view text = rift::fuzz::as_text(data, size);
  if (!paths_stay_inside(text)) return 0;
  auto loaded = rift::frontends::parse_config_text(text, fixture.file());
  if (const auto* error = std::get_if<rift::frontends::ConfigError>(&loaded)) {
    (void)error->to_string();
  } else {
    for (const auto& document : std::get<std::vector<rift::ir::Json>>(loaded)) {
      (void)document.dump(-1, ' ', false, rift::ir::Json::error_handler_t::replace);
    }
  }
  return 0;
}
