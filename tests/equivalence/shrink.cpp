#include "tests/equivalence/shrink.h"

#include <functional>

#include "compiler/predicate_json.h"
#include "tests/equivalence/reference_scan.h"

namespace rift::equivalence {
namespace {

// Every predicate one simplification step away from `predicate`.
std::vector<ir::Predicate> simpler(const ir::Predicate& predicate) {
  std::vector<ir::Predicate> out;
  for (size_t i = 0; i < predicate.children.size(); ++i) {
    out.push_back(predicate.children[i]);  // a child instead of the whole
    ir::Predicate without = predicate;
    without.children.erase(without.children.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(std::move(without));
    for (auto& child : simpler(predicate.children[i])) {
      ir::Predicate replaced = predicate;
      replaced.children[i] = std::move(child);
      out.push_back(std::move(replaced));
    }
  }
  if (predicate.fields.is_object() && predicate.fields.size() > 1) {
    for (const auto& [key, value] : predicate.fields.items()) {
      ir::Predicate without = predicate;
      without.fields.erase(key);
      out.push_back(std::move(without));
    }
  }
  if (predicate.case_sensitive) {
    out.push_back(predicate);
    out.back().case_sensitive = false;
  }
  if (!predicate.except.empty()) {
    out.push_back(predicate);
    out.back().except.clear();
  }
  if (predicate.xpath && !predicate.xpath->ns.empty()) {
    out.push_back(predicate);
    out.back().xpath->ns.clear();
  }
  return out;
}

// Every case one step smaller than `c`, biggest steps first.
std::vector<Case> smaller(const Case& c) {
  std::vector<Case> out;
  for (size_t s = 0; s < c.stubs.size(); ++s) {
    Case without = c;
    without.stubs.erase(without.stubs.begin() + static_cast<std::ptrdiff_t>(s));
    out.push_back(std::move(without));
  }
  for (size_t s = 0; s < c.stubs.size(); ++s) {
    const auto& predicates = c.stubs[s].predicates;
    for (size_t p = 0; p < predicates.size(); ++p) {
      Case without = c;
      auto& list = without.stubs[s].predicates;
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(p));
      out.push_back(std::move(without));
      for (auto& variant : simpler(predicates[p])) {
        Case replaced = c;
        replaced.stubs[s].predicates[p] = std::move(variant);
        out.push_back(std::move(replaced));
      }
    }
  }
  const Request& r = c.request;
  for (size_t i = 0; i < r.headers.size(); ++i) {
    Case without = c;
    without.request.headers.erase(without.request.headers.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(std::move(without));
  }
  for (size_t i = 0; i < r.query.size(); ++i) {
    Case without = c;
    without.request.query.erase(without.request.query.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(std::move(without));
  }
  if (r.form) {
    out.push_back(c);
    out.back().request.form.reset();
  }
  if (!r.body || !r.body->empty()) {
    out.push_back(c);
    out.back().request.body = "";
  }
  return out;
}

}  // namespace

bool disagrees(const Tier& tier, const Case& c) {
  const ReferenceScan reference(c.stubs);
  return answer_of(tier.build(c.stubs), c.request) != reference.answer(c.request);
}

Case shrink(const Tier& tier, Case c) {
  // Greedy: take the first smaller case that still disagrees, and start over from it. Cases
  // are small by then (a generated list has at most a few hundred stubs), so this terminates
  // quickly.
  for (bool progress = true; progress;) {
    progress = false;
    for (auto& candidate : smaller(c)) {
      if (disagrees(tier, candidate)) {
        c = std::move(candidate);
        progress = true;
        break;
      }
    }
  }
  return c;
}

std::string reproduction(const Tier& tier, const Case& c) {
  ir::Json stubs = ir::Json::array();
  for (const auto& stub : c.stubs) {
    ir::Json predicates = ir::Json::array();
    for (const auto& predicate : stub.predicates)
      predicates.push_back(predicate_to_json(predicate));
    stubs.push_back(ir::Json{{"predicates", std::move(predicates)},
                             {"responses", ir::Json::array({{{"is", ir::Json::object()}}})}});
  }
  ir::Json out = ir::Json::object();
  out["stubs"] = std::move(stubs);
  out["request"] = to_json(c.request);
  out["reference"] = describe(ReferenceScan(c.stubs).answer(c.request));
  out[tier.name] = describe(answer_of(tier.build(c.stubs), c.request));
  return out.dump(2);
}

}  // namespace rift::equivalence
