// The fast path of a templated response (docs/templates.md#how-it-flows): when the body is its
// only dynamic text, everything around the body is framed once, when the plan is published, and
// a request costs rendering the body's pieces and one chunk of framing.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "compiler/ir.h"
#include "runtime/http/message.h"
#include "runtime/imposter/response_renderer.h"

namespace rift {

class TemplatedWire {
 public:
  // Unset when the framing depends on the body in another way than a chunk (a Content-Length
  // header the stub sets, a binary body, a bodiless status): those are rendered whole.
  static std::optional<TemplatedWire> prepare(const ir::Json& is,
                                              const std::optional<ir::Json>& defaults,
                                              const WireContext& common);
  // The response with `body` as its body, for the common context it was prepared for.
  http::Reply reply(std::string_view body) const;

 private:
  std::string before_date_;
  std::string after_date_;  // to the blank line that ends the head
  bool add_date_ = true;
  bool close_ = false;
};

}  // namespace rift
