// RequestContext::Caches: per-request work shared by every predicate evaluated on one request.
//
// Keys are built at prepare time from a predicate's normalization profile and a request field
// name, so predicates that normalize the same way share the lower-cased text, the parsed JSON
// body, the parsed XML document and selector results.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir.h"
#include "compiler/jsonpath.h"
#include "compiler/predicate_eval.h"
#include "compiler/request_cache.h"
#include "compiler/xpath.h"

namespace rift {

// One Caches serves the requests of a thread one after another (RequestContext recycles it), so
// its maps keep their keys and buffers; next_request() makes every entry stale.
struct RequestContext::Caches {
  // Creation-time dry run (spec 2.3): inject predicates hold without running.
  bool dry_run = false;
  jsonpath::JsonParser json_parser;
  // profile + field -> the field after case folding / except / selector (nullopt: missing).
  RequestCache<std::optional<ir::Json>> fields;
  // transform + field -> tryJSON of the transformed text.
  RequestCache<std::optional<ir::Json>> parsed;
  // transform + field -> parsed XML (nullptr: empty text).
  RequestCache<std::shared_ptr<const xpath::Document>> documents;
  // plan::request_values: field + key -> the request's folded values for a ValueIndex.
  RequestCache<std::vector<std::string>> values;

  void next_request() {
    dry_run = false;
    fields.next_request();
    parsed.next_request();
    documents.next_request();
    values.next_request();
  }
};

}  // namespace rift
