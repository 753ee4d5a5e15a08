// The header and body decoding mailparser does through libmime and libqp, ported rule for rule:
// an smtp imposter's journal shows subjects, names, file names and text exactly as Mountebank's,
// odd inputs included (GMime's own decoders differ in the corners: see docs/smtp.md).
//
// Strings are UTF-8 unless a name says "bytes". Where a JavaScript original works on a "binary"
// string (one character per byte), the bytes are passed as they are.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rift::smtp {

// libmime's charset.normalizeCharset: "latin1" -> "windows-1252", "utf8" -> "UTF-8", ...
std::string normalize_charset(std::string_view charset);

// libmime's charset.decode, for encoded words: bytes in `charset` as UTF-8; a charset that cannot
// be converted is read as UTF-8 (invalid sequences become U+FFFD).
std::string decode_charset(std::string_view bytes, std::string_view charset);

// mailparser's reading of a text part in `charset` (its Content-Type parameter, absent: utf-8):
// ascii and utf-8 are read as UTF-8, anything else through iconv, unknown charsets as UTF-8.
std::string decode_text_charset(std::string_view bytes, std::string_view charset);

// libmime's decodeWords: RFC 2047 encoded words decoded, adjacent ones in one charset joined
// first, whitespace between encoded words dropped.
std::string decode_words(std::string_view text);

// libmime's decodeHeader on one raw header line (folded, bytes): the lower-cased name and the
// unfolded, trimmed value (bytes; JavaScript trims U+00A0, so byte 0xA0, too).
struct HeaderLine {
  std::string key;
  std::string value;
};
HeaderLine decode_header(std::string_view line);

// libmime's parseHeaderValue: `value; key=value; ...` with quotes, escapes and RFC 2231
// continuations and charsets. Parameter names are lower-cased.
struct HeaderValue {
  std::string value;
  std::vector<std::pair<std::string, std::string>> params;
  // The parameter's value, or nullptr.
  const std::string* param(std::string_view key) const;
};
HeaderValue parse_header_value(std::string_view text);

// libmime's decodeFlowed (RFC 3676 format=flowed): soft line breaks joined, stuffing removed.
std::string decode_flowed(std::string_view bytes, bool del_sp);

// libqp's Decoder as mailsplit runs it on a quoted-printable body: bytes read as 7-bit ASCII,
// trailing spaces and tabs of each line dropped, soft breaks removed, =XX decoded (an '=' that
// starts no pair is kept).
std::string quoted_printable_decode(std::string_view bytes);

}  // namespace rift::smtp
