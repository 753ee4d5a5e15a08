// Renders imposters the three ways the admin API shows them (docs/mountebank-semantics.md §1.5):
// list, full, replayable.
#pragma once

#include <string>

#include "compiler/ir.h"
#include "runtime/imposter/imposter.h"

namespace rift {

enum class ImposterForm { kList, kFull, kReplayable };

struct RenderOptions {
  ImposterForm form = ImposterForm::kFull;
  bool remove_proxies = false;
  bool debug = false;    // --debug: show each stub's matches
  std::string base_url;  // "http://<Host>", prefixed to every _links href
};

ir::Json render_imposter(const Imposter& imposter, const RenderOptions& options);

// render_imposter(...).dump(2), printed from each stub's cached text where it can be (the full
// form without --debug): what every admin answer carrying one imposter sends.
std::string render_imposter_text(const Imposter& imposter, const RenderOptions& options);

}  // namespace rift
