#include "runtime/admin/journal.h"

#include "runtime/admin/journal_filter.h"

namespace rift::admin {

void get_saved_requests(AdminState&, Call& call) {
  auto filter = journal_filter(call.queries("match"));
  if (auto* error = std::get_if<MbError>(&filter)) return call.fail(400, {*error});
  call.send(200, call.imposter->recorded_requests(std::get<JournalFilter>(filter)));
}

void delete_saved_requests(AdminState& state, Call& call) {
  if (!call.negotiate()) return;
  auto filter = journal_filter(call.queries("match"));
  if (auto* error = std::get_if<MbError>(&filter)) return call.fail(400, {*error});
  if (const auto& which = std::get<JournalFilter>(filter)) {
    call.imposter->remove_recorded_requests(which);  // numberOfRequests stays
  } else {
    call.imposter->clear_recorded_requests();  // the journal is not saved (docs/datadir.md)
  }
  call.send_json_text(
      200, render_imposter_text(*call.imposter, state.render(call, ImposterForm::kFull)));
}

}  // namespace rift::admin
