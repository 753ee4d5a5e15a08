#include "runtime/imposter/behavior_reply.h"

namespace rift::behaviors {
namespace {

http::Reply to_reply(const WireResponse& wire, std::chrono::milliseconds delay) {
  http::Reply reply;
  reply.bytes = wire.serialize(http_date_now());
  reply.close = wire.close;
  reply.delay = delay;
  return reply;
}

}  // namespace

http::Reply render_outcome(Outcome outcome, const std::optional<ir::Json>& defaults,
                           const WireContext& wire_context) {
  if (auto* error = std::get_if<MbError>(&outcome)) {
    return to_reply(render_error(*error, wire_context), {});
  }
  const Flow& flow = std::get<Flow>(outcome);
  std::variant<WireResponse, MbError> wire = MbError{};
  try {
    wire = render_response(flow.response, defaults, wire_context);
  } catch (const std::exception& error) {
    // e.g. a body object holding text that is not UTF-8, copied from a request
    wire = MbError{"bad data", error.what(), std::nullopt};
  }
  if (auto* rendered = std::get_if<WireResponse>(&wire)) return to_reply(*rendered, flow.delay);
  return to_reply(render_error(std::get<MbError>(wire), wire_context), {});
}

void reply_with_behaviors(const std::shared_ptr<const Pipeline>& pipeline, StepContext context,
                          ir::Json response, std::optional<ir::Json> defaults,
                          WireContext wire_context, std::function<void(http::Reply)> respond) {
  pipeline->run(std::move(context), std::move(response),
                [defaults = std::move(defaults), wire_context = std::move(wire_context),
                 respond = std::move(respond)](Outcome outcome) {
                  respond(render_outcome(std::move(outcome), defaults, wire_context));
                });
}

}  // namespace rift::behaviors
