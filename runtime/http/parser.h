// Incremental HTTP/1.x request framing on top of llhttp, one message at a time.
//
// The parser stops after every complete message so that the connection can answer it before the
// next pipelined request is even looked at: responses then come out in request order for free.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "runtime/http/message.h"

// llhttp stays an implementation detail: its headers are not visible to users of rift_http.
struct llhttp__internal_s;

namespace rift::http {

struct ParserCallbacks;

class RequestParser {
 public:
  enum class Status {
    need_more,        // every byte consumed, message not complete yet
    expect_continue,  // headers done and the client waits for "100 Continue" before the body
    message,          // a complete message is ready in message()
    error,            // malformed or over a limit; answer error_status() and close
  };
  struct Result {
    Status status;
    size_t consumed;
  };

  explicit RequestParser(const Limits& limits);
  ~RequestParser();
  RequestParser(const RequestParser&) = delete;
  RequestParser& operator=(const RequestParser&) = delete;

  Result feed(const char* data, size_t size);
  // Call after taking message() (or after expect_continue) to let parsing go on.
  void next();
  // After a CONNECT: the bytes that follow start a new stream of requests, not this one's tail.
  void restart();

  Message& message() { return message_; }
  bool keep_alive() const { return keep_alive_; }
  bool upgrade() const { return upgrade_; }
  int error_status() const { return error_status_; }
  bool in_message() const { return in_message_; }
  // The current message's headers are complete (its body may still be arriving).
  bool headers_done() const { return headers_done_; }

 private:
  friend struct ParserCallbacks;

  int fail(int status);
  bool over_header_limit(size_t more);

  std::unique_ptr<llhttp__internal_s> parser_;
  Limits limits_;
  Message message_;
  std::string field_;
  std::string value_;
  size_t header_bytes_ = 0;
  // Headers of the message so far; message_.headers keeps earlier messages' pairs beyond it, so
  // their strings are reused, and is trimmed to this count once the headers are complete.
  size_t header_count_ = 0;
  int error_status_ = 400;
  bool keep_alive_ = true;
  bool upgrade_ = false;
  bool in_message_ = false;
  bool headers_done_ = false;
  bool wants_continue_ = false;
  bool complete_ = false;
};

}  // namespace rift::http
