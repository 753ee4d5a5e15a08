// Reads the stub files of a datadir written by Mountebank 2.9.1.
//
// Mountebank keeps each stub's responses out of imposter.json: the stub there is
// `{"predicates":[…],"meta":{"dir":"stubs/<id>"}}`, and `<port>/stubs/<id>/meta.json` lists the
// stub's response files (`responseFiles`, relative to that folder). Rift keeps responses
// inline (docs/datadir.md); this turns the first form into the second so such a datadir loads.
#pragma once

#include <filesystem>
#include <string>
#include <variant>

#include "compiler/ir.h"

namespace rift::mountebank_datadir {

// True when a stub of the imposter `document` names a stub folder instead of holding responses.
bool has_stub_folders(const ir::Json& document);

// `document` with each such stub's `meta` replaced by its `responses`, read from the files under
// `imposter_folder` (the `<datadir>/<port>` folder). An error names the missing or corrupt file.
std::variant<ir::Json, std::string> inline_stubs(const ir::Json& document,
                                                 const std::filesystem::path& imposter_folder);

}  // namespace rift::mountebank_datadir
