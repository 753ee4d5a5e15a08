#include "tests/equivalence/shrink.h"

#include <algorithm>
#include <functional>
#include <optional>

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

// Every JSON value one member or element smaller than `value`, at any depth.
std::vector<ir::Json> smaller_json(const ir::Json& value) {
  std::vector<ir::Json> out;
  if (!value.is_structured()) return out;
  for (size_t i = 0; i < value.size(); ++i) {
    ir::Json without = value;
    if (value.is_object()) {
      without.erase(std::next(without.begin(), static_cast<std::ptrdiff_t>(i)));
    } else {
      without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
    }
    out.push_back(std::move(without));
  }
  size_t i = 0;
  for (auto it = value.begin(); it != value.end(); ++it, ++i) {
    for (auto& child : smaller_json(*it)) {
      ir::Json replaced = value;
      *std::next(replaced.begin(), static_cast<std::ptrdiff_t>(i)) = std::move(child);
      out.push_back(std::move(replaced));
    }
  }
  return out;
}

using Differs = std::function<bool(const Case&)>;

// The first case one step smaller than `c` on which `differs` holds, trying the biggest steps
// first: runs of stubs (halves, quarters ... of the list), single stubs, predicates and their
// parts, request parts. Candidates are built one at a time, so a 300-stub list costs one copy
// per candidate tried, not one per candidate there is.
std::optional<Case> smaller(const Case& c, const Differs& differs) {
  std::optional<Case> found;
  auto attempt = [&](Case candidate) {
    if (!differs(candidate)) return false;
    found = std::move(candidate);
    return true;
  };
  const size_t stubs = c.stubs.size();
  for (size_t run = stubs / 2; run >= 1; run /= 2) {
    for (size_t first = 0; first < stubs; first += run) {
      Case without = c;
      const auto begin = without.stubs.begin() + static_cast<std::ptrdiff_t>(first);
      without.stubs.erase(begin, begin + static_cast<std::ptrdiff_t>(std::min(run, stubs - first)));
      if (attempt(std::move(without))) return found;
    }
  }
  for (size_t s = 0; s < stubs; ++s) {
    const auto& predicates = c.stubs[s].predicates;
    for (size_t p = 0; p < predicates.size(); ++p) {
      Case without = c;
      auto& list = without.stubs[s].predicates;
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(p));
      if (attempt(std::move(without))) return found;
      for (auto& variant : simpler(predicates[p])) {
        Case replaced = c;
        replaced.stubs[s].predicates[p] = std::move(variant);
        if (attempt(std::move(replaced))) return found;
      }
    }
  }
  const Request& r = c.request;
  for (size_t i = 0; i < r.headers.size(); ++i) {
    Case without = c;
    without.request.headers.erase(without.request.headers.begin() + static_cast<std::ptrdiff_t>(i));
    if (attempt(std::move(without))) return found;
  }
  for (size_t i = 0; i < r.query.size(); ++i) {
    Case without = c;
    without.request.query.erase(without.request.query.begin() + static_cast<std::ptrdiff_t>(i));
    if (attempt(std::move(without))) return found;
  }
  if (r.form) {
    Case without = c;
    without.request.form.reset();
    if (attempt(std::move(without))) return found;
  }
  if (!r.body || !r.body->empty()) {
    Case without = c;
    without.request.body = "";
    if (attempt(std::move(without))) return found;
  }
  if (r.body) {
    // Written back with nlohmann's dump: a difference that hangs on the text's own spelling of a
    // number or escape does not survive that, and the body is then kept as it was.
    const ir::Json json = ir::Json::parse(*r.body, nullptr, false);
    for (const auto& body : smaller_json(json)) {
      Case smaller_body = c;
      smaller_body.request.body = body.dump();
      if (attempt(std::move(smaller_body))) return found;
    }
  }
  return std::nullopt;
}

Case shrink_while(const Differs& differs, Case c) {
  // Greedy: take the first smaller case that still disagrees, and start over from it, until
  // no step keeps the disagreement.
  while (auto next = smaller(c, differs)) c = std::move(*next);
  return c;
}

ir::Json case_json(const Case& c) {
  ir::Json stubs = ir::Json::array();
  for (const auto& stub : c.stubs) {
    ir::Json predicates = ir::Json::array();
    for (const auto& predicate : stub.predicates)
      predicates.push_back(predicate_to_json(predicate));
    ir::Json entry = {{"predicates", std::move(predicates)},
                      {"responses", ir::Json::array({{{"is", ir::Json::object()}}})}};
    if (stub.space) entry["space"] = *stub.space;
    stubs.push_back(std::move(entry));
  }
  ir::Json out = ir::Json::object();
  out["stubs"] = std::move(stubs);
  out["request"] = to_json(c.request);
  if (!c.request.flow_id.empty()) out["flowId"] = c.request.flow_id;
  out["reference"] = describe(ReferenceScan(c.stubs).answer(c.request));
  return out;
}

}  // namespace

bool disagrees(const Tier& tier, const Case& c) {
  const ReferenceScan reference(c.stubs);
  return answer_of(tier.build(c.stubs), c.request) != reference.answer(c.request);
}

Case shrink(const Tier& tier, Case c) {
  return shrink_while([&](const Case& candidate) { return disagrees(tier, candidate); },
                      std::move(c));
}

std::string reproduction(const Tier& tier, const Case& c) {
  ir::Json out = case_json(c);
  out[tier.name] = describe(answer_of(tier.build(c.stubs), c.request));
  return out.dump(2);
}

bool disagrees(const Tier& tier, const Tier& oracle, const Case& c) {
  return answer_of(tier.build(c.stubs), c.request) != answer_of(oracle.build(c.stubs), c.request);
}

Case shrink(const Tier& tier, const Tier& oracle, Case c) {
  return shrink_while([&](const Case& candidate) { return disagrees(tier, oracle, candidate); },
                      std::move(c));
}

std::string reproduction(const Tier& tier, const Tier& oracle, const Case& c) {
  ir::Json out = case_json(c);
  out[oracle.name] = describe(answer_of(oracle.build(c.stubs), c.request));
  out[tier.name] = describe(answer_of(tier.build(c.stubs), c.request));
  return out.dump(2);
}

}  // namespace rift::equivalence
