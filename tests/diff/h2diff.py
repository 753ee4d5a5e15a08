"""The differential corpora over HTTP/2: `run.py --http2 MODE` (tests/diff and tests/rift-diff).

Python 3 standard library only, plus curl (h2client.py). Every imposter request of a case is sent
through h2client in the chosen mode; admin steps, and imposter steps addressed to the admin port
(the admin API, which stays HTTP/1.1), are sent as HTTP/1.1 bytes as usual. The records are judged
against the same committed expectations, after normalize() on both sides.

Modes, per step: an https imposter step always uses `h2` (TLS ALPN); an http one uses the mode's
cleartext form, `h2c` (prior knowledge) or `h2c-upgrade` (`Upgrade: h2c` from HTTP/1.1), and
`--http2 h2` sends it with prior knowledge (`h2c`).

TCP faults: an imposter that has a TCP fault (Mountebank's `fault` CONNECTION_RESET_BY_PEER or
RANDOM_DATA_THEN_CLOSE, or a `_rift.fault.tcp`, whatever its probability) is HTTP/1 only (the
server's contract). Its `raw` steps are sent as HTTP/1.1 bytes, as in the HTTP/1 run; each of its
other requests is first sent over HTTP/2, which must be refused (prior knowledge: no HTTP/2 answer)
or fall back (an upgrade the server ignores, http/1.1 chosen in ALPN) -- an answer over HTTP/2
fails the case -- and is recorded from the HTTP/1.1 answer (the fallback's own answer, or the
request sent again as HTTP/1.1 bytes after a refused prior-knowledge attempt).

Cases that cannot mean the same over HTTP/2 are skipped with a reason (skip_reason): the runner
prints each and a count per reason. The reasons (SKIP_* below): a `tcp`, `smtp` or `smtp_raw` step
(another protocol than HTTP); a `wire` step (hand-written HTTP/1 bytes); an HTTP/1.0 request; Expect: 100-continue; a request header that only an HTTP/1
connection means (Connection, Keep-Alive, Transfer-Encoding, Upgrade, Proxy-Connection, TE); a
`raw` step on an imposter without a TCP fault (its answer is recorded as HTTP/1 bytes); an
imposter gaining or losing its TCP fault mid-case; and, when some request reaches the server with
lower-cased names (prior knowledge, ALPN), an expectation that shows a request's header names in
their HTTP/1 spelling in the journal (saved requests, verify answers, proxy-generated predicates:
Mountebank records names as they came on the wire), or a caseSensitive predicate on a header name
with upper-case letters; an expected response header value with leading or trailing white space
(RFC 9113 8.2.1 forbids it); with h2c-upgrade, an HTTP/1-only imposter's fallback request (which
carries the Upgrade headers) copied into the expectation. Framing headers in expectations are not
a reason: normalize() drops them, and the body and the other headers are still compared.
"""

import copy
import http.client
import json
import os
import re
import ssl
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import diffcore  # noqa: E402
import h2client  # noqa: E402

MODES = h2client.MODES

MODE_HELP = """--http2 MODE sends every imposter request over HTTP/2 with curl (tests/diff/h2client.py)
and judges the answers against the same expected/ after an HTTP/2 normalization of both sides
(header names compared case-insensitively; connection, keep-alive, transfer-encoding, upgrade,
proxy-connection and content-length dropped: HTTP/2 forbids them or frames the body itself).
MODE is h2c (prior knowledge), h2c-upgrade (Upgrade: h2c from HTTP/1.1) or h2 (TLS ALPN). https
imposters are always reached with h2 (ALPN); http ones with the cleartext mode, and --http2 h2
sends them with h2c prior knowledge. Admin steps (and requests to the admin port) stay HTTP/1.1.
An answer that falls back to HTTP/1.1 fails its case. An imposter with a TCP fault must stay on
HTTP/1 (its requests must be refused HTTP/2 or fall back; raw steps are sent as HTTP/1.1).
Cases that cannot mean the same over HTTP/2 are skipped, with a count per reason at the end."""

# Response headers HTTP/2 forbids (connection-specific) or makes meaningless (the body is framed
# by DATA frames): dropped from both records before comparing.
H2_DROPPED_HEADERS = ("connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection",
                      "content-length")

# Request headers that only mean something to an HTTP/1 connection.
HTTP1_REQUEST_HEADERS = ("connection", "keep-alive", "transfer-encoding", "upgrade",
                         "proxy-connection", "te", "http2-settings")

MB_TCP_FAULTS = ("CONNECTION_RESET_BY_PEER", "RANDOM_DATA_THEN_CLOSE")

# Skip reasons (the summary counts cases per reason).
SKIP_WIRE = "wire step: hand-written HTTP/1 bytes (framing, pipelining, request-target forms)"
SKIP_HTTP10 = "HTTP/1.0 request"
SKIP_EXPECT = "request sends Expect: 100-continue"
SKIP_HTTP1_HEADER = ("request sets an HTTP/1 connection header (Connection, Keep-Alive, "
                     "Transfer-Encoding, Upgrade, Proxy-Connection, TE)")
SKIP_RAW = ("raw step on an imposter without a TCP fault (the answer is recorded as the bytes of "
            "an HTTP/1 connection)")
SKIP_TCP_CHANGES = "tcp fault added or removed on a live imposter (HTTP/1-only status changes mid-case)"
SKIP_HEADER_SPELLING = ("expectation echoes request header names in their HTTP/1 spelling "
                        "(HTTP/2 sends them lower-case)")
SKIP_CASE_SENSITIVE_NAME = ("caseSensitive predicate on a request header name with upper-case "
                            "letters (HTTP/2 sends names lower-case)")
SKIP_SPACED_VALUE = ("expectation has a response header value with leading or trailing white "
                     "space (HTTP/2 field values cannot carry it)")
SKIP_UPGRADE_ECHO = ("h2c-upgrade to an HTTP/1-only imposter (TCP fault) falls back with Upgrade "
                     "headers, and the expectation shows a copy of the request")
SKIP_TARGET = "request target or Host that HTTP/2 cannot carry as sent"
SKIP_NOT_HTTP = "tcp or smtp step (raw tcp bytes or an SMTP dialogue, not HTTP)"
# Step kinds that talk another protocol than HTTP to an imposter (diffcore's tcp and smtp steps).
NOT_HTTP_STEPS = ("tcp", "smtp", "smtp_raw")


# --------------------------------------------------------------------------
# Which imposters have TCP faults
# --------------------------------------------------------------------------

def _response_has_tcp_fault(resp):
    if not isinstance(resp, dict):
        return False
    if resp.get("fault") in MB_TCP_FAULTS:
        return True
    rift = resp.get("_rift")
    if isinstance(rift, dict) and isinstance(rift.get("fault"), dict) and "tcp" in rift["fault"]:
        return True
    return False


def has_tcp_fault(value):
    """Whether an imposter (or a stub, or a list of either) has a TCP-fault response."""
    if isinstance(value, list):
        return any(has_tcp_fault(v) for v in value)
    if not isinstance(value, dict):
        return False
    for resp in value.get("responses", []) if isinstance(value.get("responses"), list) else []:
        if _response_has_tcp_fault(resp):
            return True
    for key in ("stubs", "stub"):
        if key in value and has_tcp_fault(value[key]):
            return True
    return False


def _port_key(value):
    return str(value) if value is not None else None


IMPOSTER_PATH_RE = re.compile(r"^/imposters/([^/?]+)(/stubs(/[^/?]+)?)?(\?.*)?$")


def tcp_fault_ports(case):
    """{step index: whether that imposter step's port has a TCP fault then}, following the admin
    steps that create, change and delete imposters; None when a live imposter gains or loses its
    TCP fault during the case (or a stub is removed or replaced while it has one)."""
    state = {}
    out = {}
    changed = False
    for idx, step in enumerate(case["steps"]):
        if "admin" in step:
            a = step["admin"]
            method = a.get("method", "GET")
            path = a.get("path", "/")
            body = a.get("body")
            if isinstance(body, str):
                try:
                    body = json.loads(body)
                except ValueError:
                    body = None
            bare = path.split("?")[0]
            m = IMPOSTER_PATH_RE.match(path)
            if bare == "/imposters" and method == "POST" and isinstance(body, dict):
                port = _port_key(body.get("port"))
                fault = has_tcp_fault(body)
                if port in state and state[port] != fault:
                    changed = True
                state[port] = fault
            elif bare == "/imposters" and method == "PUT" and isinstance(body, dict):
                new = {_port_key(i.get("port")): has_tcp_fault(i)
                       for i in body.get("imposters", []) if isinstance(i, dict)}
                if any(p in state and state[p] != f for p, f in new.items()):
                    changed = True
                state = new
            elif bare == "/imposters" and method == "DELETE":
                state = {}
            elif m and method == "DELETE" and not m.group(2):
                state.pop(m.group(1), None)
            elif m and m.group(2) and method in ("POST", "PUT", "DELETE"):
                port = m.group(1)
                before = state.get(port, False)
                fault = has_tcp_fault(body) if body is not None else False
                if method == "POST":
                    after = before or fault
                elif method == "PUT" and not m.group(3):
                    after = fault
                else:  # one stub replaced or deleted: what remains is not known here
                    after = before or fault
                    if before:
                        changed = True
                if after != before and port in state:
                    changed = True
                state[port] = after
        elif "imposter" in step:
            out[idx] = state.get(_port_key(step["imposter"].get("port", "${IMPOSTER}")), False)
    return None if changed else out


# --------------------------------------------------------------------------
# Skips
# --------------------------------------------------------------------------

def _to_admin(step):
    return step["imposter"].get("port", "${IMPOSTER}") == "${ADMIN}"


def step_mode(mode, step):
    """The h2client mode an imposter step is sent with under --http2 `mode`."""
    if step["imposter"].get("tls"):
        return "h2"
    return "h2c" if mode == "h2" else mode


def _lower_cased_steps(case, mode):
    """The imposter steps whose header names reach the server lower-cased: those sent over HTTP/2
    with prior knowledge or ALPN (an h2c-upgrade request is an HTTP/1.1 request, sent with its
    spelling; so are requests to the admin port and to imposters with a TCP fault)."""
    faults = tcp_fault_ports(case) or {}
    return [step for idx, step in enumerate(case["steps"])
            if "imposter" in step and not _to_admin(step) and not step.get("raw")
            and not faults.get(idx) and step_mode(mode, step) != "h2c-upgrade"]


def _sent_header_names(case, mode):
    """Names (as spelled) of the request headers that reach the server lower-cased (see
    _lower_cased_steps): the case's own, plus the Host and Content-Length added for it."""
    names = set()
    for step in _lower_cased_steps(case, mode):
        r = step["imposter"]
        hs = diffcore._headers_list(r.get("headers"))
        names.update(str(h[0]) for h in hs)
        lows = {str(h[0]).lower() for h in hs}
        if "host" not in lows:
            names.add("Host")
        if (r.get("body") or r.get("body_base64")) and "content-length" not in lows:
            names.add("Content-Length")
    return {n for n in names if n != n.lower()}


def _all_names(value, names, found):
    """Sent header names (spelling kept) found as object keys, or quoted in text, in `value`."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in names:
                found.add(k)
            _all_names(v, names, found)
    elif isinstance(value, list):
        for v in value:
            _all_names(v, names, found)
    elif isinstance(value, str):
        for n in names:
            if '"%s"' % n in value:
                found.add(n)
    return found


def _all_keys(value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            _all_keys(v, out)
    elif isinstance(value, list):
        for v in value:
            _all_keys(v, out)
    return out


def _request_copies(value, names, found):
    """Sent header names found in the headers of request-like objects (a request the server
    received, as saved requests, debug and verify answers and proxy-generated predicates show it:
    `headers` next to `method` and `path`, or next to `requestFrom` or `timestamp`)."""
    if isinstance(value, dict):
        if isinstance(value.get("headers"), (dict, list)) and (
                ("method" in value and "path" in value) or "requestFrom" in value
                or "timestamp" in value):
            _all_names(value["headers"], names, found)
        for k, v in value.items():
            # A `select`ed path such as "requests.*.headers" or "request.headers".
            parts = k.split(".")
            if len(parts) > 1 and parts[-1] == "headers" and parts[0] in ("request", "requests"):
                found.update(names & _all_keys(v, set()))
            _request_copies(v, names, found)
    elif isinstance(value, list):
        for v in value:
            _request_copies(v, names, found)
    return found


def echoed_header_names(case, mode, expected):
    """Request header names the expectation echoes in their HTTP/1 spelling: the sent names with
    upper-case letters found in a request-like object of an admin answer (the journal: saved
    requests, verify answers, proxy-generated predicates), where Mountebank records a request's
    headers as they came on the wire. Imposter answers that copy the request (debug dry runs,
    injections, templates) are not looked at: they may spell names their own way, so such cases
    run (and fail if the spelling differs)."""
    names = _sent_header_names(case, mode)
    # A spelling the case's own imposters define (injectHeaders, stub headers) may be echoed
    # from there rather than from the request.
    names -= _all_keys([s["admin"].get("body") for s in case["steps"] if "admin" in s], set())
    if not names or expected is None:
        return set()
    found = set()
    for rec in expected.get("steps", []):
        src = case["steps"][rec["step"]] if rec.get("step", -1) < len(case["steps"]) else {}
        for key in ("body", "body_text"):
            if key not in rec:
                continue
            value = rec[key]
            if isinstance(value, str):
                try:
                    value = json.loads(value)
                except ValueError:
                    pass
            if "admin" in src or ("imposter" in src and _to_admin(src)):
                _request_copies(value, names, found)
    return found


def case_sensitive_header_names(case, mode):
    """Request header names with upper-case letters that a caseSensitive predicate of the case
    names (Mountebank compares the names exactly then), when some request reaches the server with
    lower-cased names."""
    if not _lower_cased_steps(case, mode):
        return set()
    found = set()

    def walk(v):
        if isinstance(v, dict):
            if v.get("caseSensitive") is True:
                for op, arg in v.items():
                    if isinstance(arg, dict) and isinstance(arg.get("headers"), dict):
                        found.update(k for k in arg["headers"] if k != k.lower())
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for step in case["steps"]:
        if "admin" in step:
            walk(step["admin"].get("body"))
    return found


def spaced_header_values(expected):
    """Recorded response header values that start or end with white space (HTTP/2 forbids such
    field values, RFC 9113 8.2.1: a server trims them or refuses the field)."""
    out = []
    for rec in (expected or {}).get("steps", []):
        if "request" in rec and "status" in rec:  # imposter answers (admin ones record fewer)
            for name, value in rec.get("headers", []):
                if isinstance(value, str) and value != value.strip(" \t"):
                    out.append(name)
    return out


def _has_request_copy(value):
    """Whether a recorded body holds a copy of a request's headers (see _request_copies)."""
    if isinstance(value, dict):
        if isinstance(value.get("headers"), (dict, list)) and (
                ("method" in value and "path" in value) or "requestFrom" in value
                or "timestamp" in value):
            return True
        for k, v in value.items():
            parts = k.split(".")
            if len(parts) > 1 and parts[-1] == "headers" and parts[0] in ("request", "requests"):
                return True
            if _has_request_copy(v):
                return True
    elif isinstance(value, list):
        return any(_has_request_copy(v) for v in value)
    return False


def upgrade_fallback_echoed(case, mode, expected):
    """h2c-upgrade only: a request to an HTTP/1-only imposter (TCP fault) falls back to HTTP/1.1
    carrying Connection, Upgrade and HTTP2-Settings, which a copy of the request in the
    expectation (a debug answer, the journal) cannot show."""
    faults = tcp_fault_ports(case) or {}
    fallback = [idx for idx, step in enumerate(case["steps"])
                if faults.get(idx) and not step.get("raw") and not _to_admin(step)
                and step_mode(mode, step) == "h2c-upgrade"]
    if not fallback or expected is None:
        return False
    for rec in expected.get("steps", []):
        src = case["steps"][rec["step"]] if rec.get("step", -1) < len(case["steps"]) else {}
        if rec.get("step") in fallback or "admin" in src or ("imposter" in src and _to_admin(src)):
            for key in ("body", "body_text"):
                value = rec.get(key)
                if isinstance(value, str):
                    try:
                        value = json.loads(value)
                    except ValueError:
                        continue
                if _has_request_copy(value):
                    return True
    return False


def skip_reason(case, mode, expected=None):
    """Why `case` cannot mean the same over HTTP/2 in `mode`, or None. `expected` is its
    committed expectation (read for echoed request header names)."""
    faults = tcp_fault_ports(case)
    for idx, step in enumerate(case["steps"]):
        if any(kind in step for kind in NOT_HTTP_STEPS):
            return SKIP_NOT_HTTP
        if "wire" in step:
            return SKIP_WIRE
    for idx, step in enumerate(case["steps"]):
        if "imposter" not in step or _to_admin(step):
            continue
        r = step["imposter"]
        if r.get("http_version", "1.1") != "1.1":
            return SKIP_HTTP10
        hs = diffcore._headers_list(r.get("headers"))
        for name, value in hs:
            low = str(name).lower()
            if low == "expect" and "100-continue" in str(value).lower():
                return SKIP_EXPECT
            if low in HTTP1_REQUEST_HEADERS:
                return SKIP_HTTP1_HEADER
        if r.get("add_host") is False or not r.get("path", "/").startswith("/"):
            return SKIP_TARGET
    if faults is None:
        return SKIP_TCP_CHANGES
    for idx, step in enumerate(case["steps"]):
        if "imposter" in step and step.get("raw") and not faults.get(idx):
            return SKIP_RAW
    if echoed_header_names(case, mode, expected):
        return SKIP_HEADER_SPELLING
    if upgrade_fallback_echoed(case, mode, expected):
        return SKIP_UPGRADE_ECHO
    if case_sensitive_header_names(case, mode):
        return SKIP_CASE_SENSITIVE_NAME
    if spaced_header_values(expected):
        return SKIP_SPACED_VALUE
    return None


# --------------------------------------------------------------------------
# Sending
# --------------------------------------------------------------------------

def _tls_options(step):
    t = step["imposter"].get("tls")
    if isinstance(t, dict) and t.get("client_cert"):
        name = t["client_cert"]
        return {"cert": os.path.join(diffcore.TLS_DIR, name + "-cert.pem"),
                "key": os.path.join(diffcore.TLS_DIR, name + "-key.pem")}
    return None


def _served_cert(step, response):
    if not (step["imposter"].get("tls") and step.get("record_cert")) or not response.cert_pem:
        return None
    return diffcore.describe_served_cert(ssl.PEM_cert_to_DER_cert(response.cert_pem))


class Sender:
    """diffcore's send_imposter hook for --http2 `mode` (see the module text). `counts` tallies
    the steps sent each way, for the summary."""

    def __init__(self, mode):
        if mode not in MODES:
            raise ValueError("unknown mode %r" % mode)
        self.mode = mode
        self.faults = {}
        self.counts = {"http2": 0, "http1 (admin port)": 0, "tcp-fault fallback": 0}

    def _faults_of(self, case):
        if case["name"] not in self.faults:
            self.faults[case["name"]] = tcp_fault_ports(case) or {}
        return self.faults[case["name"]]

    def __call__(self, case, step, port, method, target, headers, body_bytes):
        idx = next(i for i, s in enumerate(case["steps"]) if s is step)
        if _to_admin(step):
            self.counts["http1 (admin port)"] += 1
            return diffcore.send_imposter_http1(step, port, method, target, headers, body_bytes)
        mode = step_mode(self.mode, step)
        want_cert = bool(step.get("record_cert") and step["imposter"].get("tls"))
        if self._faults_of(case).get(idx):
            self.counts["tcp-fault fallback"] += 1
            return self._fallback(idx, step, mode, port, method, target, headers, body_bytes, want_cert)
        self.counts["http2"] += 1
        try:
            r = h2client.request(mode, port, method, target, headers, body_bytes,
                                 tls=_tls_options(step), want_cert=want_cert)
        except h2client.NotHTTP2 as e:
            raise diffcore.CaseError("step %d (%s %s): %s" % (idx, method, target, e))
        return r.status, r.headers, r.body, r.elapsed_ms, _served_cert(step, r)

    def _fallback(self, idx, step, mode, port, method, target, headers, body_bytes, want_cert):
        """A request to an HTTP/1-only imposter (TCP fault): HTTP/2 must be refused or fall back."""
        try:
            r = h2client.request(mode, port, method, target, headers, body_bytes,
                                 tls=_tls_options(step), want_cert=want_cert, require_http2=False)
        except (OSError, http.client.HTTPException):
            if mode != "h2c":
                raise
            # Prior knowledge refused: the request again, as the HTTP/1.1 client it falls back to.
            return diffcore.send_imposter_http1(step, port, method, target, headers, body_bytes)
        if r.http_version == "2":
            raise diffcore.CaseError(
                "step %d (%s %s): the imposter has a TCP fault, so it must stay on HTTP/1, but "
                "the %s request was answered over HTTP/2" % (idx, method, target, mode))
        if mode == "h2c":
            raise diffcore.CaseError(
                "step %d (%s %s): an h2c prior-knowledge request to an HTTP/1-only imposter (TCP "
                "fault) got an HTTP/%s %d answer, expected a refusal"
                % (idx, method, target, r.http_version, r.status))
        return r.status, r.headers, r.body, r.elapsed_ms, _served_cert(step, r)


# --------------------------------------------------------------------------
# Normalization
# --------------------------------------------------------------------------

def normalize_headers(headers):
    """[name, value] pairs: names lower-cased, HTTP/2's dropped headers removed, sorted by name
    (repeats keep their order)."""
    out = [[str(n).lower(), v] for n, v in headers if str(n).lower() not in H2_DROPPED_HEADERS]
    return sorted(out, key=lambda h: h[0])


def normalize(record):
    """A copy of a record (expected or actual) with the HTTP/2 normalization applied to the
    headers of every step (admin steps record only content-type and location: unchanged)."""
    if record is None:
        return None
    record = copy.deepcopy(record)
    for step in record.get("steps", []):
        if isinstance(step.get("headers"), list):
            step["headers"] = normalize_headers(step["headers"])
    return record


def normalize_case(case):
    """A copy of a case whose documented `ours` headers (tests/rift-diff differs rules) are
    normalized the same way."""
    case = copy.deepcopy(case)
    for rule in case.get("differs", []):
        ours = rule.get("ours", {})
        if isinstance(ours.get("headers"), list):
            ours["headers"] = normalize_headers(ours["headers"])
    return case


# --------------------------------------------------------------------------
# Runner support
# --------------------------------------------------------------------------

class Skips:
    """Cases skipped over HTTP/2, by reason."""

    def __init__(self):
        self.by_reason = {}

    def select(self, cases, mode, expected_of):
        """The cases to run; prints a SKIP line for each other one."""
        kept = []
        for case in cases:
            why = skip_reason(case, mode, expected_of(case))
            if why is None:
                kept.append(case)
            else:
                self.by_reason.setdefault(why, []).append(case["name"])
                print("SKIP %s: %s" % (case["name"], why))
        sys.stdout.flush()
        return kept

    def total(self):
        return sum(len(v) for v in self.by_reason.values())

    def report(self, mode, sender=None):
        print("\nHTTP/2 (%s): %d cases skipped" % (mode, self.total()))
        for why, names in sorted(self.by_reason.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print("  %4d  %s" % (len(names), why))
        if sender is not None:
            print("imposter requests: " + ", ".join("%s %d" % kv for kv in sender.counts.items()))


def load_expected(expected_dir, case):
    path = os.path.join(expected_dir, case["name"] + ".json")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def prepare(mode, cases, expected_dir):
    """What a runner needs for `--http2 MODE`: the cases left after the skips, the Skips (for the
    summary) and the Sender (the imposter-request hook); (cases, None, None) without a mode."""
    if not mode:
        return cases, None, None
    h2client.check_curl()
    skips = Skips()
    cases = skips.select(cases, mode, lambda c: load_expected(expected_dir, c))
    return cases, skips, Sender(mode)
