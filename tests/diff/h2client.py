#!/usr/bin/env python3
"""One request over HTTP/2, sent by a real client: the `curl` binary (HTTP/2 through nghttp2).

Python 3 standard library only (plus curl 7.88 or later on PATH, or $CURL). Modes:

* ``h2c``: cleartext HTTP/2 with prior knowledge (``--http2-prior-knowledge``: the client opens
  with the ``PRI * HTTP/2.0`` preface);
* ``h2c-upgrade``: an HTTP/1.1 request carrying ``Upgrade: h2c`` (``--http2`` on an http URL);
  the answer comes over HTTP/2 after ``101 Switching Protocols``;
* ``h2``: HTTP/2 negotiated by TLS ALPN (``--http2 -k`` on an https URL; the server is not
  verified, a client certificate is presented when asked).

The request is sent as given: the method (HEAD as ``--head``, so no body is awaited), the headers
in order (an empty value as ``-H 'Name;'``), the body (``--data-binary @file``) and the target
exactly as written (``--path-as-is -g``). curl adds nothing of its own: ``User-Agent``, ``Accept``
and ``Expect`` are removed, and so is the ``Content-Type`` it would give a body when the request
has none. ``Host`` (``:authority`` in HTTP/2) is ``localhost:<port>`` unless the request gives one,
as ``diffcore.build_request`` does. The connection goes to 127.0.0.1, proxies are never used, and
~/.curlrc is ignored.

An answer that did not come over HTTP/2 (a server that ignored the upgrade, or chose http/1.1 in
ALPN) raises NotHTTP2, naming the version it came with; ``request(..., require_http2=False)``
returns it instead. Transport failures raise what the raw-socket client of diffcore would:
ConnectionRefusedError, socket.timeout, http.client.RemoteDisconnected (closed without an answer),
else CurlError (an OSError) with curl's exit code and message.

    python3 tests/diff/h2client.py --mode h2c --port 4545 GET '/path?q=1' -H 'X-A: b' --body text
"""

import argparse
import collections
import errno
import http.client
import os
import shutil
import socket
import subprocess
import sys
import tempfile

MODES = ("h2c", "h2c-upgrade", "h2")
CURL = os.environ.get("CURL", "curl")
DEFAULT_TIMEOUT = 15.0

# curl's exit codes that mean the same as a raw-socket failure.
CURL_COULDNT_CONNECT = 7
CURL_OPERATION_TIMEDOUT = 28
CURL_GOT_NOTHING = 52

# Headers curl adds to every request unless told not to (removed with -H 'Name:').
CURL_OWN_HEADERS = ("User-Agent", "Accept", "Expect")

Response = collections.namedtuple(
    "Response", "status headers body http_version elapsed_ms cert_pem")
Response.__doc__ = """status: int; headers: [(name, value)] as received (HTTP/2 names are lower-case),
in order, repeats kept; body: bytes; http_version: curl's %{http_version} ("2", "1.1" ...);
elapsed_ms: curl's total time; cert_pem: the server's certificate (PEM) when asked for, else None."""


class CurlError(OSError):
    """curl failed: no answer (a TLS handshake refused, a reset, an HTTP/2 protocol error ...)."""

    def __init__(self, code, message):
        super().__init__("curl exit %d: %s" % (code, message))
        self.code = code


class NotHTTP2(Exception):
    """The answer came, but not over HTTP/2 (the request fell back to HTTP/1.x)."""

    def __init__(self, mode, response):
        super().__init__(
            "%s request was answered over HTTP/%s, not HTTP/2 (status %d): the server %s"
            % (mode, response.http_version, response.status,
               {"h2c-upgrade": "ignored Upgrade: h2c",
                "h2": "did not choose h2 in TLS ALPN"}.get(mode, "did not speak HTTP/2")))
        self.response = response


def curl_version():
    out = subprocess.run([CURL, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=False).stdout.decode("utf-8", "replace")
    return out.splitlines()[0] if out else ""


def check_curl():
    """Raises RuntimeError when curl is missing or lacks HTTP/2."""
    if shutil.which(CURL) is None:
        raise RuntimeError("curl not found (%s); set $CURL" % CURL)
    out = subprocess.run([CURL, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         check=False).stdout.decode("utf-8", "replace")
    if "HTTP2" not in out.split():
        raise RuntimeError("%s has no HTTP/2 support:\n%s" % (CURL, out))


def header_args(headers):
    """-H arguments for [(name, value)] sent in order; an empty value is -H 'Name;'."""
    out = []
    for name, value in headers:
        value = str(value)
        out += ["-H", "%s;" % name if value == "" else "%s: %s" % (name, value)]
    return out


def parse_header_file(text):
    """The last response head curl wrote with -D (after 1xx answers, and 101 Switching Protocols
    in an upgrade): (status line, [(name, value)])."""
    blocks = []
    for line in text.split("\n"):
        line = line[:-1] if line.endswith("\r") else line
        if line.startswith("HTTP/"):
            blocks.append([line, []])
        elif line and blocks:
            if line[0] in " \t" and blocks[-1][1]:  # obs-fold (HTTP/1 only)
                name, value = blocks[-1][1][-1]
                blocks[-1][1][-1] = (name, (value + " " + line.strip()).strip())
            elif ":" in line:
                # Trailing whitespace is kept, as Python's http.client (the HTTP/1 client) keeps it.
                name, value = line.split(":", 1)
                blocks[-1][1].append((name, value.lstrip(" \t")))
    if not blocks:
        return None, []
    return blocks[-1][0], blocks[-1][1]


def build_command(mode, port, method, target, headers, body_file, tls=None, timeout=DEFAULT_TIMEOUT,
                  header_file=None, body_out=None, want_cert=False):
    """The curl argument list (see the module text)."""
    if mode not in MODES:
        raise ValueError("unknown mode %r (one of %s)" % (mode, ", ".join(MODES)))
    scheme = "https" if mode == "h2" else "http"
    if not target.startswith("/"):
        raise ValueError("target %r: only origin-form targets can be sent over HTTP/2" % target)
    names = {str(h[0]).lower() for h in headers}
    cmd = [CURL, "-q", "-sS", "--noproxy", "*", "--path-as-is", "-g",
           "--max-time", "%g" % timeout]
    cmd += {"h2c": ["--http2-prior-knowledge"], "h2c-upgrade": ["--http2"],
            "h2": ["--http2", "-k"]}[mode]
    if mode == "h2" and isinstance(tls, dict) and tls.get("cert"):
        cmd += ["--cert", tls["cert"], "--key", tls["key"]]
    if method == "HEAD":
        if body_file:
            raise ValueError("HEAD with a body cannot be sent by curl")
        cmd += ["--head"]
    else:
        cmd += ["-X", method]
    if "host" not in names:
        cmd += ["-H", "Host: localhost:%d" % port]
    for own in CURL_OWN_HEADERS:
        if own.lower() not in names:
            cmd += ["-H", own + ":"]
    if "content-type" not in names:
        cmd += ["-H", "Content-Type:"]  # curl's own for --data-binary, never the request's
    cmd += header_args(headers)
    if body_file:
        cmd += ["--data-binary", "@" + body_file]
    cmd += ["-D", header_file, "-o", body_out,
            "-w", "%{http_version} %{http_code} %{time_total}\\n" + ("%{certs}" if want_cert else "")]
    cmd.append("%s://127.0.0.1:%d%s" % (scheme, port, target))
    return cmd


def request(mode, port, method, target, headers=(), body=b"", tls=None, timeout=DEFAULT_TIMEOUT,
            want_cert=False, require_http2=True):
    """Send one request; returns a Response. headers: [(name, value)] in order; body: bytes;
    tls (mode h2): None, or {"cert": PEM path, "key": PEM path} for a client certificate.
    Raises NotHTTP2 when the answer came over another version and require_http2 is set."""
    headers = [(str(n), str(v)) for n, v in headers]
    with tempfile.TemporaryDirectory(prefix="h2client-") as tmp:
        body_file = None
        if body:
            body_file = os.path.join(tmp, "request-body")
            with open(body_file, "wb") as f:
                f.write(body)
        header_file = os.path.join(tmp, "response-head")
        body_out = os.path.join(tmp, "response-body")
        cmd = build_command(mode, port, method, target, headers, body_file, tls, timeout,
                            header_file, body_out, want_cert)
        try:
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, timeout=timeout + 10, check=False)
        except subprocess.TimeoutExpired:
            raise socket.timeout("timed out")
        out = proc.stdout.decode("utf-8", "replace")
        err = proc.stderr.decode("utf-8", "replace").strip()
        if proc.returncode != 0:
            if proc.returncode == CURL_COULDNT_CONNECT:  # on 127.0.0.1: nothing listens
                raise ConnectionRefusedError(errno.ECONNREFUSED, os.strerror(errno.ECONNREFUSED))
            if proc.returncode == CURL_OPERATION_TIMEDOUT:
                raise socket.timeout("timed out")
            if proc.returncode == CURL_GOT_NOTHING:
                raise http.client.RemoteDisconnected("Remote end closed connection without response")
            raise CurlError(proc.returncode, err or "(no message)")
        first, _, certs = out.partition("\n")
        version, code, total = first.split(" ")
        head_text = ""
        if os.path.exists(header_file):
            with open(header_file, "rb") as f:
                head_text = f.read().decode("latin-1")
        status_line, resp_headers = parse_header_file(head_text)
        if status_line is None:
            raise CurlError(0, "no response head in curl's -D output")
        body_bytes = b""
        if method != "HEAD" and os.path.exists(body_out):
            with open(body_out, "rb") as f:
                body_bytes = f.read()
    cert_pem = None
    if want_cert:
        begin, end = "-----BEGIN CERTIFICATE-----", "-----END CERTIFICATE-----"
        if begin in certs:
            start = certs.index(begin)
            cert_pem = certs[start:certs.index(end, start) + len(end)] + "\n"
    resp = Response(int(code), resp_headers, body_bytes, version, float(total) * 1000.0, cert_pem)
    if require_http2 and version != "2":
        raise NotHTTP2(mode, resp)
    return resp


def send(mode, port, method, target, headers=(), body=b"", tls=None, timeout=DEFAULT_TIMEOUT):
    """request() reduced to (status, [(name, value)...], body bytes); the answer must be HTTP/2."""
    r = request(mode, port, method, target, headers, body, tls, timeout)
    return r.status, r.headers, r.body


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=MODES, default="h2c")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("-H", dest="headers", action="append", default=[], metavar="'NAME: VALUE'")
    ap.add_argument("--body", default="")
    ap.add_argument("--cert", help="client certificate (PEM), mode h2")
    ap.add_argument("--key", help="its key (PEM)")
    ap.add_argument("--allow-http1", action="store_true", help="print an answer that is not HTTP/2")
    ap.add_argument("method")
    ap.add_argument("target")
    args = ap.parse_args()
    headers = [tuple(p.strip() for p in h.split(":", 1)) for h in args.headers]
    tls = {"cert": args.cert, "key": args.key} if args.cert else None
    try:
        r = request(args.mode, args.port, args.method, args.target, headers, args.body.encode("utf-8"),
                    tls, require_http2=not args.allow_http1)
    except (NotHTTP2, OSError, http.client.HTTPException) as e:
        print("%s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 1
    print("HTTP/%s %d (%.1f ms)" % (r.http_version, r.status, r.elapsed_ms))
    for name, value in r.headers:
        print("%s: %s" % (name, value))
    print()
    sys.stdout.write(r.body.decode("utf-8", "replace"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
