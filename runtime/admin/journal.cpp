#include "runtime/admin/journal.h"

#include "runtime/admin/journal_filter.h"

namespace rift::admin {

void get_saved_requests(AdminState&, Call& call) {
  auto filter = journal_filter(call.queries("match"));
  if (auto* error = std::get_if<MbError>(&filter)) return call.fail(400, {*error});
  auto since = journal_cursor(call.raw_query());
  if (auto* error = std::get_if<MbError>(&since)) return call.fail(400, {*error});
  const JournalPage page = call.imposter->recorded_page(std::get<JournalFilter>(filter),
                                                        std::get<std::optional<uint64_t>>(since));
  KeyValues headers = {{"x-rift-next-index", std::to_string(page.next_index)}};
  if (page.truncated) headers.emplace_back("x-rift-truncated", "true");
  call.send(200, page.requests, std::move(headers));
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
