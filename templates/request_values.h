// How templates read a request's repeated keys: the last value, as the reference Rift keeps it.
#pragma once

#include <string>
#include <string_view>

#include "compiler/ascii.h"
#include "compiler/request.h"

namespace rift::templates {

inline const std::string* last_value(const KeyValues& pairs, std::string_view name,
                                     bool ignore_case) {
  const std::string* found = nullptr;
  for (const auto& [key, value] : pairs) {
    if (ignore_case ? ascii::iequals(key, name) : key == name) found = &value;
  }
  return found;
}

}  // namespace rift::templates
