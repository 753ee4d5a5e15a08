// explain_to_text: renders a report from its JSON alone, so any holder of a report (riftc, a
// client of POST /imposters/{port}/explain) can print it the same way.
#include <string>

#include "compiler/explain.h"

namespace rift {
namespace {

std::string text_of(const ir::Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string plural(size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string size_of(const ir::Json& object, const char* key) {
  return object.contains(key) ? text_of(object[key]) : "0";
}

// "GET /users?page=2&tag=a&tag=b" from the request view.
std::string request_line(const ir::Json& request) {
  std::string line = text_of(request.value("method", ir::Json("?"))) + " " +
                     text_of(request.value("path", ir::Json("/")));
  std::string query;
  if (request.contains("query")) {
    for (auto it = request["query"].begin(); it != request["query"].end(); ++it) {
      const ir::Json values = it->is_array() ? *it : ir::Json::array({*it});
      for (const auto& value : values) {
        query += (query.empty() ? "?" : "&") + it.key() + "=" + text_of(value);
      }
    }
  }
  return line + query;
}

// "the not clause", from the operator of the failing clause.
std::string clause_name(const ir::Json& failure) {
  const auto clause = failure.find("clause");
  if (clause == failure.end() || !clause->is_object() || clause->empty()) return "a clause";
  return "the " + clause->begin().key() + " clause";
}

void render_step(const ir::Json& step, std::string& out) {
  const std::string kind = step.value("step", "");
  if (kind == "method") {
    out += "  method " + text_of(step["value"]) + ": " + text_of(step["result"]);
    if (step["result"] == "fallback") out += " (no stub names this method; any-method stubs only)";
  } else if (kind == "path") {
    const std::string method = text_of(step["method"]);
    std::string prefixed;
    if (step.contains("prefixes")) {
      size_t total = 0;
      for (const auto& prefix : step["prefixes"]) total += prefix.value("candidates", size_t{0});
      prefixed = std::to_string(total) + " prefix, ";
    }
    out += "  path " + text_of(step["value"]) + " under " +
           (method == "*" ? std::string("any method") : method) + ": " + text_of(step["result"]) +
           " (" + size_of(step, "candidates") + " exact, " + prefixed +
           size_of(step, "anyPathCandidates") + " any-path candidates)";
  } else if (kind == "value") {
    std::string values;
    for (const auto& value : step.value("values", ir::Json::array())) {
      values += (values.empty() ? "" : ", ") + text_of(value);
    }
    out += "  " + text_of(step["field"]) + " " + text_of(step["key"]) + " in " +
           text_of(step["cell"]) + ": " + (values.empty() ? std::string("(none)") : values) +
           " -> " + plural(step.value("candidates", size_t{0}), "candidate");
  } else if (kind == "candidate") {
    out += "  stub " + text_of(step["stub"]) + " [" + text_of(step["leaf"]) +
           "]: " + text_of(step["result"]);
    if (step.contains("index")) out += " at predicate " + text_of(step["index"]);
    if (step.contains("reason")) out += ": " + text_of(step["reason"]);
    if (step.contains("error")) out += ": " + text_of(step["error"].value("message", ""));
  }
  out += "\n";
}

void render_failure(const ir::Json& failure, const std::string& indent, std::string& out) {
  out += indent + text_of(failure.value("reason", ir::Json("failed"))) + "\n";
  if (failure.contains("alternatives")) {
    for (const auto& alternative : failure["alternatives"]) {
      out += indent + "  - ";
      render_failure(alternative, "", out);
    }
  }
}

}  // namespace

std::string explain_to_text(const ir::Json& report) {
  std::string out;
  if (report.contains("request")) out += "request: " + request_line(report["request"]) + "\n";
  const size_t visited = report.value("candidatesVisited", size_t{0});
  if (report.contains("matched") && !report["matched"].is_null()) {
    out += "matched: stub " + text_of(report["matched"]) + " (" + plural(visited, "candidate") +
           " visited)\n";
  } else {
    out += "matched: none (" + plural(visited, "candidate") + " visited)\n";
  }
  if (report.contains("error")) {
    out +=
        "error: " + text_of(report["error"].value("message", "")) + " (the server answers 500)\n";
  }
  out += "path:\n";
  if (report.contains("path")) {
    for (const auto& step : report["path"]) render_step(step, out);
  }
  if (report.contains("nearMisses") && !report["nearMisses"].empty()) {
    out += "near misses:\n";
    for (const auto& miss : report["nearMisses"]) {
      const ir::Json& failure = miss["failedClause"];
      out += "  stub " + text_of(miss["stub"]) + ": " +
             plural(miss.value("passedClauses", size_t{0}), "clause") + " passed, then ";
      out += failure.contains("field") ? text_of(failure["field"]) : clause_name(failure);
      out += " failed";
      if (!miss.value("candidate", true)) out += " (never a candidate: the dispatch skips it)";
      out += "\n";
      render_failure(failure, "    ", out);
      out += "    in predicate " + text_of(failure["index"]) + ": " + failure["predicate"].dump() +
             "\n";
    }
  }
  return out;
}

}  // namespace rift
