#include "runtime/front_door/front_door.h"

#include "compiler/ascii.h"
#include "compiler/interpreter.h"
#include "compiler/predicate_eval.h"
#include "runtime/front_door/gateway.h"
#include "runtime/front_door/routing_request.h"
#include "runtime/http/url_path.h"

namespace rift::front_door {

namespace {

// `/api/users?x` less the route's prefix `/api` is `/users?x`; all of it, `/`.
void strip_prefix(std::string& target, const std::string& prefix) {
  std::string_view trimmed = prefix;
  while (!trimmed.empty() && trimmed.back() == '/') trimmed.remove_suffix(1);
  const size_t start = target.size() - http::strip_scheme_and_authority(target).size();
  target.erase(0, start);  // the imposter sees origin form, as its own listener would
  target.erase(0, trimmed.size());
  if (target.empty() || target.front() == '?') target.insert(0, "/");
}

void set_host(http::Message& message, const std::string& host) {
  for (auto& [name, value] : message.headers) {
    if (ascii::iequals(name, "host")) {
      value = host;
      return;
    }
  }
  message.headers.emplace_back("Host", host);
}

}  // namespace

FrontDoor::FrontDoor(const Registry& registry) : registry_(registry) {
  set_routes(ir::Json::array());
}

void FrontDoor::serve_tls(std::shared_ptr<const CertificateTable> certificates, bool offer_h2) {
  tls_ = std::make_unique<SniCertificates>(std::move(certificates), offer_h2);
}

std::optional<std::string> FrontDoor::set_routes(const ir::Json& block) {
  auto parsed = frontends::parse_route_table(block);
  if (auto* error = std::get_if<std::string>(&parsed)) return *error;
  auto plan = std::make_shared<Plan>();
  plan->table = std::get<frontends::RouteTable>(std::move(parsed));
  auto tree = plan::build(plan->table.stubs);
  if (auto* error = std::get_if<MbError>(&tree)) return error->message;
  plan->tree = std::get<std::shared_ptr<const plan::Tree>>(std::move(tree));
  plan->matcher = std::make_unique<Interpreter>(plan->tree);
  plan_.store(std::move(plan), std::memory_order_release);
  return std::nullopt;
}

ir::Json FrontDoor::routes() const {
  return ir::Json{{"routes", plan_.load(std::memory_order_acquire)->table.source}};
}

void FrontDoor::handle(http::Message&& message, http::Respond respond) const {
  const std::shared_ptr<const Plan> plan = plan_.load(std::memory_order_acquire);
  // The message's own Request is the scratch space: the imposter refills it from the message.
  Request& routing = message.request;
  build_routing_request(message, routing);
  int index = kNoMatch;
  {
    RequestContext context(routing);
    index = plan->matcher->match(context);
  }
  const bool close = message.version_major == 1 && message.version_minor == 0;
  if (index == kNoMatch) {
    if (serve_gateway(registry_, message, respond)) return;
    // Marked, so a client can tell "no route" from "a route whose imposter is gone" (a 404 too).
    respond(error_reply(404, "no such resource",
                        "no route matches " + message.method + " " + routing.path, close,
                        {{"x-rift-front-door", "no-route"}}));
    return;
  }
  const frontends::Route& route = plan->table.routes[static_cast<size_t>(index)];
  const std::shared_ptr<Imposter> imposter = registry_.find_published(route.port);
  if (!imposter || !imposter->speaks_http()) {
    respond(error_reply(404, "no such resource",
                        "no imposter on port " + std::to_string(route.port), close));
    return;
  }
  if (route.strip_prefix && route.path_prefix) strip_prefix(message.target, *route.path_prefix);
  if (route.set_host) set_host(message, *route.set_host);
  imposter->handle(std::move(message), std::move(respond));
}

}  // namespace rift::front_door
