#include "runtime/http/parser.h"

#include <llhttp.h>
#include <strings.h>

#include <string_view>

namespace rift::http {
namespace {

// Header lines cost their bytes plus ": " and CRLF; counting that keeps the limit honest for
// requests made of many tiny headers.
constexpr size_t kHeaderLineOverhead = 4;

// What a message's body buffer may keep between the messages of one connection.
constexpr size_t kKeptBodyBytes = 64 * 1024;

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

llhttp_settings_t make_settings() {
  llhttp_settings_t settings;
  llhttp_settings_init(&settings);
  return settings;
}

}  // namespace

struct ParserCallbacks {
  static RequestParser& self(llhttp_t* parser) {
    return *static_cast<RequestParser*>(parser->data);
  }
  static int on_message_begin(llhttp_t* parser);
  static int on_url(llhttp_t* parser, const char* at, size_t length);
  static int on_header_field(llhttp_t* parser, const char* at, size_t length);
  static int on_header_value(llhttp_t* parser, const char* at, size_t length);
  static int on_header_value_complete(llhttp_t* parser);
  static int on_headers_complete(llhttp_t* parser);
  static int on_body(llhttp_t* parser, const char* at, size_t length);
  static int on_chunk_header(llhttp_t* parser);
  static int on_message_complete(llhttp_t* parser);
};

namespace {

// llhttp keeps a pointer to its settings for the parser's lifetime; one immutable table serves all.
const llhttp_settings_t kSettings = [] {
  llhttp_settings_t settings = make_settings();
  settings.on_message_begin = &ParserCallbacks::on_message_begin;
  settings.on_url = &ParserCallbacks::on_url;
  settings.on_header_field = &ParserCallbacks::on_header_field;
  settings.on_header_value = &ParserCallbacks::on_header_value;
  settings.on_header_value_complete = &ParserCallbacks::on_header_value_complete;
  settings.on_headers_complete = &ParserCallbacks::on_headers_complete;
  settings.on_body = &ParserCallbacks::on_body;
  settings.on_chunk_header = &ParserCallbacks::on_chunk_header;
  settings.on_message_complete = &ParserCallbacks::on_message_complete;
  return settings;
}();

}  // namespace

RequestParser::RequestParser(const Limits& limits)
    : parser_(std::make_unique<llhttp_t>()), limits_(limits) {
  llhttp_init(parser_.get(), HTTP_REQUEST, &kSettings);
  parser_->data = this;
}

RequestParser::~RequestParser() = default;

RequestParser::Result RequestParser::feed(const char* data, size_t size) {
  const llhttp_errno_t error = llhttp_execute(parser_.get(), data, size);
  if (error == HPE_OK) return {Status::need_more, size};
  if (error == HPE_PAUSED) {
    const size_t consumed = static_cast<size_t>(llhttp_get_error_pos(parser_.get()) - data);
    if (complete_) return {Status::message, consumed};
    if (wants_continue_) return {Status::expect_continue, consumed};
  }
  return {Status::error, 0};
}

void RequestParser::next() {
  complete_ = false;
  wants_continue_ = false;
  llhttp_resume(parser_.get());
}

void RequestParser::restart() {
  llhttp_reset(parser_.get());
  complete_ = false;
  wants_continue_ = false;
  in_message_ = false;
  headers_done_ = false;
  upgrade_ = false;
  keep_alive_ = true;
}

int RequestParser::fail(int status) {
  error_status_ = status;
  return -1;
}

bool RequestParser::over_header_limit(size_t more) {
  header_bytes_ += more;
  return header_bytes_ > limits_.max_header_bytes;
}

int ParserCallbacks::on_message_begin(llhttp_t* parser) {
  RequestParser& me = self(parser);
  // Moved-from strings are valid but unspecified; clear() makes them empty without freeing
  // whatever capacity they still have.
  me.message_.method.clear();
  me.message_.target.clear();
  me.header_count_ = 0;
  me.headers_done_ = false;
  me.message_.body.clear();
  // A large body's buffer is not kept for the connection's lifetime (up to max_body_bytes).
  if (me.message_.body.capacity() > kKeptBodyBytes) std::string().swap(me.message_.body);
  me.field_.clear();
  me.value_.clear();
  me.header_bytes_ = 0;
  me.in_message_ = true;
  return 0;
}

int ParserCallbacks::on_url(llhttp_t* parser, const char* at, size_t length) {
  RequestParser& me = self(parser);
  if (me.over_header_limit(length)) return me.fail(431);
  me.message_.target.append(at, length);
  return 0;
}

int ParserCallbacks::on_header_field(llhttp_t* parser, const char* at, size_t length) {
  RequestParser& me = self(parser);
  if (me.over_header_limit(length)) return me.fail(431);
  me.field_.append(at, length);
  return 0;
}

int ParserCallbacks::on_header_value(llhttp_t* parser, const char* at, size_t length) {
  RequestParser& me = self(parser);
  if (me.over_header_limit(length)) return me.fail(431);
  me.value_.append(at, length);
  return 0;
}

int ParserCallbacks::on_header_value_complete(llhttp_t* parser) {
  RequestParser& me = self(parser);
  if (me.over_header_limit(kHeaderLineOverhead)) return me.fail(431);
  if (me.headers_done_) {  // a chunked body's trailer: Node keeps it apart, Mountebank ignores it
    me.field_.clear();
    me.value_.clear();
    return 0;
  }
  // Node (so Mountebank) drops the spaces and tabs that end a value: `Authorization: Bearer `
  // is `Bearer`; llhttp hands them over.
  while (!me.value_.empty() && (me.value_.back() == ' ' || me.value_.back() == '\t')) {
    me.value_.pop_back();
  }
  auto& [name, value] = rift::reuse_slot(me.message_.headers, me.header_count_++);
  name.swap(me.field_);
  value.swap(me.value_);
  me.field_.clear();
  me.value_.clear();
  return 0;
}

int ParserCallbacks::on_headers_complete(llhttp_t* parser) {
  RequestParser& me = self(parser);
  Message& message = me.message_;
  me.headers_done_ = true;
  message.headers.resize(me.header_count_);
  message.method = llhttp_method_name(static_cast<llhttp_method_t>(parser->method));
  message.version_major = parser->http_major;
  message.version_minor = parser->http_minor;

  const bool has_length = (parser->flags & F_CONTENT_LENGTH) != 0;
  const bool chunked = (parser->flags & F_CHUNKED) != 0;
  if (has_length && parser->content_length > me.limits_.max_body_bytes) return me.fail(413);
  if (has_length) message.body.reserve(static_cast<size_t>(parser->content_length));

  const bool expects_body = chunked || (has_length && parser->content_length > 0);
  if (expects_body && (parser->http_major > 1 || parser->http_minor >= 1)) {
    for (const auto& [name, value] : message.headers) {
      if (equals_ignoring_case(name, "expect") && equals_ignoring_case(value, "100-continue")) {
        me.wants_continue_ = true;
        return HPE_PAUSED;
      }
    }
  }
  return 0;
}

int ParserCallbacks::on_body(llhttp_t* parser, const char* at, size_t length) {
  RequestParser& me = self(parser);
  if (me.message_.body.size() + length > me.limits_.max_body_bytes) return me.fail(413);
  me.message_.body.append(at, length);
  return 0;
}

// A chunk declaring more than the body may still hold is refused before its data arrives, so a
// client cannot hold the connection open by announcing a huge chunk and sending nothing.
int ParserCallbacks::on_chunk_header(llhttp_t* parser) {
  RequestParser& me = self(parser);
  const size_t room = me.limits_.max_body_bytes - me.message_.body.size();
  if (parser->content_length > room) return me.fail(413);
  return 0;
}

int ParserCallbacks::on_message_complete(llhttp_t* parser) {
  RequestParser& me = self(parser);
  me.keep_alive_ = llhttp_should_keep_alive(parser) != 0;
  me.upgrade_ = parser->upgrade != 0;
  me.complete_ = true;
  me.in_message_ = false;
  return HPE_PAUSED;
}

}  // namespace rift::http
