// Builds ir::Predicate from Mountebank JSON and runs it against a rift::Request, so predicate
// tests read like the examples of docs/mountebank-semantics.md.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "compiler/ir.h"
#include "compiler/predicate_eval.h"
#include "compiler/request.h"

namespace rift::testing {

inline ir::Predicate predicate_from(const ir::Json& json) {
  ir::Predicate out;
  for (auto it = json.begin(); it != json.end(); ++it) {
    auto op = ir::op_from_name(it.key());
    if (!op) continue;
    out.op = *op;  // first operator key only
    if (*op == ir::Op::kNot) {
      out.children.push_back(predicate_from(it.value()));
    } else if (*op == ir::Op::kOr || *op == ir::Op::kAnd) {
      for (const auto& child : it.value()) out.children.push_back(predicate_from(child));
    } else if (*op == ir::Op::kInject) {
      out.inject = it.value().get<std::string>();
    } else {
      out.fields = it.value();
    }
    break;
  }
  if (json.contains("caseSensitive")) out.case_sensitive = json["caseSensitive"].get<bool>();
  if (json.contains("except")) out.except = json["except"].get<std::string>();
  if (json.contains("jsonpath")) out.jsonpath = json["jsonpath"]["selector"].get<std::string>();
  if (json.contains("xpath")) {
    ir::XPathSelector xpath;
    xpath.selector = json["xpath"]["selector"].get<std::string>();
    if (json["xpath"].contains("ns")) {
      for (auto it = json["xpath"]["ns"].begin(); it != json["xpath"]["ns"].end(); ++it) {
        xpath.ns[it.key()] = it.value().get<std::string>();
      }
    }
    out.xpath = xpath;
  }
  return out;
}

inline Request request_with_body(std::string body) {
  Request request;
  request.method = "POST";
  request.path = "/";
  request.body = std::move(body);
  return request;
}

// A request with the given method, path, query, headers and body.
inline Request request(std::string method, std::string path, KeyValues query = {},
                       KeyValues headers = {}, std::string body = "") {
  Request out;
  out.method = std::move(method);
  out.path = std::move(path);
  out.query = std::move(query);
  out.headers = std::move(headers);
  out.body = std::move(body);
  return out;
}

inline bool holds(const std::string& predicate_json, const Request& request) {
  auto prepared = PreparedPredicate::prepare(predicate_from(ir::Json::parse(predicate_json)));
  if (prepared.index() != 0) {
    ADD_FAILURE() << "prepare failed: " << std::get<MbError>(prepared).to_json().dump();
    return false;
  }
  RequestContext context(request);
  return std::get<PreparedPredicate>(prepared).evaluate(context);
}

inline bool body_holds(const std::string& predicate_json, const std::string& body) {
  return holds(predicate_json, request_with_body(body));
}

}  // namespace rift::testing
