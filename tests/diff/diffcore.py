"""Shared machinery for the Rift differential test corpus.

Python 3 standard library only.  Used by capture.py (records expectations from
live Mountebank) and run.py (replays the corpus against Rift or Mountebank and
compares).  See README.md for the case format.
"""

import base64
import copy
import difflib
import functools
import glob
import http.client
import json
import os
import re
import socket
import ssl
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "pylib"))
import rift_process  # noqa: E402  (tools/pylib/rift_process.py: server processes)
CASES_DIR = os.path.join(HERE, "cases")
EXPECTED_DIR = os.path.join(HERE, "expected")
# PEM fixtures for https cases: "${PEM:name}" in a JSON body is the text of tls/<name>.pem.
TLS_DIR = os.path.join(HERE, "tls")
PEM_TOKEN_RE = re.compile(r"\$\{PEM:([a-z0-9-]+)\}")
# Files cases point servers at (lookup CSVs): ${DATA} in a case, absolute when sent.
DATA_DIR = os.path.join(HERE, "data")

# Port layout relative to a base port: token -> offset.
PORT_TOKENS = {
    "ADMIN": 0,
    "IMPOSTER": 1,
    "IMPOSTER2": 2,
    "IMPOSTER3": 3,
    "IMPOSTER4": 4,
    "IMPOSTER5": 5,
    "UNUSED": 9,  # never bound by any case: connections are refused
}

TOKEN_RE = re.compile(r"\$\{([A-Z0-9_]+)\}")
ISO_TS_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
RFC1123_RE = re.compile(
    r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$")

# Headers always recorded (lower-cased names) for imposter responses.
IMPOSTER_HEADERS = ("content-type", "location", "connection", "transfer-encoding",
                    "content-length", "date")
# Headers recorded for admin responses.
ADMIN_HEADERS = ("content-type", "location")

DEFAULT_TIMEOUT = 15.0
MAX_DIFF_LINES = 80


class CaseError(Exception):
    pass


# --------------------------------------------------------------------------
# Case loading
# --------------------------------------------------------------------------

def load_cases(cases_dir=CASES_DIR, only=None):
    cases = []
    for path in sorted(glob.glob(os.path.join(cases_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        stem = os.path.splitext(os.path.basename(path))[0]
        if case.get("name") != stem:
            raise CaseError("%s: 'name' must equal the file name (%s)" % (path, stem))
        if only and not any(o in stem for o in only):
            continue
        cases.append(case)
    return cases


def server_key(case):
    return tuple(case.get("server_args", []))


def group_cases(cases):
    """Order cases so that ones with the same server flags run together."""
    groups = {}
    for c in cases:
        groups.setdefault(server_key(c), []).append(c)
    return sorted(groups.items(), key=lambda kv: (len(kv[0]), kv[0]))


# --------------------------------------------------------------------------
# Server process management
# --------------------------------------------------------------------------

def default_mb_bin():
    env = os.environ.get("MB_BIN")
    if env:
        return env
    local = os.path.join(HERE, "node_modules", ".bin", "mb")
    if os.path.exists(local):
        return local
    return "/opt/mb/node_modules/.bin/mb"


def apikey_of(args):
    args = list(args)
    for i, a in enumerate(args):
        if a == "--apikey" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--apikey="):
            return a.split("=", 1)[1]
    return None


# Sanitizer or crash reports found in server output when a server stopped; run.py fails on any.
SERVER_REPORTS = []
REPORT_MARKERS = rift_process.REPORT_MARKERS


class Server:
    """A Mountebank-compatible server process (`BIN start --port P [flags]`), started in a fresh
    temporary directory that stop() removes (rift_process.ServerProcess)."""

    def __init__(self, binary, admin_port, args, log_prefix="server"):
        # The server runs in a temporary working directory, so a relative
        # path such as build/rift must be resolved now.
        if os.sep in binary and not os.path.isabs(binary):
            binary = os.path.abspath(binary)
        self.binary = binary
        self.admin_port = admin_port
        self.args = list(args)
        self.apikey = apikey_of(args)
        self.process = None
        self.log_prefix = log_prefix

    @property
    def proc(self):
        return self.process.proc if self.process else None

    def _headers(self):
        return {"x-api-key": self.apikey} if self.apikey else {}

    def start(self, timeout=30.0):
        self.launch([self.binary, "start", "--port", str(self.admin_port)] + self.args,
                    "riftdiff-", timeout)

    def launch(self, cmd, temp_prefix, timeout):
        """Starts `cmd` in a fresh temporary directory and waits for its admin port."""
        self.process = rift_process.ServerProcess(cmd, log_name="server-output.log",
                                                  name=" ".join(cmd), temp_prefix=temp_prefix)
        try:
            self.process.start()
            # Ready once GET / answers anything.
            self.process.wait_ready(
                lambda: rift_process.http_status(self.admin_port, headers=self._headers()),
                timeout=timeout, interval=0.1, tail=3000)
        except rift_process.ServerError:
            self.stop()
            raise

    def output_tail(self, n=3000):
        return self.process.output_tail(n) if self.process else ""

    def reset(self):
        """DELETE /imposters; raises if the server does not answer 200."""
        status, _, body = simple_request(self.admin_port, "DELETE", "/imposters",
                                         headers=self._headers())
        if status != 200:
            raise RuntimeError("DELETE /imposters gave %s: %r" % (status, body[:200]))

    def alive(self):
        return self.process is not None and self.process.alive()

    def stop(self):
        if self.process is None:
            return
        self.process.stop()
        output = self.process.output_tail(1 << 20)
        if rift_process.report_marker(output):
            SERVER_REPORTS.append(output[-6000:])
        self.process = None


# --------------------------------------------------------------------------
# HTTP over raw sockets
# --------------------------------------------------------------------------

def build_request(method, target, headers, body_bytes, host_port, http_version="1.1",
                  add_host=True, add_length=True, add_close=False):
    """headers: list of [name, value] pairs sent verbatim, in order."""
    names = [h[0].lower() for h in headers]
    lines = ["%s %s HTTP/%s" % (method, target, http_version)]
    if add_host and "host" not in names:
        lines.append("Host: localhost:%d" % host_port)
    for name, value in headers:
        lines.append("%s: %s" % (name, value))
    if add_length and body_bytes and "content-length" not in names and "transfer-encoding" not in names:
        lines.append("Content-Length: %d" % len(body_bytes))
    if add_close and "connection" not in names:
        lines.append("Connection: close")
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    return head + (body_bytes or b"")


def pem_text(name):
    path = os.path.join(TLS_DIR, name + ".pem")
    if not os.path.exists(path):
        raise CaseError("unknown PEM fixture ${PEM:%s}" % name)
    with open(path, encoding="ascii") as f:
        return f.read()


def _pem_tokens():
    """Fixture text -> its ${PEM:name} token, to record echoed PEMs by name."""
    out = {}
    for path in glob.glob(os.path.join(TLS_DIR, "*.pem")):
        name = os.path.basename(path)[:-4]
        out[pem_text(name)] = "${PEM:%s}" % name
    return out


def tls_context(options):
    """An https client context for an imposter step's "tls" option: true, or
    {"client_cert": NAME} to present tls/NAME-cert.pem with tls/NAME-key.pem. The server is not
    verified (imposters serve self-signed certificates)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    if isinstance(options, dict) and options.get("client_cert"):
        name = options["client_cert"]
        context.load_cert_chain(os.path.join(TLS_DIR, name + "-cert.pem"),
                                os.path.join(TLS_DIR, name + "-key.pem"))
    return context


def describe_served_cert(der):
    """The served certificate: its fixture token when it is one, else its subject."""
    pem = ssl.DER_cert_to_PEM_cert(der)
    for text, token in _pem_tokens().items():
        if text.strip().endswith("-----END CERTIFICATE-----") and \
                ssl.PEM_cert_to_DER_cert(text) == der:
            return token
    with tempfile.NamedTemporaryFile("w", suffix=".pem", delete=False) as f:
        f.write(pem)
    try:
        decoded = ssl._ssl._test_decode_cert(f.name)  # stdlib's own PEM decoder
    finally:
        os.unlink(f.name)
    return ", ".join("%s=%s" % pair for rdn in decoded.get("subject", ()) for pair in rdn)


def _connect(port, timeout, tls=None):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    if tls is None:
        return sock
    try:
        return tls.wrap_socket(sock)
    except BaseException:
        sock.close()
        raise


def send_raw(port, data, method, timeout=DEFAULT_TIMEOUT, tls=None, on_connect=None):
    """Send bytes to 127.0.0.1:port (over TLS with an ssl.SSLContext `tls`) and parse one HTTP
    response. `on_connect(sock)` sees the connected socket first.

    Returns (status, [(name, value)...], body_bytes)."""
    sock = _connect(port, timeout, tls)
    try:
        if on_connect:
            on_connect(sock)
        sock.sendall(data)
        resp = http.client.HTTPResponse(sock, method=method)
        resp.begin()
        body = resp.read()
        headers = list(resp.msg.items())
        status = resp.status
        resp.close()
        return status, headers, body
    finally:
        sock.close()


def simple_request(port, method, path, headers=None, body=None, timeout=DEFAULT_TIMEOUT):
    hdrs = [[k, v] for k, v in (headers or {}).items()]
    body_bytes = body.encode("utf-8") if isinstance(body, str) else body
    if body_bytes:
        hdrs.append(["Content-Type", "application/json"])
    data = build_request(method, path, hdrs, body_bytes, port, add_close=True)
    return send_raw(port, data, method, timeout=timeout)


def send_and_read_to_close(port, data, timeout=DEFAULT_TIMEOUT, tls=None):
    """Send bytes and read until the server closes: (bytes read, how it ended). A clean close
    and a reset both count as "closed" (Mountebank closes, Rift prefers a reset)."""
    sock = _connect(port, timeout, tls)
    received = b""
    try:
        sock.sendall(data)
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return received, "closed"
            received += chunk
    except socket.timeout:
        return received, "timeout"
    except (ConnectionResetError, BrokenPipeError, ssl.SSLError):
        return received, "closed"
    finally:
        sock.close()


def try_connect(port, timeout=3.0):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    except ConnectionRefusedError:
        return "refused"
    except OSError as e:
        return "error:%s" % type(e).__name__
    s.close()
    return "accepted"


# --------------------------------------------------------------------------
# Token substitution and normalization
# --------------------------------------------------------------------------

class Ports:
    def __init__(self, base):
        self.values = {name: base + off for name, off in PORT_TOKENS.items()}

    def lookup(self, name):
        if name == "DATA":
            return DATA_DIR
        if name not in self.values:
            raise CaseError("unknown token ${%s}" % name)
        return self.values[name]

    def subst_text(self, text):
        return TOKEN_RE.sub(lambda m: str(self.lookup(m.group(1))), text)

    def subst_json(self, value):
        if isinstance(value, str):
            pem = PEM_TOKEN_RE.fullmatch(value)
            if pem:
                return pem_text(pem.group(1))
            m = TOKEN_RE.fullmatch(value)
            if m:
                return self.lookup(m.group(1))
            return self.subst_text(value)
        if isinstance(value, list):
            return [self.subst_json(v) for v in value]
        if isinstance(value, dict):
            return {self.subst_text(k): self.subst_json(v) for k, v in value.items()}
        return value

    # reverse direction ----------------------------------------------------
    def _port_re(self):
        alts = sorted((str(v) for v in self.values.values()), key=len, reverse=True)
        return re.compile(r"(?<!\d)(%s)(?!\d)" % "|".join(alts))

    def untoken_text(self, text):
        text = text.replace(DATA_DIR, "${DATA}")
        by_value = {str(v): k for k, v in self.values.items()}
        return self._port_re().sub(lambda m: "${%s}" % by_value[m.group(1)], text)

    def untoken_int(self, n):
        for k, v in self.values.items():
            if v == n:
                return "${%s}" % k
        return n


# A client's `requestFrom` as Mountebank writes it: `address:port` for http, https and tcp (the
# address is "::ffff:127.0.0.1" on its dual-stack listener), the bare address for smtp (smtp-server
# strips "::ffff:", so "127.0.0.1"). The cases connect to 127.0.0.1, so only IPv4 forms occur; the
# port is ephemeral and masked, the bare smtp form is kept as it is.
REQUEST_FROM_RE = re.compile(r"^((?:::ffff:)?\d{1,3}(?:\.\d{1,3}){3}):(\d+)$")


def normalize_json(value, ports, key=None):
    """Tokenize ports, mask timestamps and client ports."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return ports.untoken_int(value)
    if isinstance(value, float):
        return value
    if isinstance(value, str):
        if "-----BEGIN" in value:
            token = _pem_tokens().get(value)
            if token:
                return token
        if ISO_TS_RE.match(value):
            return "<TIMESTAMP>"
        if RFC1123_RE.match(value):  # a Date header a proxy recorded
            return "<DATE>"
        if key == "requestFrom":
            m = REQUEST_FROM_RE.match(value)
            if m:
                return m.group(1) + ":<PORT>"
        return ports.untoken_text(value)
    if isinstance(value, list):
        return [normalize_json(v, ports, key) for v in value]
    if isinstance(value, dict):
        return {ports.untoken_text(k): normalize_json(v, ports, k) for k, v in value.items()}
    return value


def collect_stub_header_names(case):
    """Names of headers that any response or defaultResponse in the case sets."""
    names = set()

    def walk(v, parent_key=None):
        if isinstance(v, dict):
            for k, sub in v.items():
                if k == "headers" and parent_key in ("is", "defaultResponse") and isinstance(sub, dict):
                    names.update(h.lower() for h in sub.keys())
                walk(sub, k)
        elif isinstance(v, list):
            for sub in v:
                walk(sub, parent_key)

    for step in case.get("steps", []):
        if "admin" in step:
            body = step["admin"].get("body")
            if isinstance(body, str):
                try:
                    body = json.loads(body)
                except ValueError:
                    continue
            walk(body)
    names.update(h.lower() for h in case.get("record_headers", []))
    return names


def select_path(value, path):
    cur = value
    for part in path.split("."):
        if part == "*keys":
            return sorted(cur.keys()) if isinstance(cur, dict) else "<NOT AN OBJECT>"
        if part == "*type":
            return type(cur).__name__
        if isinstance(cur, list):
            try:
                cur = cur[int(part)]
            except (ValueError, IndexError):
                return "<MISSING>"
        elif isinstance(cur, dict):
            if part not in cur:
                return "<MISSING>"
            cur = cur[part]
        else:
            return "<MISSING>"
    return cur


def body_value(raw, as_json):
    """Decode a response body for recording."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(raw).decode("ascii")}
    if as_json and text.strip():
        try:
            return {"json": json.loads(text)}
        except ValueError:
            pass
    return {"text": text}


# --------------------------------------------------------------------------
# Running a case
# --------------------------------------------------------------------------

def _headers_list(h):
    if h is None:
        return []
    if isinstance(h, dict):
        return [[k, v] for k, v in h.items()]
    return [list(x) for x in h]


def run_case(case, server, ports, skip=(), send_imposter=None):
    """Replay the case's steps, except the indexes in `skip`; returns the normalized step records.
    send_imposter(case, step, port, method, target, headers, body_bytes), when given, sends the
    request of every imposter step that is not `raw` (see _run_imposter; run.py --http2)."""
    stub_headers = collect_stub_header_names(case)
    METRIC_SNAPSHOTS.clear()
    send = None
    if send_imposter is not None:
        def send(*args):
            return send_imposter(case, *args)
    records = []
    for idx, step in enumerate(case["steps"]):
        if idx in skip:
            continue
        rec = {"step": idx}
        try:
            if "admin" in step:
                rec.update(_run_admin(step, server, ports))
            elif "imposter" in step:
                rec.update(_run_imposter(step, ports, stub_headers, send))
            elif "connect" in step:
                port = ports.subst_json(step["connect"]["port"])
                rec["connect"] = ports.untoken_int(port)
                rec["result"] = try_connect(port)
            elif "wire" in step:
                rec.update(_run_wire(step, ports))
            elif "tcp" in step:
                rec.update(_run_tcp(step, ports))
            elif "smtp" in step:
                rec.update(_run_smtp(step, ports))
            elif "smtp_raw" in step:
                rec.update(_run_smtp_raw(step, ports))
            elif "sleep_ms" in step:
                time.sleep(step["sleep_ms"] / 1000.0)
                rec["sleep_ms"] = step["sleep_ms"]
            else:
                raise CaseError("step %d: unknown step kind %s" % (idx, list(step)))
        except (OSError, http.client.HTTPException) as e:
            if "imposter" in step and step["imposter"].get("tls"):
                # The ways a refused TLS client fails (an alert during or after the handshake,
                # a reset, an early close) differ between servers; what matters is that it fails.
                rec["refused"] = "TLS connection failed"
            else:
                rec["error"] = "%s: %s" % (type(e).__name__, e)
        records.append(rec)
    return records


def _run_admin(step, server, ports):
    a = step["admin"]
    method = a.get("method", "GET")
    path = ports.subst_text(a.get("path", "/"))
    headers = _headers_list(a.get("headers"))
    headers = [[k, ports.subst_text(str(v))] for k, v in headers]
    body = a.get("body")
    if body is None:
        body_bytes = b""
    elif isinstance(body, str):
        body_bytes = ports.subst_text(body).encode("utf-8")
    else:
        body_bytes = json.dumps(ports.subst_json(body)).encode("utf-8")
    if body_bytes and not any(h[0].lower() == "content-type" for h in headers) and not a.get("no_content_type"):
        headers.append(["Content-Type", "application/json"])
    data = build_request(method, path, headers, body_bytes, ports.lookup("ADMIN"), add_close=True)
    status, resp_headers, raw = send_raw(ports.lookup("ADMIN"), data, method)

    if "save" in step:
        # {"TOKEN": "dotted.path"}: remember a value (e.g. an OS-assigned port)
        # from the response so later steps can use ${TOKEN}; it is also
        # normalized back to ${TOKEN} in every record.
        parsed = json.loads(raw.decode("utf-8"))
        for token, p in step["save"].items():
            v = select_path(parsed, p)
            if isinstance(v, bool) or not isinstance(v, int):
                raise CaseError("save %s: %r is not a port" % (token, v))
            ports.values[token] = v

    rec = {"request": "%s %s" % (method, a.get("path", "/")), "status": status}
    ignore = set(step.get("ignore", []))
    if "headers" not in ignore:
        hs = []
        for name, value in resp_headers:
            if name.lower() in ADMIN_HEADERS:
                hs.append([name.lower(), ports.untoken_text(value)])
        rec["headers"] = sorted(hs)
    if "metrics" in step:
        rec.update(_metrics_record(step, raw.decode("utf-8", "replace"), ports))
    elif "body" not in ignore:
        decoded = body_value(raw, as_json=True)
        if "json" in decoded:
            body_json = normalize_json(decoded["json"], ports)
            body_json = _apply_error_mode(body_json, step.get("errors", "code_message"))
            if "select" in step:
                body_json = {p: select_path(body_json, p) for p in step["select"]}
            for path_ in step.get("mask", []):
                _mask(body_json, path_.split("."))
            rec["body"] = body_json
        else:
            rec["body_" + next(iter(decoded))] = ports.untoken_text(next(iter(decoded.values())))
    return rec


METRIC_LINE_RE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$")
# Snapshots of GET /metrics pages saved by `save_metrics`, by name (one case at a time).
METRIC_SNAPSHOTS = {}


def parse_metrics(text):
    """{"name{labels}": value} for every series line of a Prometheus text page."""
    out = {}
    for line in text.splitlines():
        m = METRIC_LINE_RE.match(line)
        if m and not line.startswith("#"):
            out[m.group(1) + (m.group(2) or "")] = float(m.group(3))
    return out


def _metrics_record(step, text, ports):
    """An admin step with `metrics` (series names): the counts a GET /metrics page shows for them,
    as the change since the snapshot `metrics_since` (series that did not change are left out):
    a server's counters run over every case it served, so only differences are deterministic.
    `save_metrics` keeps the page as a snapshot for later steps."""
    series = parse_metrics(text)
    rec = {}
    if step.get("save_metrics"):
        METRIC_SNAPSHOTS[step["save_metrics"]] = series
        rec["metrics_saved"] = step["save_metrics"]
    names = set(step["metrics"])
    if step.get("metrics_since"):
        if step["metrics_since"] not in METRIC_SNAPSHOTS:
            raise CaseError("metrics_since %r: no such snapshot" % step["metrics_since"])
        before = METRIC_SNAPSHOTS[step["metrics_since"]]
        changes = {}
        for key, value in series.items():
            if key.split("{", 1)[0] in names and value != before.get(key, 0.0):
                delta = value - before.get(key, 0.0)
                changes[ports.untoken_text(key)] = int(delta) if delta == int(delta) else delta
        rec["metrics_changed"] = changes
    return rec


def parse_responses(data):
    """Splits the bytes a server wrote into HTTP responses: [(status line, [(name, value)],
    body bytes)], the body framed by Content-Length, chunked coding or the close; and the bytes
    left over when the last response is cut off."""
    out = []
    while data:
        head_end = data.find(b"\r\n\r\n")
        if head_end < 0:
            break
        lines = data[:head_end].decode("latin-1").split("\r\n")
        headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:]]
        rest = data[head_end + 4:]
        names = {name.lower(): value for name, value in headers}
        status = lines[0].split(" ", 2)
        if len(status) > 1 and (status[1].startswith("1") or status[1] in ("204", "304")):
            body, data = b"", rest
        elif "content-length" in names:
            length = int(names["content-length"])
            body, data = rest[:length], rest[length:]
        elif names.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                line_end = rest.find(b"\r\n")
                if line_end < 0:
                    break
                size = int(rest[:line_end].split(b";")[0], 16)
                body += rest[line_end + 2:line_end + 2 + size]
                rest = rest[line_end + 2 + size + 2:]
                if size == 0:
                    break
            data = rest
        elif lines[0].endswith(" 200 Connection established"):
            body = b""
            data = rest
        else:
            body, data = rest, b""
        out.append((lines[0], headers, body))
    return out, data


def _run_wire(step, ports):
    """Bytes sent as written (CR and LF spelled out, ${TOKENS} substituted) and every response
    the server writes back until it closes, or until `read_ms` pass without a close (kept-alive
    connections): each response's status line, framing headers and body."""
    w = step["wire"]
    port = ports.subst_json(w.get("port", "${IMPOSTER}"))
    data = ports.subst_text(w["text"]).encode("latin-1")
    if b"$length" in data:  # the byte length of what follows the head, after substitution
        data = data.replace(b"$length", str(len(data.split(b"\r\n\r\n", 1)[1])).encode())
    received, ended = send_and_read_to_close(port, data, timeout=w.get("read_ms", 2000) / 1000.0)
    responses, left = parse_responses(received)
    recs = []
    for status_line, headers, body in responses:
        r = {"status_line": status_line}
        r["headers"] = sorted([name.lower(), ports.untoken_text(value)]
                              for name, value in headers
                              if name.lower() in ("connection", "content-type", "transfer-encoding"))
        decoded = body_value(body, as_json=True)
        if "json" in decoded:
            r["body"] = normalize_json(decoded["json"], ports)
        else:
            kind, val = next(iter(decoded.items()))
            r["body_" + kind] = ports.untoken_text(val) if kind == "text" else val
        recs.append(r)
    rec = {"wire": step["wire"]["text"], "responses": recs, "ended": ended}
    if left:
        rec["unparsed"] = left.decode("latin-1")
    return rec


# --------------------------------------------------------------------------
# tcp and smtp imposters
# --------------------------------------------------------------------------

TCP_READ_MS = 300  # a tcp step's default quiet time that ends a read


def _read_quiet(sock, quiet_s, first_byte_at=None):
    """Reads until `quiet_s` pass without a byte or the server ends the connection: (bytes,
    "open" | "closed" | "reset"). `first_byte_at` (a list) gets the monotonic time of the first
    byte."""
    received = b""
    sock.settimeout(quiet_s)
    while True:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return received, "open"
        except ConnectionResetError:
            return received, "reset"
        if not chunk:
            return received, "closed"
        if not received and first_byte_at is not None:
            first_byte_at.append(time.monotonic())
        received += chunk


def _tcp_payloads(exchange, ports):
    """The byte strings an exchange writes, one write each: [bytes], or several `packets`."""
    if "send_base64" in exchange:
        return [base64.b64decode(exchange["send_base64"])]
    if "send" in exchange:
        return [ports.subst_text(exchange["send"]).encode("utf-8")]
    if "packets" in exchange:
        return [ports.subst_text(p).encode("utf-8") for p in exchange["packets"]]
    if "packets_base64" in exchange:
        return [base64.b64decode(p) for p in exchange["packets_base64"]]
    raise CaseError("tcp exchange needs send, send_base64, packets or packets_base64: %r"
                    % exchange)


def _tcp_data(data, binary, errors_mode, ports):
    """How the bytes a tcp server wrote are recorded: `data_base64` (binary steps, or bytes that
    are not UTF-8), `data_json` (an `errors` step whose bytes are JSON: Mountebank writes
    {"errors": [...]} on the socket when a response fails) or `data_text`."""
    if not binary:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            binary = True
    if binary:
        return {"data_base64": base64.b64encode(data).decode("ascii")}
    if errors_mode and text.strip():
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        if parsed is not None:
            return {"data_json": _apply_error_mode(normalize_json(parsed, ports), errors_mode)}
    return {"data_text": ports.untoken_text(text)}


def _run_tcp(step, ports):
    """One connection to a tcp imposter: each exchange writes its bytes (`packets` one write each,
    `gap_ms` apart), then reads until `read_ms` pass without a byte or the server ends the
    connection. Exchanges after the end are not sent. Records what each exchange read and how the
    connection `ended`: "open" (still open after the last exchange), "closed" (the server's FIN),
    "reset" (an RST, read or write)."""
    t = step["tcp"]
    port = ports.subst_json(t.get("port", "${IMPOSTER}"))
    quiet_s = t.get("read_ms", TCP_READ_MS) / 1000.0
    rec = {"tcp": ports.untoken_int(port)}
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=DEFAULT_TIMEOUT)
    except ConnectionRefusedError:
        rec["result"] = "refused"
        return rec
    exchanges = []
    ended = "open"
    try:
        for exchange in t.get("exchanges", []):
            try:
                for i, payload in enumerate(_tcp_payloads(exchange, ports)):
                    if i:
                        time.sleep(exchange.get("gap_ms", 50) / 1000.0)
                    sock.sendall(payload)
            except (ConnectionResetError, BrokenPipeError):
                ended = "reset"
                break
            sent_at, first_byte_at = time.monotonic(), []
            data, ended = _read_quiet(sock, quiet_s, first_byte_at)
            record = _tcp_data(data, t.get("binary", False), t.get("errors"), ports)
            if "min_elapsed_ms" in exchange:  # for `wait`: only whether the reply came that late
                waited = (first_byte_at[0] - sent_at) * 1000.0 if first_byte_at else 0.0
                record["elapsed_at_least_%d_ms" % exchange["min_elapsed_ms"]] = \
                    waited >= exchange["min_elapsed_ms"]
            exchanges.append(record)
            if ended != "open":
                break
    finally:
        sock.close()
    rec["exchanges"] = exchanges
    if ended == "reset" and t.get("reset_is_closed"):
        # A fault that closes at once: Mountebank's socket.destroy() sends a FIN, a server may
        # prefer an RST (docs/mountebank-semantics.md, faults); both end the connection unanswered.
        ended = "closed"
    rec["ended"] = ended
    return rec


def _smtp_message(s):
    if "message_file" in s:
        with open(os.path.join(DATA_DIR, s["message_file"]), "rb") as f:
            data = f.read()
    else:
        data = s["message"].encode("utf-8")
    # SMTP lines end in CRLF; files and JSON strings are written with LF.
    return re.sub(rb"\r?\n", b"\r\n", data)


def _run_smtp(step, ports):
    """One mail sent with smtplib: EHLO, MAIL, RCPT for each address, DATA (when MAIL and some RCPT
    were accepted), QUIT. Records the reply code of each phase (`rcpt` a list), or
    `"disconnected": true` when the server hangs up."""
    import smtplib  # only smtp steps need it

    s = step["smtp"]
    port = ports.subst_json(s.get("port", "${IMPOSTER}"))
    rec = {"smtp": ports.untoken_int(port)}
    phases = {}
    client = smtplib.SMTP(timeout=DEFAULT_TIMEOUT, local_hostname="localhost")
    try:
        try:
            phases["connect"] = client.connect("127.0.0.1", port)[0]
        except ConnectionRefusedError:
            rec["result"] = "refused"
            return rec
        phases["ehlo"] = client.ehlo()[0]
        phases["mail"] = client.mail(s["from"])[0]
        phases["rcpt"] = [client.rcpt(to)[0] for to in s["to"]]
        if phases["mail"] == 250 and any(code in (250, 251) for code in phases["rcpt"]):
            try:
                phases["data"] = client.data(_smtp_message(s))[0]
            except smtplib.SMTPDataError as e:
                phases["data"] = e.smtp_code
        phases["quit"] = client.quit()[0]
    except smtplib.SMTPServerDisconnected:
        phases["disconnected"] = True
    finally:
        client.close()
    rec["phases"] = phases
    return rec


@functools.lru_cache(maxsize=1)
def _host_names():
    """This machine's names, longest first: smtp-server greets with os.hostname()."""
    names = {socket.gethostname(), socket.getfqdn()}
    return sorted((n for n in names if n), key=len, reverse=True)


SMTP_RAW_WAIT_MS = 3000  # an smtp_raw step's default wait for a reply
# The end of a whole SMTP reply: its last line is "ddd" or "ddd text" (others are "ddd-text").
SMTP_REPLY_END_RE = re.compile(rb"(?:^|\r\n)\d{3}(?: [^\r\n]*)?\r\n$")


def _read_smtp_reply(sock, wait_s):
    """Reads one whole SMTP reply, or until `wait_s` pass without a byte or the connection ends:
    (bytes, "open" | "closed" | "reset")."""
    received = b""
    sock.settimeout(wait_s)
    while not SMTP_REPLY_END_RE.search(received):
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        except ConnectionResetError:
            return received, "reset"
        if not chunk:
            return received, "closed"
        received += chunk
    return received, "open"


def _run_smtp_raw(step, ports):
    """An SMTP dialogue written by hand: reads the greeting, then writes each line (CRLF added) and
    reads the whole reply to it (waiting at most `read_ms` for each). Lines between a 354 reply
    and the "." that ends the message get no reply and are not read after. After a 221 or 421
    reply the server's close is awaited. Records the reply lines, the server's host name as <HOST>
    (smtp-server greets with os.hostname()), and how the connection ended."""
    s = step["smtp_raw"]
    port = ports.subst_json(s.get("port", "${IMPOSTER}"))
    wait_s = s.get("read_ms", SMTP_RAW_WAIT_MS) / 1000.0
    rec = {"smtp_raw": ports.untoken_int(port)}
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=DEFAULT_TIMEOUT)
    except ConnectionRefusedError:
        rec["result"] = "refused"
        return rec
    hosts = _host_names()

    def lines_of(data):
        text = data.decode("utf-8", "replace")
        for h in hosts:
            text = text.replace(h, "<HOST>")
        return [ports.untoken_text(line) for line in text.split("\r\n") if line]

    def read_reply():
        data, how = _read_smtp_reply(sock, wait_s)
        reply = lines_of(data)
        if how == "open" and reply and reply[-1][:3] in ("221", "421"):
            more, how = _read_quiet(sock, wait_s)  # the server closes after these
            reply += lines_of(more)
        return reply, how

    dialogue = []
    in_data = False
    try:
        reply, ended = read_reply()
        dialogue.append({"greeting": reply})
        for line in s.get("lines", []):
            if ended != "open":
                break
            if isinstance(line, list):  # [[text, times], ...]: long lines, spelled out short
                payload = "".join(ports.subst_text(text) * times for text, times in line)
            else:
                payload = ports.subst_text(line)
            try:
                sock.sendall(payload.encode("utf-8") + b"\r\n")
            except (ConnectionResetError, BrokenPipeError):
                ended = "reset"
                break
            if in_data and payload != ".":
                dialogue.append({"sent": line})  # message text: no reply until "."
                continue
            reply, ended = read_reply()
            in_data = bool(reply) and reply[-1].startswith("354")
            dialogue.append({"sent": line, "reply": reply})
    finally:
        sock.close()
    rec["dialogue"] = dialogue
    rec["ended"] = ended
    return rec


def _mask(value, parts):
    if not parts:
        return
    head, rest = parts[0], parts[1:]
    targets = []
    if head == "*":
        if isinstance(value, list):
            targets = list(range(len(value)))
        elif isinstance(value, dict):
            targets = list(value.keys())
    elif isinstance(value, list):
        try:
            i = int(head)
            if i < len(value):
                targets = [i]
        except ValueError:
            pass
    elif isinstance(value, dict) and head in value:
        targets = [head]
    for t in targets:
        if rest:
            _mask(value[t], rest)
        else:
            value[t] = "<MASKED>"


def _apply_error_mode(body, mode):
    if not (isinstance(body, dict) and isinstance(body.get("errors"), list)):
        return body
    if mode == "full":
        return body
    if mode == "nonempty":
        return {"errors_nonempty": len(body["errors"]) > 0}
    if mode == "code":
        # Only the codes: Node's OpenSSL errors carry no message in Mountebank's JSON.
        return {"errors": [{"code": e.get("code")} if isinstance(e, dict) else e
                           for e in body["errors"]]}
    if mode in ("code_message", "unordered"):
        out = dict(body)
        out["errors"] = [
            {k: e[k] for k in ("code", "message") if k in e} if isinstance(e, dict) else e
            for e in body["errors"]]
        if mode == "unordered":
            out["errors"].sort(key=lambda e: json.dumps(e, sort_keys=True))
        return out
    raise CaseError("unknown errors mode %r" % mode)


def send_imposter_http1(step, port, method, target, headers, body_bytes):
    """An imposter step's request over HTTP/1.x, as raw bytes on a new connection (the default
    sender of _run_imposter): (status, [(name, value)], body bytes, elapsed ms, the served
    certificate's description when the step has record_cert, else None)."""
    r = step["imposter"]
    data = build_request(method, target, headers, body_bytes, port,
                         http_version=r.get("http_version", "1.1"),
                         add_host=r.get("add_host", True))
    tls = tls_context(r["tls"]) if r.get("tls") else None
    served = []

    def note_cert(sock):
        if tls is not None and step.get("record_cert"):
            served.append(describe_served_cert(sock.getpeercert(binary_form=True)))

    t0 = time.monotonic()
    status, resp_headers, raw = send_raw(port, data, method, tls=tls, on_connect=note_cert)
    elapsed_ms = (time.monotonic() - t0) * 1000.0
    return status, resp_headers, raw, elapsed_ms, (served[0] if served else None)


def _run_imposter(step, ports, stub_headers, send=None):
    """Send an imposter step's request and record the answer. `send(step, port, method, target,
    headers, body_bytes)` sends it (default send_imposter_http1, same return value); a `raw`
    step is always sent as HTTP/1 bytes."""
    r = step["imposter"]
    port = ports.subst_json(r.get("port", "${IMPOSTER}"))
    method = r.get("method", "GET")
    path = ports.subst_text(r.get("path", "/"))
    headers = [[k, ports.subst_text(str(v))] for k, v in _headers_list(r.get("headers"))]
    if "body_base64" in r:
        body_bytes = base64.b64decode(r["body_base64"])
    else:
        body_bytes = ports.subst_text(r.get("body", "")).encode("utf-8")
    if step.get("raw"):
        # Faults: the bytes the server sent before closing, whatever they are.
        data = build_request(method, path, headers, body_bytes, port,
                             http_version=r.get("http_version", "1.1"),
                             add_host=r.get("add_host", True))
        tls = tls_context(r["tls"]) if r.get("tls") else None
        received, ended = send_and_read_to_close(port, data, tls=tls)
        rec = {"request": "%s %s" % (method, r.get("path", "/")), "ended": ended}
        rec.update({"raw_" + k: v for k, v in body_value(received, as_json=False).items()})
        return rec
    status, resp_headers, raw, elapsed_ms, served_cert = (send or send_imposter_http1)(
        step, port, method, path, headers, body_bytes)

    rec = {"request": "%s %s" % (method, r.get("path", "/")), "status": status}
    if served_cert is not None:
        rec["served_cert"] = served_cert
    ignore = set(step.get("ignore", []))
    if "headers" not in ignore:
        hs = []
        for name, value in resp_headers:
            low = name.lower()
            if low in stub_headers:
                hs.append([name, ports.untoken_text(value)])
            elif low in IMPOSTER_HEADERS or low.startswith("access-control-"):
                if low == "date":
                    value = "<DATE>" if RFC1123_RE.match(value) else "<BAD DATE %s>" % value
                hs.append([low, ports.untoken_text(value)])
        rec["headers"] = sorted(hs, key=lambda h: h[0].lower())
    if "body" not in ignore and "errors" in step:
        # A runtime error: Mountebank adds `name` and `stack`; compare what the step's mode keeps.
        decoded = body_value(raw, as_json=True)
        if "json" in decoded:
            rec["body"] = _apply_error_mode(normalize_json(decoded["json"], ports), step["errors"])
        else:
            rec["body_" + next(iter(decoded))] = next(iter(decoded.values()))
    elif "body" not in ignore:
        decoded = body_value(raw, as_json=False)
        kind, val = next(iter(decoded.items()))
        rec["body_" + kind] = ports.untoken_text(val) if kind == "text" else val
    if "min_elapsed_ms" in step:
        rec["elapsed_at_least_%d_ms" % step["min_elapsed_ms"]] = elapsed_ms >= step["min_elapsed_ms"]
    if "max_elapsed_ms" in step:
        rec["elapsed_below_%d_ms" % step["max_elapsed_ms"]] = elapsed_ms < step["max_elapsed_ms"]
    return rec


# --------------------------------------------------------------------------
# Driving a whole corpus
# --------------------------------------------------------------------------

# Rift keeps connections alive by default; the corpora compare Mountebank's framing, one flag away.
RIFT_ARGS = ["--mountebankFraming"]


def run_corpus(binary, cases, base_port, on_result, verbose=False, extra_args=(),
               make_server=None, prepare=lambda case: case, finish=lambda case, record: record,
               send_imposter=None):
    """Run every case; on_result(case, records_or_None, error_text_or_None). extra_args go to
    every server after the case's own flags (RIFT_ARGS for a Rift binary). Another corpus
    (tests/rift-diff) passes make_server(admin_port, flags) for its servers, prepare(case) to
    adjust a case before it runs and finish(case, record) to normalize what it recorded.
    send_imposter goes to run_case (run.py --http2 sends imposter requests over HTTP/2)."""
    for key, group in group_cases(cases):
        flags = list(key) + list(extra_args)
        admin_port = base_port + PORT_TOKENS["ADMIN"]
        server = make_server(admin_port, flags) if make_server else Server(binary, admin_port, flags)
        try:
            server.start()
        except RuntimeError as e:
            for c in group:
                on_result(c, None, "server failed to start: %s" % e)
            continue
        try:
            for case in group:
                ports = Ports(base_port)
                try:
                    if not server.alive():
                        server.stop()
                        server.start()
                    server.reset()
                    records = run_case(prepare(case), server, ports, send_imposter=send_imposter)
                    server.reset()
                    on_result(case, finish(case, {"name": case["name"], "steps": records}), None)
                except (CaseError, RuntimeError, OSError, http.client.HTTPException) as e:
                    msg = "%s: %s" % (type(e).__name__, e)
                    if not server.alive():
                        msg += "\n  server exited (rc=%s); output tail:\n%s" % (
                            server.proc.returncode if server.proc else "?", server.output_tail(1500))
                    on_result(case, None, msg)
        finally:
            server.stop()


def dumps(obj):
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def diff_records(expected, actual):
    """Return '' when equal, else a readable per-step diff."""
    if expected == actual:
        return ""
    out = []
    esteps = expected.get("steps", [])
    asteps = actual.get("steps", [])
    for i in range(max(len(esteps), len(asteps))):
        e = esteps[i] if i < len(esteps) else None
        a = asteps[i] if i < len(asteps) else None
        if e == a:
            continue
        title = (e or a or {}).get("request") or (e or a or {}).get("connect") or ""
        out.append("  step %s (%s):" % ((e or a or {}).get("step", i), title))
        el = dumps(e).splitlines()
        al = dumps(a).splitlines()
        lines = list(difflib.unified_diff(el, al, "expected", "actual", lineterm="", n=2))
        if len(lines) > MAX_DIFF_LINES:
            lines = lines[:MAX_DIFF_LINES] + ["... (%d more diff lines)" % (len(lines) - MAX_DIFF_LINES)]
        out.extend("    " + line for line in lines)
    return "\n".join(out)


def judge(case, expected, record, results, verbose=False):
    """Compares a case's record with its expectation: prints FAIL and the diff, or PASS (verbose);
    appends the name to results["fail"] or results["pass"]."""
    name = case["name"]
    d = diff_records(expected, record)
    if d:
        results["fail"].append(name)
        items = ",".join(str(i) for i in case.get("checklist", []))
        print("FAIL %s%s\n%s" % (name, " [checklist %s]" % items if items else "", d))
    else:
        results["pass"].append(name)
        if verbose:
            print("PASS %s" % name)
    sys.stdout.flush()


def committed_expectation(case, error, results, expected_dir, hint):
    """The expectation committed for `case`, or None once its failure is reported (the replay
    failed with `error`, or nothing is committed: `hint` says how to capture it)."""
    name = case["name"]
    exp_path = os.path.join(expected_dir, name + ".json")
    if error:
        results["fail"].append(name)
        print("FAIL %s\n  %s" % (name, error))
        return None
    if not os.path.exists(exp_path):
        results["fail"].append(name)
        print("FAIL %s\n  no expectation: %s" % (name, hint))
        return None
    with open(exp_path, encoding="utf-8") as f:
        return json.load(f)


def stale_report(cases, captured_dir, expected_dir, only):
    """capture.py --check: compares a fresh capture in `captured_dir` with `expected_dir`, prints
    each stale case, and returns the exit status (1 if any)."""
    stale = []
    for case in cases:
        name = case["name"]
        exp_path = os.path.join(expected_dir, name + ".json")
        new_path = os.path.join(captured_dir, name + ".json")
        if not os.path.exists(new_path):
            stale.append((name, "could not be captured"))
            continue
        if not os.path.exists(exp_path):
            stale.append((name, "no committed expectation"))
            continue
        with open(exp_path, encoding="utf-8") as f:
            old = f.read()
        with open(new_path, encoding="utf-8") as f:
            new = f.read()
        if old != new:
            stale.append((name, diff_records(json.loads(old), json.loads(new)) or "formatting differs"))
    if not only:
        known = {c["name"] for c in cases}
        for path in sorted(os.listdir(expected_dir)):
            if path.endswith(".json") and path[:-5] not in known:
                stale.append((path[:-5], "expectation without a case"))
    for name, why in stale:
        print("STALE %s\n%s" % (name, why))
    print("%d cases checked, %d stale" % (len(cases), len(stale)))
    return 1 if stale else 0


def exit_status(results):
    """Lists the failed cases and any server (sanitizer or crash) report; 1 if there was either."""
    if results["fail"]:
        print("failed: " + " ".join(results["fail"]))
    for report in SERVER_REPORTS:
        print("SERVER REPORTED AN ERROR (sanitizer or crash):\n" + report)
    return 1 if results["fail"] or SERVER_REPORTS else 0
