// `shellTransform` (docs/mountebank-semantics.md §6.2): the response is whatever a shell command
// prints, given the request and the current response as JSON in MB_REQUEST / MB_RESPONSE (and, for
// old scripts, as two single-quoted arguments unless the command line would reach 2048 characters).
//
// The command runs on a ShellRunner thread; the rest of the pipeline continues there once it
// exits. A non-zero exit or output that is not JSON fails the response with a 500.
//
// One deliberate difference from Mountebank: single quotes inside the JSON arguments are escaped
// for the shell ('\''), so a request body cannot end the quoting and run commands of its own.
// Scripts see the same argument text Mountebank would have given them when it had none.
#pragma once

#include <string>

#include "runtime/behaviors/step.h"

namespace rift::behaviors {

// The line /bin/sh runs: `command` plus the two quoted JSON arguments, or `command` alone when
// Mountebank's line (unescaped) would be 2048 UTF-16 code units or longer.
std::string shell_line(const std::string& command, const std::string& request_json,
                       const std::string& response_json);

class ShellTransformStep final : public Step {
 public:
  explicit ShellTransformStep(std::string command) : command_(std::move(command)) {}
  void apply(const StepContext& context, Flow flow, Next next) const override;

 private:
  std::string command_;
};

}  // namespace rift::behaviors
