// Refuses, at creation, what this build cannot serve yet (HTTPS, proxies, JavaScript and shell
// execution, copy/lookup behaviors), with Mountebank's error JSON. A stub that is accepted is a
// stub that is served faithfully: never a silent 200 in place of a feature.
#pragma once

#include "compiler/errors.h"
#include "compiler/ir.h"

namespace rift {

MbErrors unsupported_features(const ir::Stub& stub);
MbErrors unsupported_features(const ir::Imposter& imposter);

}  // namespace rift
