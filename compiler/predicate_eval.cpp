#include "compiler/predicate_eval.h"

namespace rift {

struct RequestContext::Caches {};

RequestContext::RequestContext(const Request& request) : request_(request) {}
RequestContext::~RequestContext() = default;

const ir::Json& RequestContext::json() {
  if (!json_) json_ = to_json(request_);
  return *json_;
}

RequestContext::Caches& RequestContext::caches() {
  if (!caches_) caches_ = std::make_unique<Caches>();
  return *caches_;
}

struct PreparedPredicate::Impl {
  ir::Predicate source;
};

PreparedPredicate::PreparedPredicate(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PreparedPredicate::PreparedPredicate(PreparedPredicate&&) noexcept = default;
PreparedPredicate& PreparedPredicate::operator=(PreparedPredicate&&) noexcept = default;
PreparedPredicate::~PreparedPredicate() = default;

std::variant<PreparedPredicate, MbError> PreparedPredicate::prepare(
    const ir::Predicate& predicate) {
  auto impl = std::make_unique<Impl>();
  impl->source = predicate;
  return PreparedPredicate(std::move(impl));
}

bool PreparedPredicate::evaluate(RequestContext&) const {
  return false;
}

const ir::Predicate& PreparedPredicate::source() const {
  return impl_->source;
}

}  // namespace rift
