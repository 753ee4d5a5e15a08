#include "frontends/rift_script.h"

#include <string>

namespace rift::frontends {
namespace {

const ir::Json* script_of(const ir::Json& response) {
  if (!response.is_object()) return nullptr;
  auto block = response.find("_rift");
  if (block == response.end() || !block->is_object()) return nullptr;
  auto script = block->find("script");
  if (script == block->end() || script->is_null()) return nullptr;
  return &*script;
}

MbError resolution_error(const std::string& detail) {
  return bad_data("Script resolution failed: " + detail);
}

MbError validation_error(const std::string& engine, const std::string& detail) {
  return bad_data("Script validation failed: Invalid " + engine + " script: " + detail);
}

}  // namespace

bool has_rift_script(const ir::Json& response) {
  return script_of(response) != nullptr;
}

namespace {

std::optional<std::string> text(const ir::Json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

// The one source of a script object (or registry entry), or the error.
std::variant<const char*, MbError> source_of(const ir::Json& script) {
  int sources = 0;
  const char* found = nullptr;
  for (const char* source : {"code", "file", "ref"}) {
    auto it = script.find(source);
    if (it == script.end() || it->is_null()) continue;
    if (!it->is_string()) {
      return bad_data(std::string("_rift.script.") + source + " must be a string", *it);
    }
    ++sources;
    found = source;
  }
  if (sources != 1) {
    return resolution_error(
        "script config must specify exactly one of `code`, `file`, or `ref` (found " +
        std::to_string(sources) + ")");
  }
  return found;
}

// {"engine", "code"} of a script object without `ref` (a registry entry, or a stub's own).
std::variant<ir::Json, MbError> resolve(const ir::Json& script, const char* source) {
  auto engine_field = script.find("engine");
  if (engine_field != script.end() && !engine_field->is_null() && !engine_field->is_string()) {
    return bad_data("_rift.script.engine must be a string", *engine_field);
  }
  // The engine as written; without one, the file's extension, else Rhai (the reference's default).
  std::string engine = text(script, "engine").value_or("");
  if (engine.empty()) {
    const auto file = text(script, "file");
    engine = file && file->ends_with(".js") ? "javascript" : "rhai";
  }
  if (engine == "rhai") {
    return bad_data(
        "_rift.script with engine \"rhai\" cannot be served: Rift runs JavaScript scripts, not "
        "Rhai. Port the script to JavaScript (the ctx API is the same) and set \"engine\": "
        "\"javascript\" (docs/rift-compatibility.md#scripts)",
        script);
  }
  if (engine == "lua") {
    return validation_error(engine,
                            "the Lua scripting engine was removed; use engine \"javascript\"");
  }
  if (engine != "javascript" && engine != "js") {
    return validation_error(engine, "Unknown script engine type: '" + engine + "'");
  }
  if (std::string_view(source) == "file") {
    return resolution_error("script file '" + *text(script, "file") +
                            "' cannot be resolved: no --scripts-dir is configured for the admin "
                            "API");
  }
  return ir::Json{{"engine", engine}, {"code", *text(script, "code")}};
}

}  // namespace

const ir::Json* script_registry(const std::optional<ir::Json>& rift) {
  if (!rift || !rift->is_object()) return nullptr;
  auto scripts = rift->find("scripts");
  return scripts == rift->end() || !scripts->is_object() ? nullptr : &*scripts;
}

std::variant<std::optional<ir::Json>, MbError> parse_rift_script(const ir::Json& response,
                                                                 const ir::Json* registry) {
  const ir::Json* script = script_of(response);
  if (script == nullptr) return std::optional<ir::Json>();
  if (!script->is_object()) {
    return bad_data("_rift.script must be an object: {\"engine\": \"javascript\", \"code\": ...}",
                    *script);
  }
  auto source = source_of(*script);
  if (auto* error = std::get_if<MbError>(&source)) return *error;
  const ir::Json* resolved_from = script;
  const char* resolved_source = std::get<const char*>(source);
  if (std::string_view(resolved_source) == "ref") {
    // The registry entry is the script, its engine included (the reference's rule).
    const std::string ref = *text(*script, "ref");
    const auto entry = registry != nullptr ? registry->find(ref) : ir::Json::const_iterator();
    if (registry == nullptr || entry == registry->end() || !entry->is_object()) {
      return resolution_error("unknown script ref '" + ref + "': no entry named '" + ref +
                              "' in `_rift.scripts`");
    }
    if (entry->contains("ref")) {
      return resolution_error("_rift.scripts entry '" + ref +
                              "' may not itself use `ref` \u2014 ref chains are not allowed");
    }
    auto entry_source = source_of(*entry);
    if (auto* error = std::get_if<MbError>(&entry_source)) return *error;
    resolved_from = &*entry;
    resolved_source = std::get<const char*>(entry_source);
  }
  auto resolved = resolve(*resolved_from, resolved_source);
  if (auto* error = std::get_if<MbError>(&resolved)) return *error;
  return std::optional<ir::Json>(std::get<ir::Json>(std::move(resolved)));
}

}  // namespace rift::frontends
