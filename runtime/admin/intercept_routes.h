// The intercept proxy over the admin API (rift-extensions §13, docs/intercept.md): start, report
// and stop it (POST/GET/DELETE /intercept), its rules (POST/GET/DELETE /intercept/rules) and its
// CA for clients to trust (GET /intercept/ca.pem, truststore.p12, truststore.jks).
#pragma once

#include "runtime/admin/call.h"
#include "runtime/admin/state.h"

namespace rift::admin {

// 201 {interceptPort, interceptUrl[, caCertPem, caKeyPem]}; 409 when one runs; 400 for bad
// settings, CA or bind; 429 when the seeded rules pass the cap.
void post_intercept(AdminState& state, Call& call);
// 200 {interceptPort, interceptUrl}; 404 when none runs.
void get_intercept(AdminState& state, Call& call);
// 204 always: stops the proxy and drops its rules and CA.
void delete_intercept(AdminState& state, Call& call);

// 201 with the rules added (one rule or an array, all or nothing); 400; 429 past the cap.
void post_intercept_rules(AdminState& state, Call& call);
void get_intercept_rules(AdminState& state, Call& call);     // 200 [...]
void delete_intercept_rules(AdminState& state, Call& call);  // 200 {"deleted": N}

void get_intercept_ca(AdminState& state, Call& call);  // the CA certificate, PEM
// The CA as a PKCS#12 or JKS truststore, ?password= (default changeit) echoed in
// x-truststore-password.
void get_intercept_p12(AdminState& state, Call& call);
void get_intercept_jks(AdminState& state, Call& call);

}  // namespace rift::admin
