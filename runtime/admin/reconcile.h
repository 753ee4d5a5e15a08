// Reconciling the running imposters with a wanted set (docs/reload.md): PUT /imposters,
// POST /admin/reload and --configfile at start-up. The whole set is validated first; then each
// imposter gets the least change that makes it what the set says, so an unchanged imposter
// keeps its journal, response cycles and flow store (scenario states), and a stub edit keeps the
// cycles of the stubs it did not touch.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "compiler/ir.h"
#include "runtime/admin/state.h"

namespace rift::admin {

struct Reconciled {
  std::vector<int> created;       // new ports (and every imposter without a port)
  std::vector<int> replaced;      // settings changed: created afresh on the same port
  std::vector<int> stub_patched;  // stubs changed: published in place
  std::vector<int> deleted;       // ports the set no longer has
  // A change that failed after others applied (a port another process holds, a --datadir
  // write): the error body; what the lists say did apply.
  std::optional<ir::Json> failure;

  ir::Json to_json() const;  // {created, replaced, stubPatched, deleted}
};

// Every reason `imposters` (the set) is refused: nothing has changed then.
std::variant<Reconciled, MbErrors> reconcile(AdminState& state, const ir::Json& imposters);

}  // namespace rift::admin
