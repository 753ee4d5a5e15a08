"""Shared machinery for the reference-Rift differential corpus (tests/rift-diff/).

Python 3 standard library only. The HTTP, token and normalization machinery is
tests/diff/diffcore.py, imported (not copied); this module adds

* the two servers: the reference Rift (`rift-http-proxy`, global options, no subcommand) and
  our Rift (`rift start`), both bound to 127.0.0.1 only;
* the generic normalizations of this corpus (error envelopes, media types, headers a case
  records, RFC 3339 timestamps with offsets, wildcard `select`);
* the per-case `differs` rules: documented, deliberate differences, applied at comparison time.

See README.md for the case format.
"""

import copy
import json
import os
import re
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "diff"))
import diffcore  # noqa: E402  (tests/diff/diffcore.py)
rift_process = diffcore.rift_process

CASES_DIR = os.path.join(HERE, "cases")
EXPECTED_DIR = os.path.join(HERE, "expected")
COMPAT_DOC = os.path.join(HERE, "..", "..", "docs", "rift-compatibility.md")

# base+8 is the reference's metrics port: we hold it on 127.0.0.1 (listening, never accepting)
# so that the reference's metrics server, which binds 0.0.0.0 unconditionally, fails to bind
# (a non-fatal error for it) and nothing listens beyond loopback.
METRICS_OFFSET = 8

# Any RFC 3339 timestamp (the reference writes nanoseconds and "+00:00").
TS_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


class CaseError(diffcore.CaseError):
    pass


# --------------------------------------------------------------------------
# Servers
# --------------------------------------------------------------------------

class OurServer(diffcore.Server):
    """Our Rift: `rift start --port P --host 127.0.0.1 --nologfile [case flags]`."""

    def __init__(self, binary, admin_port, args):
        super().__init__(binary, admin_port, ["--host", "127.0.0.1", "--nologfile"] + list(args))

    def start(self, timeout=30.0):
        # The binary may be rebuilt while we run: wait up to a minute for it to reappear.
        deadline = time.monotonic() + 60
        while not os.path.exists(self.binary) and time.monotonic() < deadline:
            time.sleep(1)
        super().start(timeout)


class RefServer(diffcore.Server):
    """The reference Rift: `rift-http-proxy --port P --host 127.0.0.1 --allow-injection
    --nologfile --metrics-port M [case flags]` (global options, default `start` command)."""

    def __init__(self, binary, admin_port, args):
        super().__init__(binary, admin_port, list(args))
        self.metrics_port = admin_port - diffcore.PORT_TOKENS["ADMIN"] + METRICS_OFFSET
        self.holder = None

    def start(self, timeout=30.0):
        if self.holder is None:
            holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            holder.bind(("127.0.0.1", self.metrics_port))
            holder.listen(1)
            self.holder = holder
        cmd = [self.binary, "--port", str(self.admin_port), "--host", "127.0.0.1",
               "--allow-injection", "--nologfile", "--metrics-port", str(self.metrics_port)]
        cmd += [a for a in self.args if a not in ("--allowInjection", "--allow-injection")]
        self.launch(cmd, "riftdiff-ref-", timeout)

    def stop(self):
        super().stop()
        if self.holder is not None:
            self.holder.close()
            self.holder = None


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------

def load_cases(only=None):
    cases = diffcore.load_cases(CASES_DIR, only)
    for c in cases:
        check_differs(c)
    return cases


def capture_hint(case):
    """How to record a case's missing expectation (run.py and run_frozen.py say it)."""
    return "run capture.py --reference BIN -k %s" % case["name"]


def check_differs(case):
    """A `differs` rule must name its reason in docs/rift-compatibility.md."""
    for rule in case.get("differs", []):
        reason = rule.get("reason", "")
        if not reason.startswith("docs/rift-compatibility.md"):
            raise CaseError("%s: differs.reason must cite docs/rift-compatibility.md" % case["name"])
        unknown = set(rule) - {"reason", "steps", "ignore", "compare", "ours"}
        if unknown or not rule.get("steps"):
            raise CaseError("%s: bad differs rule %r" % (case["name"], rule))


def _add_host(body):
    if isinstance(body, dict) and "protocol" in body and "host" not in body:
        body = dict(body)
        body["host"] = "127.0.0.1"
    return body


def prepare(case):
    """The case as sent: imposters bound to 127.0.0.1, error bodies recorded whole (this module
    normalizes them), `select` left for record_step."""
    c = copy.deepcopy(case)
    for step in c["steps"]:
        if "admin" in step:
            a = step["admin"]
            body = a.get("body")
            path = a.get("path", "/")
            if a.get("method") in ("POST", "PUT") and path.split("?")[0] == "/imposters":
                if isinstance(body, dict) and isinstance(body.get("imposters"), list):
                    body = dict(body)
                    body["imposters"] = [_add_host(i) for i in body["imposters"]]
                    a["body"] = body
                else:
                    a["body"] = _add_host(body)
            step["errors"] = "full"
            step.pop("select", None)
        elif "imposter" in step and "errors" in step:
            step["errors"] = "full"
    return c


# --------------------------------------------------------------------------
# Generic normalization (applied to both servers' records)
# --------------------------------------------------------------------------

def norm_errors(body):
    """{"errors": [...]}: each error reduced to its type (the reference's `type`, Mountebank's
    `code`) and `message`; the other top-level keys are kept."""
    if not (isinstance(body, dict) and isinstance(body.get("errors"), list)):
        return body
    out = dict(body)
    out["errors"] = [{"type": e.get("type", e.get("code")), "message": e.get("message")}
                     if isinstance(e, dict) else e for e in body["errors"]]
    return out


def norm_timestamps(value):
    if isinstance(value, str):
        return "<TIMESTAMP>" if TS_RE.match(value) else value
    if isinstance(value, list):
        return [norm_timestamps(v) for v in value]
    if isinstance(value, dict):
        return {k: norm_timestamps(v) for k, v in value.items()}
    return value


def select(value, path):
    """Dotted path; `*` maps over a list's items or an object's values (giving a list),
    `*keys` a sorted key list, `*len` a length; a missing step gives "<MISSING>"."""
    parts = path.split(".") if path else []

    def walk(cur, i):
        if i == len(parts):
            return cur
        part = parts[i]
        if part == "*keys":
            return sorted(cur.keys()) if isinstance(cur, dict) else "<NOT AN OBJECT>"
        if part == "*len":
            return len(cur) if isinstance(cur, (list, dict)) else "<NO LENGTH>"
        if part == "*":
            if isinstance(cur, list):
                return [walk(v, i + 1) for v in cur]
            if isinstance(cur, dict):
                return [walk(cur[k], i + 1) for k in sorted(cur)]
            return "<MISSING>"
        if isinstance(cur, list):
            try:
                return walk(cur[int(part)], i + 1)
            except (ValueError, IndexError):
                return "<MISSING>"
        if isinstance(cur, dict) and part in cur:
            return walk(cur[part], i + 1)
        return "<MISSING>"

    return walk(value, 0)


def remove_path(value, parts):
    """Delete the dotted path (with `*`) from value, in place."""
    if not parts or value is None:
        return
    head, rest = parts[0], parts[1:]
    if head == "*":
        keys = range(len(value)) if isinstance(value, list) else list(value) if isinstance(value, dict) else []
    elif isinstance(value, list):
        keys = [int(head)] if head.isdigit() and int(head) < len(value) else []
    elif isinstance(value, dict):
        keys = [head] if head in value else []
    else:
        keys = []
    if not rest:
        if isinstance(value, dict):
            for k in keys:
                value.pop(k, None)
        elif isinstance(value, list):
            for k in sorted(keys, reverse=True):
                value[k] = "<IGNORED>"
        return
    for k in keys:
        remove_path(value[k], rest)


def normalize_record(case, record):
    """The generic rules of this corpus, on a record diffcore.run_case made from a prepared case."""
    wanted = {h.lower() for h in case.get("record_headers", [])}
    for step in record["steps"]:
        src = case["steps"][step["step"]]
        if "headers" in step:
            hs = []
            for name, value in step["headers"]:
                low = name.lower()
                if low == "content-type":
                    hs.append(["content-type", value.split(";")[0].strip().lower()])
                elif low in wanted:
                    hs.append([low, value])
            step["headers"] = sorted(hs)
        if "body" in step:
            body = norm_timestamps(norm_errors(step["body"]))
            is_error = isinstance(body, dict) and "errors" in body
            if "select" in src and not is_error:  # an error answer is always recorded whole
                body = {p: select(body, p) for p in src["select"]}
            step["body"] = body
        for resp in step.get("responses", []):  # wire steps: the same header rule
            resp["headers"] = sorted(["content-type", v.split(";")[0].strip().lower()]
                                     for n, v in resp.get("headers", []) if n == "content-type")
            if "body" in resp:
                resp["body"] = norm_timestamps(norm_errors(resp["body"]))
    return record


# --------------------------------------------------------------------------
# Documented differences (applied at comparison time)
# --------------------------------------------------------------------------

def _error_types(body):
    if isinstance(body, dict) and isinstance(body.get("errors"), list):
        return [e.get("type") if isinstance(e, dict) else e for e in body["errors"]]
    return "<NO ERRORS>"


def documented_status(case, idx):
    """The status an `ours` rule documents for step idx (Rift answers otherwise than the
    reference on purpose), or None."""
    for rule in case.get("differs", []):
        if idx in rule["steps"] and "status" in rule.get("ours", {}):
            return rule["ours"]["status"]
    return None


def apply_differs(case, expected, actual):
    """Returns (expected', actual', ours_failures): copies with the case's `differs` rules
    applied. `ours` rules replace the comparison with the reference for their steps by checks
    of our record alone (each failure is a text)."""
    expected = copy.deepcopy(expected)
    actual = copy.deepcopy(actual)
    failures = []
    esteps = {s["step"]: s for s in expected.get("steps", [])}
    asteps = {s["step"]: s for s in actual.get("steps", [])}
    for rule in case.get("differs", []):
        for idx in rule["steps"]:
            e, a = esteps.get(idx), asteps.get(idx)
            if e is None or a is None:
                continue
            if "ours" in rule:
                for path, want in rule["ours"].items():
                    got = select(a, path)
                    if got != want:
                        failures.append("  step %d: ours %s = %s, documented as %s (%s)" % (
                            idx, path, json.dumps(got), json.dumps(want), rule["reason"]))
                e.clear()
                a.clear()
                e.update({"step": idx, "documented": rule["reason"]})
                a.update({"step": idx, "documented": rule["reason"]})
                continue
            if rule.get("compare") == "status_and_error_type":
                for rec in (e, a):
                    keep = {"step": idx, "request": rec.get("request"), "status": rec.get("status"),
                            "error_types": _error_types(rec.get("body"))}
                    rec.clear()
                    rec.update(keep)
            elif rule.get("compare") not in (None,):
                raise CaseError("%s: unknown compare %r" % (case["name"], rule["compare"]))
            for path in rule.get("ignore", []):
                remove_path(e, path.split("."))
                remove_path(a, path.split("."))
    return expected, actual, failures


def judge(case, expected, record, results, verbose=False):
    """diffcore.judge for this corpus: compares after the case's `differs` rules (apply_differs);
    prints FAIL with the `ours` failures and the diff, or PASS (verbose); appends the name to
    results["fail"] or results["pass"]. Shared by run.py and run_frozen.py."""
    name = case["name"]
    exp, act, ours = apply_differs(case, expected, record)
    d = diffcore.diff_records(exp, act)
    if d or ours:
        results["fail"].append(name)
        print("FAIL %s\n%s" % (name, "\n".join(x for x in ours + [d] if x)))
    else:
        results["pass"].append(name)
        if verbose:
            print("PASS %s" % name)
    sys.stdout.flush()


# --------------------------------------------------------------------------
# Driving a corpus
# --------------------------------------------------------------------------

def run_corpus(make_server, cases, base_port, on_result, send_imposter=None):
    """Run every case on servers made by make_server(admin_port, case_flags);
    on_result(case, normalized_record_or_None, error_or_None). send_imposter: as in
    diffcore.run_corpus (run.py --http2)."""
    diffcore.run_corpus(None, cases, base_port, on_result, make_server=make_server,
                        prepare=prepare, finish=normalize_record, send_imposter=send_imposter)


dumps = diffcore.dumps
