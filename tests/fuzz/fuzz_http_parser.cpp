// The bytes one client sends on one connection, through the connection's parser.
//
// The input arrives in reads whose sizes the input decides, and each parser result is handled
// as runtime/http/connection.cpp handles it (100 Continue, the next pipelined message after a
// reply, a CONNECT tunnelling to the same imposter, close on an error or Connection: close). Every
// complete message then gets the work the server does before matching: the request model built in
// place, as Imposter::handle builds it, and its journal JSON written into a reply, which fails
// loudly on text that is not valid UTF-8.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "compiler/request.h"
#include "runtime/http/message.h"
#include "runtime/http/parser.h"
#include "runtime/http/request_builder.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

using rift::http::RequestParser;

// Small limits, so that inputs of a few KiB reach the 413 and 431 answers as well.
rift::http::Limits fuzz_limits() {
  rift::http::Limits limits;
  limits.max_header_bytes = 2048;
  limits.max_body_bytes = 3072;
  return limits;
}

// Read sizes drawn from a hash of the input: one input always splits the same way, so a finding
// replays, while every mutation also tries other cuts (one byte at a time, a few, all at once).
class ReadSizes {
 public:
  explicit ReadSizes(std::string_view bytes) {
    for (unsigned char c : bytes) state_ = (state_ ^ c) * 0x100000001b3ULL;
    constexpr size_t kLargest[] = {1, 3, 16, 200, SIZE_MAX};
    largest_ = kLargest[next_random() % std::size(kLargest)];
  }
  size_t next(size_t left) {
    const size_t most = left < largest_ ? left : largest_;
    return 1 + static_cast<size_t>(next_random() % most);
  }

 private:
  uint64_t next_random() {  // xorshift64
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  uint64_t state_ = 0xcbf29ce484222325ULL;
  size_t largest_ = 1;
};

void answer(rift::http::Message& message, std::string& wire_out) {
  message.remote_address = "::ffff:127.0.0.1";
  message.remote_port = 50123;
  rift::http::build_request_into(message, message.request);
  const std::string journal = rift::to_json(message.request).dump();
  rift::http::Reply reply;
  reply.bytes = "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(journal.size()) + "\r\n\r\n";
  reply.lent[0] = journal;
  wire_out.clear();
  reply.append_to(wire_out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const rift::http::Limits limits = fuzz_limits();
  const std::string_view wire = rift::fuzz::as_text(data, size);
  RequestParser parser(limits);
  ReadSizes sizes(wire);
  std::string wire_out;
  size_t read_end = 0;
  while (read_end < wire.size()) {
    const size_t begin = read_end;
    read_end += sizes.next(wire.size() - begin);
    std::string_view unparsed = wire.substr(begin, read_end - begin);
    while (!unparsed.empty()) {
      const auto [status, consumed] = parser.feed(unparsed.data(), unparsed.size());
      if (consumed > unparsed.size()) rift::fuzz::contract_broken("parser consumed unread bytes");
      unparsed.remove_prefix(consumed);
      switch (status) {
        case RequestParser::Status::need_more:
          if (!unparsed.empty()) rift::fuzz::contract_broken("need_more left bytes unparsed");
          break;
        case RequestParser::Status::expect_continue:
          wire_out = "HTTP/1.1 100 Continue\r\n\r\n";
          parser.next();
          break;
        case RequestParser::Status::message:
          if (parser.message().method == "CONNECT") {
            // A plain imposter tunnels to itself: what follows is a fresh stream of requests.
            parser.restart();
            wire_out = "HTTP/1.1 200 Connection established\r\n\r\n";
            break;
          }
          answer(parser.message(), wire_out);
          if (!parser.keep_alive() || parser.upgrade()) return 0;  // closed after the reply
          parser.next();
          break;
        case RequestParser::Status::error:
          if (parser.error_status() < 400 || parser.error_status() > 599) {
            rift::fuzz::contract_broken("parser error status outside 4xx/5xx");
          }
          return 0;  // the connection answers the error and closes
      }
    }
  }
  return 0;
}
