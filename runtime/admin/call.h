// One admin call, whoever makes it: the HTTP listener turns a request into an AdminRequest, an
// in-process embedding builds one directly, and both get the same AdminReply from the route
// table (runtime/admin/routes.h). Handlers read the Call and answer through it, exactly once.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/errors.h"
#include "compiler/ir.h"
#include "compiler/request.h"

namespace rift {

class Imposter;

struct AdminRequest {
  std::string method;  // upper case
  std::string target;  // path and query, e.g. "/imposters/4545?replayable=true"
  std::string body;
  KeyValues headers;  // names as sent; may be empty
};

struct AdminReply {
  int status = 500;
  std::string content_type;  // empty: no Content-Type
  std::string body;
  KeyValues headers;  // --origin's CORS headers first, then the route's own (Location, ...)
};

// Mountebank's error document, {"errors": [...]}.
ir::Json errors_body(const MbErrors& errors);

// The status of refused input: 409 when it conflicts with itself (two stubs with one id,
// docs/stub-ids.md), else 400.
int refusal_status(const MbErrors& errors);

class Call {
 public:
  explicit Call(const AdminRequest& request);

  const AdminRequest& request() const { return request_; }
  const std::string& method() const { return request_.method; }
  const std::string& path() const { return path_; }
  std::optional<std::string_view> header(std::string_view name) const;
  // The first value of a query parameter (Express keeps the first of repeated keys for these).
  std::optional<std::string_view> query(std::string_view name) const;
  // Every value of a query parameter, in order (?match=a&match=b).
  std::vector<std::string_view> queries(std::string_view name) const;
  // The query as sent, after '?' ("" without one), for parameters read the reference Rift's way.
  std::string_view raw_query() const;
  // ?name=true (any case); flag_not_false: absent or anything but "false".
  bool flag(std::string_view name) const;
  bool flag_not_false(std::string_view name) const;

  // Set while routing: the body as JSON ({} when empty), "http://<Host>" for _links, the
  // :parameters of the matched route, the imposter a route on /imposters/:id names.
  ir::Json body = ir::Json::object();
  std::string base_url;
  std::optional<int> port;  // :id, when it is a number
  std::string stub_index;   // :stubIndex
  std::string space;        // :space, as it appears in the path (percent-escapes kept)
  std::string flow;         // :flow, likewise
  std::string key;          // :key, likewise
  std::string name;         // :name, likewise
  std::string stub_id;      // :stubId, likewise
  Imposter* imposter = nullptr;

  void send(int status, const ir::Json& json, KeyValues headers = {});
  void send_json_text(int status, std::string text, KeyValues headers = {});
  void send_raw(int status, std::string content_type, std::string body, KeyValues headers = {});
  void fail(int status, const MbErrors& errors) { send(status, errors_body(errors)); }
  // Express's response.format(): JSON for no Accept, */* or JSON; HTML clients get JSON too
  // (Rift has no web UI); anything else gets 406 here and false.
  bool negotiate();
  void add_cors_header(std::string name, std::string value);

  bool answered() const { return answered_; }
  int status() const { return reply_.status; }
  AdminReply take_reply() { return std::move(reply_); }

 private:
  const AdminRequest& request_;
  std::string path_;
  KeyValues query_;
  KeyValues cors_;
  AdminReply reply_;
  bool answered_ = false;
};

}  // namespace rift
