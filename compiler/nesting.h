// The one bound on how deeply user input may nest (docs/limits.md, "Nesting depth").
//
// Parsers, converters and walkers over request bodies, admin bodies, predicates, YAML, script
// results and rendered responses recurse once per level of nesting; an unbounded text such as a
// megabyte of `[` would overflow a worker's stack and kill the process. Every entry point that
// turns user text into a tree refuses texts deeper than kMaxDepth, so that everything downstream
// (nlohmann's copy, dump and operator==, js::stringify, the predicate walks of the planner,
// interpreter and code generator) recurses at most kMaxDepth levels.
//
// Why 512: tests/unit/compiler/nesting_test.cpp runs the deepest walks at the limit on a thread
// with a 512 KiB stack (a sixteenth of the 8 MiB a worker thread gets from glibc's default), so
// the limit leaves at least that margin. Mountebank documents no limit of its own; V8's JSON.parse
// is iterative, and real payloads rarely nest past a few dozen levels.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rift::nesting {

// Levels of arrays and objects (JSON), sequences and mappings (YAML) or nested predicates
// accepted; one more is refused. A container counts once it holds a value: `[1]` is one level,
// `[[1]]` two, and an empty innermost `[]` or `{}` adds none (simdjson's rule, which the scan
// below follows so that every JSON path draws the line at the same text).
inline constexpr std::size_t kMaxDepth = 512;

// "nesting deeper than 512 levels": what an admin error or a log line says.
std::string limit_message();

// Whether a JSON text's arrays and objects nest deeper than `limit`. A linear scan that skips
// string literals (escapes included); exact for valid JSON, an upper bound's witness for any text.
bool json_exceeds(std::string_view text, std::size_t limit = kMaxDepth);

}  // namespace rift::nesting
