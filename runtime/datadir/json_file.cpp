#include "runtime/datadir/json_file.h"

#include <fstream>
#include <sstream>

namespace rift {

std::variant<ir::Json, std::string> read_json_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read " + path.string();
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return "cannot read " + path.string();
  try {
    return ir::Json::parse(text.str());
  } catch (const ir::Json::parse_error& error) {
    return "invalid JSON in " + path.string() + ": " + error.what();
  }
}

}  // namespace rift
