// The riftc subcommands. Each takes the arguments after its name and returns the exit status;
// riftc_main.cpp dispatches to them.
#pragma once

#include <string>
#include <vector>

// riftc inspect CONFIG [--imposter PORT] [--format text|dot|json]  (tools/riftc_inspect.cpp)
int riftc_inspect(const std::vector<std::string>& args);

// riftc explain CONFIG --request 'METHOD /path?q' [-H 'K: V'] [-d BODY]  (tools/riftc_explain.cpp)
int riftc_explain(const std::vector<std::string>& args);

// riftc compile CONFIG -o BIN [--emit-cpp DIR]  (tools/riftc_compile.cpp)
int riftc_compile(const std::vector<std::string>& args);

// riftc serve [rift start options]: the server with the JIT required  (tools/riftc_serve.cpp)
int riftc_serve(const std::vector<std::string>& args);
