#include "compiler/route_pattern.h"

#include <vector>

namespace rift {
namespace {

std::vector<std::string_view> segments(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t slash = text.find('/'); slash != std::string_view::npos;
       slash = text.find('/', start)) {
    out.push_back(text.substr(start, slash - start));
    start = slash + 1;
  }
  out.push_back(text.substr(start));
  return out;
}

}  // namespace

ir::Json route_params(std::string_view pattern, std::string_view path) {
  ir::Json params = ir::Json::object();
  const auto wanted = segments(pattern);
  const auto given = segments(path);
  if (wanted.size() != given.size()) return params;
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (!wanted[i].empty() && wanted[i].front() == ':') {
      params[std::string(wanted[i].substr(1))] = std::string(given[i]);
    } else if (wanted[i] != given[i]) {
      return ir::Json::object();
    }
  }
  return params;
}

}  // namespace rift
