#include "runtime/imposter/templated_wire.h"

#include <charconv>

namespace rift {
namespace {

// Stands for the body while the head is rendered; no stub writes it.
constexpr std::string_view kBodyMark = "\x01rift-templated-body\x01";
constexpr std::string_view kLastChunk = "0\r\n\r\n";

std::string chunk_size(size_t size) {
  char text[20];
  auto [end, error] = std::to_chars(text, text + sizeof(text), size, 16);
  (void)error;
  return std::string(text, end);
}

}  // namespace

std::optional<TemplatedWire> TemplatedWire::prepare(const ir::Json& is,
                                                    const std::optional<ir::Json>& defaults,
                                                    const WireContext& common) {
  ir::Json marked = is;
  marked["body"] = std::string(kBodyMark);
  auto rendered = render_response(marked, defaults, common);
  auto* wire = std::get_if<WireResponse>(&rendered);
  if (wire == nullptr) return std::nullopt;
  // Chunked framing is what renders a string body without a Content-Length: the mark must
  // stand as the one chunk before the last, and nowhere else.
  const std::string framed = chunk_size(kBodyMark.size()) + "\r\n" + std::string(kBodyMark) +
                             "\r\n" + std::string(kLastChunk);
  const std::string& tail = wire->after_date;
  if (tail.size() < framed.size() ||
      tail.compare(tail.size() - framed.size(), framed.size(), framed) != 0 ||
      wire->before_date.find(kBodyMark) != std::string::npos) {
    return std::nullopt;
  }
  TemplatedWire out;
  out.before_date_ = wire->before_date;
  out.after_date_ = tail.substr(0, tail.size() - framed.size());
  if (out.after_date_.find(kBodyMark) != std::string::npos) return std::nullopt;
  out.add_date_ = wire->add_date;
  out.close_ = wire->close;
  return out;
}

http::Reply TemplatedWire::reply(std::string_view body) const {
  http::Reply reply;
  std::string& out = reply.bytes;
  out.reserve(before_date_.size() + after_date_.size() + body.size() + 64);
  out.append(before_date_);
  if (add_date_) out.append(http_date_line_now());
  out.append(after_date_);
  if (!body.empty()) out.append(chunk_size(body.size())).append("\r\n").append(body).append("\r\n");
  out.append(kLastChunk);
  reply.close = close_;
  return reply;
}

}  // namespace rift
