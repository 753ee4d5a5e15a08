// The typed IR every frontend produces and every later stage consumes.
//
// Expected values inside predicates stay JSON trees (Mountebank's semantics are defined over
// JavaScript values: objects, arrays, strings, numbers, booleans, null), but everything that
// decides *how* they are compared (operator, modifiers, selectors) is typed. `source` fields keep
// the stub or response exactly as the user wrote it, because the admin API echoes stubs as stored.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rift::ir {

// Key order matters for echoing configs back, so the IR uses the insertion-ordered flavour.
using Json = nlohmann::ordered_json;

enum class Op {
  kEquals,
  kDeepEquals,
  kContains,
  kStartsWith,
  kEndsWith,
  kMatches,
  kExists,
  kNot,
  kOr,
  kAnd,
  kInject,
  // Rift's scenario gate (docs/scenarios.md), never written by users as a predicate: the stub
  // parser puts it first in a stub with `requiredScenarioState`, with `fields`
  // {"scenarioName": <name>, "requiredScenarioState": <state>}. It holds when the request's flow
  // is in that state, so the tree dispatches on it like on any other value.
  kScenario,
};

const char* op_name(Op op);
std::optional<Op> op_from_name(const std::string& name);

struct XPathSelector {
  std::string selector;
  std::map<std::string, std::string> ns;  // prefix -> namespace URI
  bool operator==(const XPathSelector&) const = default;
};

struct Predicate {
  Op op = Op::kEquals;
  // For the field operators (equals .. exists): the expected request fields, e.g.
  // {"path": "/x", "query": {"a": "1"}}. Empty for not/or/and/inject.
  Json fields = Json::object();
  bool case_sensitive = false;
  std::string except;  // ECMAScript regex source; empty means none
  std::optional<std::string> jsonpath;
  std::optional<XPathSelector> xpath;
  std::vector<Predicate> children;  // not: exactly one; or/and: any number
  std::string inject;               // JavaScript source for op == kInject
  bool operator==(const Predicate&) const = default;
};

enum class BehaviorKind { kWait, kCopy, kLookup, kDecorate, kShellTransform };

struct Behavior {
  BehaviorKind kind = BehaviorKind::kWait;
  Json config;  // the value under the behavior's key, e.g. 500 for {"wait": 500}
  bool operator==(const Behavior&) const = default;
};

enum class ResponseKind { kIs, kProxy, kInject, kFault, kScript };

// `_rift.fault` on a response (docs/faults.md#probabilistic-faults): what may go wrong around it,
// each part with its own probability, rolled per request in the order latency, tcp, error.
enum class TcpFaultKind { kReset, kEmpty, kRandomData, kMalformedChunk };

struct LatencyFault {
  double probability = 1;
  int min_ms = 0;  // `ms` sets both
  int max_ms = 0;
  bool operator==(const LatencyFault&) const = default;
};

struct ErrorFault {
  double probability = 1;
  int status = 503;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  bool operator==(const ErrorFault&) const = default;
};

struct TcpFault {
  double probability = 1;
  TcpFaultKind kind = TcpFaultKind::kReset;
  std::string name;  // as given (`reset`, `CONNECTION_RESET_BY_PEER` ...): the x-rift-fault marker
  bool operator==(const TcpFault&) const = default;
};

struct ResponseFault {
  std::optional<LatencyFault> latency;
  std::optional<TcpFault> tcp;
  std::optional<ErrorFault> error;
  bool operator==(const ResponseFault&) const = default;
};

struct Response {
  ResponseKind kind = ResponseKind::kIs;
  // kIs: the `is` object (statusCode, headers, body, _mode ...), possibly empty.
  // kProxy: the `proxy` object. kInject: the function source as a JSON string.
  // kFault: the fault name as a JSON string. kScript: `_rift.script` resolved,
  // {"engine": "javascript", "code": "..."} (docs/scripts.md).
  Json value = Json::object();
  int repeat = 1;
  std::vector<Behavior> behaviors;
  std::optional<ResponseFault> fault;  // `_rift.fault`
  // `_rift.templated: true` (docs/templates.md): `{{ }}` functions in the body and headers.
  bool templated = false;
  bool operator==(const Response&) const = default;
};

struct Stub {
  std::vector<Predicate> predicates;
  std::vector<Response> responses;
  // The space the stub belongs to (docs/spaces.md): only requests whose flow id equals it, byte
  // for byte, can match the stub. Unset: a global stub, seen by every request.
  std::optional<std::string> space;
  // Scenarios (docs/scenarios.md): the state machine the stub belongs to ("" when only a state is
  // given), the state its flow must be in (also the gate predicate above), the state it moves
  // the flow to when it answers.
  std::optional<std::string> scenario_name;
  std::optional<std::string> required_scenario_state;
  std::optional<std::string> new_scenario_state;
  // The stub's `id` (docs/stub-ids.md): what the by-id admin routes name it by; unique in its
  // imposter. Unset: none.
  std::optional<std::string> id;
  // `routePattern` (docs/route-patterns.md): `/users/:id` names the path segments a request's
  // `pathParams` take. It does not take part in matching.
  std::optional<std::string> route_pattern;
  // The stub as it is echoed by the admin API: the user's JSON with legacy `_behaviors`
  // converted to `behaviors` + `repeat`. Not consulted when serving requests.
  Json source = Json::object();
  bool operator==(const Stub&) const = default;
};

struct TlsOptions {
  std::optional<std::string> key;
  std::optional<std::string> cert;
  bool mutual_auth = false;
  // Only a boolean true rejects clients (Mountebank hands the value to Node as given).
  bool reject_unauthorized = false;
  std::optional<std::vector<std::string>> ca;
  // What the admin API echoes: Mountebank keeps these two as given (`"ca": "<pem>"` stays a
  // string, `"rejectUnauthorized": "yes"` stays "yes").
  Json reject_unauthorized_echo = false;
  Json ca_echo = nullptr;
  std::optional<std::string> ciphers;  // stored upper-cased
  bool operator==(const TlsOptions&) const = default;
};

// Where a request's flow id comes from (`_rift.flowState.flowIdSource`, docs/spaces.md): the
// first value of a header (its name compared ignoring case), or, without one, the imposter's
// port in decimal.
struct FlowIdSource {
  std::optional<std::string> header;  // unset: always the port
  bool operator==(const FlowIdSource&) const = default;
};

// Everything an imposter is but its stubs. A stub edit keeps these and replaces the stubs
// (settings_of() in runtime/imposter/imposter.cpp copies this base whole), so a new field of an
// imposter belongs here; imposter_publish_test.cpp then asks for it to be set.
struct ImposterSettings {
  std::string protocol;     // "http", "https", "tcp" or "smtp"
  std::optional<int> port;  // unset: chosen by the OS at bind time
  std::optional<std::string> name;
  bool record_requests = false;
  std::optional<Json> default_response;  // an `is`-shaped object
  bool allow_cors = false;
  std::optional<std::string> host;  // bind address (undocumented Mountebank field)
  TlsOptions tls;
  // tcp (docs/tcp.md): "text" or "binary" (data in base64); empty for other protocols.
  std::string mode;
  // tcp: `endOfRequestResolver` as given, echoed; its `inject` function decides where a request
  // ends when it spans packets.
  std::optional<Json> end_of_request_resolver;
  FlowIdSource flow_id_source;
  // The imposter's `_rift` block as given (reference Rift extensions), echoed by the admin API.
  std::optional<Json> rift;
  // `enabled: false`: created disabled (docs/stub-ids.md#enable-and-disable); the admin API
  // toggles the running imposter's own flag afterwards.
  bool enabled = true;
  // `defaultForward` (docs/default-forward.md): the origin a request no stub matches is
  // forwarded to, before any defaultResponse.
  std::optional<std::string> default_forward;
  // `strictBehaviors`: kept and echoed; Rift's behaviors already fail as Mountebank's do.
  std::optional<bool> strict_behaviors;
  // `serviceName` / `serviceInfo` (or their snake_case spellings): free metadata, echoed.
  std::optional<Json> service_name;
  std::optional<Json> service_info;
  bool operator==(const ImposterSettings&) const = default;
};

struct Imposter : ImposterSettings {
  std::vector<Stub> stubs;
  bool operator==(const Imposter&) const = default;
};

}  // namespace rift::ir
