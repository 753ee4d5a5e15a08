#include "runtime/http/decompress.h"

#include <zlib.h>

#include <memory>

#ifdef RIFT_HAVE_BROTLI
#include <brotli/decode.h>
#endif

namespace rift::http {
namespace {

constexpr size_t kChunk = 64 * 1024;

struct InflateEnd {
  void operator()(z_stream* stream) const { inflateEnd(stream); }
};

}  // namespace

std::optional<std::string> gunzip(std::string_view compressed) {
  z_stream stream{};
  // 16 + MAX_WBITS: gzip wrapper only, as Node's zlib.gunzip.
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) return std::nullopt;
  const std::unique_ptr<z_stream, InflateEnd> guard(&stream);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  for (;;) {
    const size_t used = out.size();
    if (used + kChunk > kMaxDecompressedBytes) return std::nullopt;
    out.resize(used + kChunk);
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    stream.avail_out = static_cast<uInt>(kChunk);
    const int status = inflate(&stream, Z_NO_FLUSH);
    out.resize(used + kChunk - stream.avail_out);
    if (status == Z_STREAM_END) {
      // Node continues into a following gzip member and ignores anything else after the end.
      if (stream.avail_in >= 2 && stream.next_in[0] == 0x1f && stream.next_in[1] == 0x8b) {
        if (inflateReset(&stream) != Z_OK) return std::nullopt;
        continue;
      }
      return out;
    }
    if (status != Z_OK) return std::nullopt;  // includes Z_BUF_ERROR: input ended mid-stream
  }
}

std::optional<std::string> brotli_decode(std::string_view compressed) {
#ifdef RIFT_HAVE_BROTLI
  const std::unique_ptr<BrotliDecoderState, decltype(&BrotliDecoderDestroyInstance)> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), &BrotliDecoderDestroyInstance);
  if (!state) return std::nullopt;
  const auto* next_in = reinterpret_cast<const uint8_t*>(compressed.data());
  size_t available_in = compressed.size();
  std::string out;
  for (;;) {
    const size_t used = out.size();
    if (used + kChunk > kMaxDecompressedBytes) return std::nullopt;
    out.resize(used + kChunk);
    auto* next_out = reinterpret_cast<uint8_t*>(out.data() + used);
    size_t available_out = kChunk;
    const BrotliDecoderResult result = BrotliDecoderDecompressStream(
        state.get(), &available_in, &next_in, &available_out, &next_out, nullptr);
    out.resize(used + kChunk - available_out);
    if (result == BROTLI_DECODER_RESULT_SUCCESS) return out;
    if (result != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) return std::nullopt;
  }
#else
  (void)compressed;
  return std::nullopt;
#endif
}

}  // namespace rift::http
