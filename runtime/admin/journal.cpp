#include "runtime/admin/journal.h"

namespace rift::admin {

void delete_saved_requests(AdminState& state, Call& call) {
  if (!call.negotiate()) return;
  call.imposter->clear_recorded_requests();  // the journal is not saved (docs/datadir.md)
  call.send_json_text(
      200, render_imposter_text(*call.imposter, state.render(call, ImposterForm::kFull)));
}

}  // namespace rift::admin
