// Generated lists made tcp ones (docs/tcp.md): the drawn stubs' `path` predicates become `data`
// predicates, and a request built for the http stubs becomes the tcp request carrying its path as
// data, so one grammar exercises a tcp tree's dispatch on `data` in every tier.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir.h"
#include "compiler/request.h"

namespace rift::equivalence {

inline void rename_path_to_data(ir::Predicate& predicate) {
  for (auto& child : predicate.children) rename_path_to_data(child);
  if (!predicate.fields.is_object() || !predicate.fields.contains("path")) return;
  ir::Json renamed = ir::Json::object();
  for (const auto& [name, value] : predicate.fields.items()) {
    renamed[name == "path" ? std::string("data") : name] = value;
  }
  predicate.fields = std::move(renamed);
}

inline std::vector<ir::Stub> as_tcp(std::vector<ir::Stub> stubs) {
  for (auto& stub : stubs) {
    for (auto& predicate : stub.predicates) rename_path_to_data(predicate);
  }
  return stubs;
}

inline Request as_tcp(Request request) {
  request.protocol = Protocol::kTcp;
  request.body = request.path;
  request.method.clear();
  request.query.clear();
  request.headers.clear();
  request.form.reset();
  return request;
}

}  // namespace rift::equivalence
