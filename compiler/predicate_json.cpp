#include "compiler/predicate_json.h"

namespace rift {

ir::Json predicate_to_json(const ir::Predicate& predicate) {
  ir::Json out = ir::Json::object();
  const char* name = ir::op_name(predicate.op);
  switch (predicate.op) {
    case ir::Op::kNot:
      out[name] = predicate.children.empty() ? ir::Json::object()
                                             : predicate_to_json(predicate.children.front());
      break;
    case ir::Op::kOr:
    case ir::Op::kAnd: {
      ir::Json children = ir::Json::array();
      for (const auto& child : predicate.children) children.push_back(predicate_to_json(child));
      out[name] = std::move(children);
      break;
    }
    case ir::Op::kInject:
      out[name] = predicate.inject;
      break;
    default:
      out[name] = predicate.fields;
      break;
  }
  if (predicate.case_sensitive) out["caseSensitive"] = true;
  if (!predicate.except.empty()) out["except"] = predicate.except;
  if (predicate.jsonpath) out["jsonpath"] = ir::Json{{"selector", *predicate.jsonpath}};
  if (predicate.xpath) {
    ir::Json xpath = ir::Json::object();
    xpath["selector"] = predicate.xpath->selector;
    if (!predicate.xpath->ns.empty()) {
      ir::Json ns = ir::Json::object();
      for (const auto& [prefix, uri] : predicate.xpath->ns) ns[prefix] = uri;
      xpath["ns"] = std::move(ns);
    }
    out["xpath"] = std::move(xpath);
  }
  return out;
}

}  // namespace rift
