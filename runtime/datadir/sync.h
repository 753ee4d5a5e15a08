// Keeps --datadir in step with the running imposters.
//
// The admin API calls it after each change and before it answers, on the control thread, so
// an acknowledged change is on disk; nothing on the request path calls it. What is saved is
// each imposter's creation request (every imposter-level field as the client sent it, including
// `host` and `allowCORS`, which the API never echoes) with its current stubs.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "compiler/ir.h"
#include "runtime/datadir/store.h"
#include "runtime/imposter/imposter.h"

namespace rift {

class DatadirSync {
 public:
  explicit DatadirSync(DatadirStore store) : store_(std::move(store)) {}

  // A new imposter, made from `request` (a creation request): saves it.
  std::optional<std::string> created(const Imposter& imposter, const ir::Json& request);
  // An imposter loaded at start from `document`, which is on disk already: remembers it.
  void loaded(const Imposter& imposter, const ir::Json& document);
  // Its stubs changed: saves it again.
  std::optional<std::string> changed(const Imposter& imposter);
  std::optional<std::string> removed(int port);

  DatadirStore& store() { return store_; }

 private:
  void remember(const Imposter& imposter, const ir::Json& request);

  DatadirStore store_;
  // Per port: the creation request without its stubs (and without what a GET adds).
  std::map<int, ir::Json> headers_;
};

}  // namespace rift
