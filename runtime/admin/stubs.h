// The stubs of one imposter: /imposters/:id/stubs[/:stubIndex] (docs/mountebank-semantics.md §1.3)
// and the removal of proxy recordings (/imposters/:id/savedProxyResponses). Every edit publishes a
// new plan before it is answered and, under --datadir, is saved or rolled back.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// A stub index in a URL: Mountebank looks it up as an array key, so only canonical integers below
// `count` hit.
std::optional<size_t> stub_index(const std::string& text, size_t count);
// Mountebank's 404 for a :stubIndex that names no stub.
MbError bad_stub_index();

// keep[i] == i: every stub keeps its cycle position (Imposter::set_stubs).
std::vector<int> identity(size_t count);

// Publishes new stubs and, under --datadir, saves the imposter; if that fails the previous
// stubs go back in service. Returns the status and error to answer with on failure.
std::optional<std::pair<int, MbError>> publish_stubs(AdminState& state, Imposter& imposter,
                                                     std::vector<ir::Stub> stubs,
                                                     const std::vector<int>& keep);

// publish_stubs, then answers with the whole imposter (200), as Mountebank does for every edit.
void publish_and_answer(AdminState& state, Call& call, std::vector<ir::Stub> stubs,
                        const std::vector<int>& keep);

void put_stubs(AdminState& state, Call& call);
void post_stub(AdminState& state, Call& call);
void put_stub(AdminState& state, Call& call);
void delete_stub(AdminState& state, Call& call);
void delete_saved_proxy_responses(AdminState& state, Call& call);

}  // namespace rift::admin
