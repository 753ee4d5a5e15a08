// `lookup` (docs/mountebank-semantics.md §6.2, Lookup): select a key from the request, find its row
// in a CSV data source, and replace `into["column"]` tokens with the row's cells.
//
// As in Mountebank, a lookup never fails the response: an unreadable file, a header without
// keyColumn, a key no row has, even a selector that does not compile, replace nothing.
#pragma once

#include <optional>
#include <string>

#include "runtime/behaviors/selection.h"
#include "runtime/behaviors/step.h"

namespace rift::behaviors {

class LookupStep final : public Step {
 public:
  // `config` is the validated {key: {from, using, index?}, fromDataSource: {csv}, into} object.
  explicit LookupStep(const ir::Json& config);
  void apply(const StepContext& context, Flow flow, Next next) const override;

 private:
  ir::Json from_;
  Selector selector_;
  std::optional<size_t> index_;      // nullopt: Mountebank reads `undefined`
  std::optional<std::string> path_;  // nullopt: no csv source
  std::string key_column_;
  std::string delimiter_;
  std::string into_;
};

}  // namespace rift::behaviors
