#include "runtime/admin/reconcile.h"

#include <map>
#include <string>
#include <utility>

#include "frontends/mountebank_json.h"
#include "runtime/admin/imposters.h"
#include "runtime/admin/stubs.h"
#include "runtime/datadir/sync.h"
#include "runtime/imposter/tls.h"

namespace rift::admin {
namespace {

struct Wanted {
  ir::Imposter config;
  const ir::Json* document;  // what --datadir saves for it
};

// Everything but the stubs, with `enabled` left out: it is toggled in place.
bool same_settings(const ir::Imposter& live, const ir::Imposter& wanted) {
  ir::ImposterSettings a = live;
  ir::ImposterSettings b = wanted;
  a.enabled = b.enabled = true;
  return a == b;
}

// For each wanted stub, the live stub it continues (keeping its response cycle), or -1: the
// live stub with its id, or, without ids, the next unused live stub equal to it.
std::vector<int> continuations(const std::vector<ir::Stub>& live,
                               const std::vector<ir::Stub>& wanted) {
  std::vector<bool> used(live.size(), false);
  std::vector<int> keep(wanted.size(), -1);
  for (size_t w = 0; w < wanted.size(); ++w) {
    for (size_t l = 0; l < live.size(); ++l) {
      if (used[l]) continue;
      const bool same = wanted[w].id ? live[l].id == wanted[w].id
                                     : !live[l].id && live[l].source == wanted[w].source;
      if (!same) continue;
      used[l] = true;
      keep[w] = static_cast<int>(l);
      break;
    }
  }
  return keep;
}

// Adds `wanted` and saves it, announced as `action`; the error body on failure.
std::optional<ir::Json> create(AdminState& state, Wanted wanted, std::vector<int>& ports,
                               events::Action action) {
  auto added = state.registry.add(std::move(wanted.config));
  if (auto* error = std::get_if<MbError>(&added)) return errors_body({*error});
  const auto& imposter = std::get<std::shared_ptr<Imposter>>(added);
  ports.push_back(imposter->port());
  log_open(state, *imposter);
  state.announce(action, imposter->port());
  if (!state.datadir) return std::nullopt;
  if (auto failed = state.datadir->created(*imposter, *wanted.document)) {
    return errors_body({datadir_error(*failed)});
  }
  return std::nullopt;
}

}  // namespace

ir::Json Reconciled::to_json() const {
  return ir::Json{{"created", created},
                  {"replaced", replaced},
                  {"stubPatched", stub_patched},
                  {"deleted", deleted}};
}

std::variant<Reconciled, MbErrors> reconcile(AdminState& state, const ir::Json& imposters) {
  std::vector<Wanted> wanted;
  MbErrors errors;
  if (imposters.is_array()) {
    for (const auto& document : imposters) {
      auto parsed = frontends::parse_imposter(document.is_object() ? document : ir::Json::object(),
                                              {state.options.allow_injection});
      if (auto* found = std::get_if<MbErrors>(&parsed)) {
        errors.insert(errors.end(), found->begin(), found->end());
        continue;
      }
      // Checked before anything changes: a key OpenSSL refuses must not empty the server.
      auto tls = tls_creation_errors(std::get<ir::Imposter>(parsed));
      errors.insert(errors.end(), tls.begin(), tls.end());
      wanted.push_back({std::get<ir::Imposter>(std::move(parsed)), &document});
    }
  }
  std::map<int, size_t> by_port;
  for (size_t i = 0; i < wanted.size(); ++i) {
    const auto port = wanted[i].config.port;
    if (port && !by_port.emplace(*port, i).second) {
      errors.push_back(bad_data("Port " + std::to_string(*port) +
                                " is already in use: the set has two imposters on it"));
    }
  }
  if (!errors.empty()) return errors;

  Reconciled out;
  auto fail = [&](std::optional<ir::Json> failure) {
    if (failure && !out.failure) out.failure = std::move(failure);
  };
  // Ports the set no longer has go first, so a new imposter may take one.
  for (const auto& live : state.registry.list()) {
    const int port = live->port();
    if (by_port.contains(port)) continue;
    state.registry.remove(port);
    state.announce(events::Action::deleted, port);
    out.deleted.push_back(port);
    if (state.datadir) {
      if (auto failed = state.datadir->removed(port)) fail(errors_body({datadir_error(*failed)}));
    }
  }
  for (auto& want : wanted) {
    const auto live = want.config.port ? state.registry.find(*want.config.port) : nullptr;
    if (!live) {
      fail(create(state, std::move(want), out.created, events::Action::created));
      continue;
    }
    const int port = live->port();
    if (!same_settings(live->config(), want.config)) {
      state.registry.remove(port);
      fail(create(state, std::move(want), out.replaced, events::Action::replaced));
      continue;
    }
    if (live->enabled() != want.config.enabled) {
      live->set_enabled(want.config.enabled);
      state.announce(events::Action::enabled_changed, port);
      if (state.datadir) {
        if (auto failed = state.datadir->changed(*live)) {
          fail(errors_body({datadir_error(*failed)}));
        }
      }
    }
    if (live->config().stubs == want.config.stubs) continue;
    const std::vector<int> keep = continuations(live->config().stubs, want.config.stubs);
    if (auto error = publish_stubs(state, *live, std::move(want.config.stubs), keep)) {
      fail(errors_body({error->second}));
      continue;
    }
    out.stub_patched.push_back(port);
    state.announce(events::Action::stubs_changed, port);
  }
  if (out.failure) state.logger.error("error replacing imposters: " + out.failure->dump());
  return out;
}

}  // namespace rift::admin
