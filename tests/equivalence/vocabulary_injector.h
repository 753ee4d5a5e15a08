// Stands in for the JavaScript engine in the equivalence tester: answers the few `inject`
// sources of vocabulary::inject_sources() by their meaning, deterministically, so an `inject`
// leaf can be checked on every tier without running JavaScript.
#pragma once

#include "compiler/predicate_eval.h"
#include "compiler/predicate_injector.h"
#include "tests/equivalence/vocabulary.h"

namespace rift::equivalence {

class VocabularyInjector : public PredicateInjector {
 public:
  bool holds(const std::string& source, const ir::Json& request) const override {
    const auto& sources = vocabulary::inject_sources();
    if (source == sources[0]) return request.value("method", "") == "GET";
    if (source == sources[1]) return request.value("path", "").find('a') != std::string::npos;
    if (source == sources[2]) return false;
    throw EvalError(MbError{"invalid injection", "invalid predicate injection", source,
                            std::string("injected")});
  }
};

// Stateless, so one shared instance serves every context.
inline const PredicateInjector& vocabulary_injector() {
  static const VocabularyInjector injector;
  return injector;
}

}  // namespace rift::equivalence
