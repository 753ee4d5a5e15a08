// The table of rift's options. One row per option drives every place an option shows up: the
// command line (--name, -alias, --name value, --name=value), the rcfile (a JSON object keyed by
// name), the environment (MB_<UPPER_SNAKE> and RIFT_<UPPER_SNAKE>), the `options` object of
// GET /config and --help. The rows are kOptionTable in options.cpp; docs/cli.md explains how to
// add one.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "compiler/ir.h"
#include "runtime/options/options.h"

namespace rift {

// The Options member a row sets; its type decides how a value is read:
//   bool         a flag: `--name`, `--name true|false`, `--name=VALUE`; elsewhere false, 0, no
//                and the empty string are false, anything else true
//   int, unsigned, size_t   a whole number in [low, high]
//   std::string, std::optional<std::string>   the value, one of `choices` when there are any
//   std::vector<std::string>   repeatable: each occurrence appends, and the occurrences of a
//                higher source replace those of a lower one (and the default)
//   std::monostate   nothing (an option accepted for compatibility), unless the row's `set`
using OptionMember =
    std::variant<std::monostate, bool Options::*, int Options::*, unsigned Options::*,
                 size_t Options::*, std::string Options::*, std::optional<std::string> Options::*,
                 std::vector<std::string> Options::*>;

// How a row appears in GET /config's `options` object, in table order. Mountebank's /config has
// a fixed set of keys, so most of Rift's own options are kNo.
enum class InConfig {
  kNo,
  kAlways,          // the member's value
  kWhenSet,         // only when set: an optional with a value, a non-empty string, a true flag
  kNullWhenUnset,   // an optional's value, or null
  kFalseWhenEmpty,  // a list, or false when it is empty
};

// Where a row may be read from.
enum OptionSource : unsigned {
  kFromArgv = 1,
  kFromEnv = 2,
  kFromRcfile = 4,
  kFromAnywhere = kFromArgv | kFromEnv | kFromRcfile,
};

struct OptionRow {
  std::string_view name;        // --name, the rcfile key; MB_/RIFT_ + upper snake case
  std::string_view alias;       // -alias, or empty
  OptionMember member;          // what the option sets (the default is the member's initializer)
  std::string_view value_name;  // in --help: `--port N`; choices are shown as `a|b|c` without it
  long long low = 0, high = 0;  // a number's accepted range
  std::span<const std::string_view> choices = {};  // a string's accepted values, if limited
  // A reader of its own instead of the member's: returns an error message, or nothing.
  std::optional<std::string> (*set)(Options&, const std::string& value) = nullptr;
  InConfig in_config = InConfig::kNo;
  ir::Json (*config_value)(const Options&) = nullptr;  // a /config value of its own
  unsigned sources = kFromAnywhere;
  std::string_view default_text = {};  // in --help, instead of the member's default value
  std::string_view help = {};

  bool is_flag() const { return std::holds_alternative<bool Options::*>(member); }
  bool is_repeatable() const {
    return std::holds_alternative<std::vector<std::string> Options::*>(member) && set == nullptr;
  }
  bool shown_in_config() const { return in_config != InConfig::kNo || config_value != nullptr; }
};

std::span<const OptionRow> option_table();

// "allowInjection" -> "ALLOW_INJECTION": the environment variables are MB_ and RIFT_ + this.
std::string option_env_suffix(std::string_view name);

// The default shown by --help ("" for none): the row's default_text, else the member's default.
std::string option_default_text(const OptionRow& row);

}  // namespace rift
