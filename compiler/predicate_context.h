// RequestContext::Caches: per-request work shared by every predicate evaluated on one request.
//
// Keys (compiler/request_cache.h) are built at prepare time from a predicate's normalization, its
// selector and a request field name, so predicates that normalize the same way share the
// lower-cased text, the parsed JSON body, the parsed XML document and selector results. With
// RequestContext::slow_paths() set, the evaluator uses none of them (values excepted, which
// holds the tree's lookups, not predicate results).
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
  // Creation-time dry run (docs/mountebank-semantics.md §2.3): inject predicates hold
  // without running.
  bool dry_run = false;
  jsonpath::JsonParser json_parser;
  // normalization + selection + field -> the field after case folding / except / selector
  // (nullopt: missing).
  RequestCache<FieldKey, std::optional<ir::Json>> fields;
  // normalization + field -> tryJSON of the transformed text; with a selection, tryJSON of the
  // selection's result.
  RequestCache<FieldKey, std::optional<ir::Json>> parsed;
  // normalization + field -> parsed XML (nullptr: empty text).
  RequestCache<FieldKey, std::shared_ptr<const xpath::Document>> documents;
  // plan::request_values: value source + key -> the request's folded values for a ValueIndex.
  RequestCache<ValuesKey, std::vector<std::string>> values;

  void next_request() {
    dry_run = false;
    fields.next_request();
    parsed.next_request();
    documents.next_request();
    values.next_request();
  }
};

}  // namespace rift
