// The front door (rift-extensions §12, docs/front-door.md): one listener whose requests go to
// imposters by what they say — host, path prefix, headers, method — through a route table
// compiled like an imposter's stubs (frontends/route_table.h: the planner's tree, matched by the
// interpreter; never a scan of the routes). What no route claims may still name its imposter the
// gateway's way (`/__rift/{port}/...`); the rest is a 404 marked `x-rift-front-door: no-route`.
//
// The table is a published snapshot: PUT /front-door/routes (control thread) swaps it while the
// workers serving the listener read it, without a lock.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "compiler/matcher.h"
#include "compiler/plan.h"
#include "frontends/route_table.h"
#include "runtime/front_door/sni_certificates.h"
#include "runtime/http/message.h"
#include "runtime/imposter/registry.h"

namespace rift::front_door {

class FrontDoor {
 public:
  explicit FrontDoor(const Registry& registry);

  // Replaces the table with the `routes` block given, or says why it is refused (nothing changes
  // then): "duplicate route id 'a'".
  std::optional<std::string> set_routes(const ir::Json& block);
  // {"routes": [...]}: every route as it was given, disabled ones too.
  ir::Json routes() const;

  // TLS with certificates chosen by SNI (docs/front-door.md#tls), asked for before the listener
  // binds; the listener then takes tls()->listener_context(). Null tls(): plain HTTP.
  void serve_tls(std::shared_ptr<const CertificateTable> certificates, bool offer_h2);
  SniCertificates* tls() const { return tls_.get(); }

  // The listener's handler: any worker thread.
  void handle(http::Message&& message, http::Respond respond) const;

 private:
  struct Plan {
    frontends::RouteTable table;
    std::shared_ptr<const plan::Tree> tree;
    std::unique_ptr<const Matcher> matcher;
  };

  const Registry& registry_;
  std::atomic<std::shared_ptr<const Plan>> plan_;
  std::unique_ptr<SniCertificates> tls_;
};

}  // namespace rift::front_door
