"""Stress of the JIT tier's hot swap (`rift start --engine jit`) under admin edits.

An editor thread replaces, adds, replaces one and deletes an imposter's stubs 2,000 times while
client threads ask it at full speed over keep-alive connections. Every stub answers with the
number of the edit that created it, and the test keeps a model of the stub list after every
edit, so each answer can be checked against the versions that could have been live while its
request was in flight:

  the state after edit k may answer a request sent at time ts and received at time tr iff
  edit k's admin call started before tr (state 0, the imposter as created, always may) and
  edit k+1's call had not returned before ts.

Times are taken on the test's side of the sockets (an edit's start before connecting, its end
after reading the answer; a request's send before writing, its receive after reading), which
only widens each window, so the check needs no timing margin. No-match answers (an empty 200)
are checked the same way: they are valid only when a live state matches no stub for that path.
Each connection must also never go back to an older state than one it has already observed, and
a stub with several responses must cycle through them evenly (one counter, whatever tier
matched), across swaps and the edits of other stubs.

Now and then the editor pauses for part of a JIT compile, makes one edit while that compile is
probably still running, and pauses again, so that a compile made stale by the edit would be
swapped in and asked if rift let it; every 250 edits it waits until the JIT serves the current
version, so the JIT really serves during the run. After the edits the JIT must serve the last
version, rift must still run, and it must exit cleanly on SIGTERM (the harness stops it and
fails on a sanitizer report). A smaller test checks that after each of 200 sequential edits the
very next request sees it, whatever tier serves, also after an edit that raced a compile; a
third deletes and re-creates an imposter on one port while its compiles run.

RIFT_STRESS_SEED=N repeats a run's edits (the seed is printed at the start).
"""
import bisect
import os
import random
import re
import socket
import sys
import threading
import time
import unittest

from harness import Rift

ENGINE = ("--engine", "jit")
PATHS = ["/p0", "/p1", "/p2", "/p3", "/p4", "/p5", "/p6", "/p7", "/p10", "/q1", "/zz"]
EDITS = 2000
CLIENTS = 4
SYNC_EVERY = 250           # edits between waits for the JIT to serve the current version
JIT_TIMEOUT = 120.0        # generous: a compile under ASan on a loaded machine
PAUSE_BUDGET = 12.0        # seconds the editor may spend pausing between edits in total
SEED = int(os.environ.get("RIFT_STRESS_SEED", "0")) or random.randrange(1, 1 << 30)


# --- the model: stubs with a path predicate the test can evaluate itself ----------------------

class Stub:
    """One stub: its Mountebank JSON, the answer it gives, and whether it matches a GET path."""

    def __init__(self, label, predicates, matches, what, responses=1):
        self.label = label
        self.what = what
        self.matches = matches
        self.responses = responses
        bodies = [label] if responses == 1 else [f"{label} #{r}" for r in range(responses)]
        self.json = {"responses": [{"is": {"body": body}} for body in bodies]}
        if predicates is not None:
            self.json["predicates"] = predicates


def random_predicate(rnd):
    """(predicates or None, matches(path), description); every value is lower case."""
    p = rnd.choice(["/p0", "/p1", "/p2", "/p3", "/p4", "/p5", "/p6", "/p7", "/p10", "/q1"])
    kinds = [
        (50, lambda: ([{"equals": {"path": p}}], lambda x: x == p, f"path={p}")),
        (8, lambda: ([{"equals": {"method": "GET", "path": p}}], lambda x: x == p, f"GET {p}")),
        (4, lambda: ([{"equals": {"method": "POST", "path": p}}], lambda x: False, f"POST {p}")),
        (4, lambda: ([{"startsWith": {"path": "/p1"}}], lambda x: x.startswith("/p1"), "/p1*")),
        (3, lambda: ([{"startsWith": {"path": "/q"}}], lambda x: x.startswith("/q"), "/q*")),
        (4, lambda: ([{"endsWith": {"path": "0"}}], lambda x: x.endswith("0"), "*0")),
        (3, lambda: ([{"contains": {"path": "p"}}], lambda x: "p" in x, "*p*")),
        (4, lambda: ([{"matches": {"path": "^/p[0-3]$"}}],
                     lambda x: re.search("^/p[0-3]$", x) is not None, "/p[0-3]")),
        (4, lambda: ([{"or": [{"equals": {"path": "/p2"}}, {"equals": {"path": "/p5"}}]}],
                     lambda x: x in ("/p2", "/p5"), "/p2|/p5")),
        (2, lambda: ([{"not": {"startsWith": {"path": "/p"}}}],
                     lambda x: not x.startswith("/p"), "not /p*")),
        (3, lambda: ([{"equals": {"path": p}}, {"contains": {"path": p[-1]}}],
                     lambda x: x == p, f"path={p}&*{p[-1]}*")),
        (2, lambda: (None, lambda x: True, "any")),
    ]
    total = sum(weight for weight, _ in kinds)
    pick = rnd.uniform(0, total)
    for weight, make in kinds:
        pick -= weight
        if pick <= 0:
            return make()
    return kinds[0][1]()


def new_stub(rnd, edit, ordinal):
    predicates, matches, what = random_predicate(rnd)
    responses = rnd.choice([2, 3]) if rnd.random() < 0.2 else 1
    return Stub(f"v{edit}.{ordinal} {what}", predicates, matches, what, responses)


def answer(stubs, path):
    """What a first-match scan answers for GET `path`: the first matching stub's body, else ''."""
    for stub in stubs:
        if stub.matches(path):
            return stub.label
    return ""


def split_cycle(body):
    """'v12.0 path=/p1 #2' -> ('v12.0 path=/p1', 2): the stub's label and which response."""
    label, sep, position = body.rpartition(" #")
    return (label, int(position)) if sep and position.isdigit() else (body, None)


def edit_of(body):
    found = re.match(r"v(\d+)\.", body)
    return int(found.group(1)) if found else None


# --- a keep-alive HTTP/1.1 client on a raw socket ---------------------------------------------

class Connection:
    def __init__(self, port, timeout=30.0):
        self.port = port
        self.timeout = timeout
        self.sock = None
        self.buf = b""

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        self.buf = b""

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection before answering")
        self.buf += chunk

    def _take_line(self):
        while b"\r\n" not in self.buf:
            self._fill()
        line, _, self.buf = self.buf.partition(b"\r\n")
        return line

    def _take(self, n):
        while len(self.buf) < n:
            self._fill()
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def get(self, path):
        """Returns (status, body); reconnects when the previous answer closed the connection."""
        if self.sock is None:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
        status = int(self._take_line().split(b" ")[1])
        headers = {}
        while True:
            line = self._take_line()
            if not line:
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            body = self._take(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self._take_line().split(b";")[0], 16)
                if size == 0:
                    while self._take_line():  # trailers, then the blank line
                        pass
                    break
                body += self._take(size)
                self._take(2)
        else:  # framed by close
            try:
                while True:
                    self._fill()
            except ConnectionError:
                pass
            body, self.buf = self.buf, b""
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, body.decode()


# --- helpers ----------------------------------------------------------------------------------

def metric(rift, name):
    """The sum of a Prometheus counter's samples (any labels), or None when it is absent."""
    status, _, text = rift.admin("GET", "/metrics")
    assert status == 200, status
    text = text.decode() if isinstance(text, bytes) else str(text)
    total, seen = 0.0, False
    for line in text.splitlines():
        if line.startswith(name) and (line[len(name)] in " {"):
            total += float(line.rsplit(" ", 1)[1])
            seen = True
    return total if seen else None


def plan(rift, port):
    status, _, body = rift.admin("GET", f"/imposters/{port}/plan")
    assert status == 200, (status, body)
    return body["tier"], body.get("planVersion")


def wait_for_jit(rift, port, version, timeout=JIT_TIMEOUT):
    """Waits until the JIT serves `version` of the imposter's plan; returns the seconds taken."""
    start = time.monotonic()
    last = None
    while time.monotonic() - start < timeout:
        last = plan(rift, port)
        if last == ("jit", version):
            return time.monotonic() - start
        time.sleep(0.005)
    raise AssertionError(f"the JIT did not serve plan version {version} within {timeout:.0f} s "
                         f"(last seen: tier {last[0]!r}, planVersion {last[1]})")


def alive(rift):
    return rift.process.poll() is None


def log_tail(rift):
    rift.log.flush()
    with open(rift.log.name, errors="replace") as log:
        return log.read()[-4000:]


def assert_alive(test, rift, when):
    test.assertTrue(alive(rift),
                    f"rift died {when} (exit {rift.process.poll()}):\n{log_tail(rift)}")


class Editor:
    """Applies random edits through the admin API, recording each edit's state and call times."""

    def __init__(self, rift, port, stubs, rnd):
        self.rift = rift
        self.port = port
        self.rnd = rnd
        self.stubs = list(stubs)
        self.states = [tuple(self.stubs)]   # states[k]: the stub list after edit k
        self.starts = []                    # starts[k-1], ends[k-1]: edit k's admin call
        self.ends = []
        self.kinds = []

    def edit(self):
        """Makes one random edit; returns its number."""
        k = len(self.states)
        rnd, n = self.rnd, len(self.stubs)
        base = f"/imposters/{self.port}/stubs"
        weights = {"replace": 10, "add": 35, "put": 20, "delete": 35}
        if n < 4:
            weights["delete"] = 3
        elif n > 24:
            weights["add"] = 5
        if n == 0:
            weights["put"] = weights["delete"] = 0
        kind = rnd.choices(list(weights), list(weights.values()))[0]
        stubs = list(self.stubs)
        if kind == "replace":
            stubs = [new_stub(rnd, k, j) for j in range(rnd.randint(0, 12))]
            call = ("PUT", base, {"stubs": [s.json for s in stubs]})
        elif kind == "add":
            stub = new_stub(rnd, k, 0)
            if rnd.random() < 0.3:
                index = n
                call = ("POST", base, {"stub": stub.json})
            else:
                index = rnd.randint(0, n)
                call = ("POST", base, {"index": index, "stub": stub.json})
            stubs.insert(index, stub)
        elif kind == "put":
            index = rnd.randrange(n)
            stubs[index] = new_stub(rnd, k, 0)
            call = ("PUT", f"{base}/{index}", stubs[index].json)
        else:
            index = rnd.randrange(n)
            del stubs[index]
            call = ("DELETE", f"{base}/{index}")
        # Recorded before the call: if it fails half way, the server may have applied the edit
        # (it stays "in progress" for ever), so answers from it are not counted against rift.
        self.stubs = stubs
        self.starts.append(time.monotonic())
        self.ends.append(float("inf"))
        self.states.append(tuple(stubs))
        self.kinds.append(kind)
        status, _, reply = self.rift.admin(*call)
        if status != 200:
            raise AssertionError(f"edit {k}: {call[0]} {call[1]} -> {status} {reply}")
        self.ends[-1] = time.monotonic()
        return k


class Checker:
    """Which states each observation may come from (see the module docstring)."""

    def __init__(self, editor, t0):
        self.ed = editor
        self.t0 = t0
        self.table = {p: [answer(state, p) for state in editor.states] for p in PATHS}

    def window(self, sent, received):
        lo = bisect.bisect_right(self.ed.ends, sent)        # edits 1..lo had returned when sent
        hi = bisect.bisect_left(self.ed.starts, received)   # edits 1..hi had started when received
        return lo, max(lo, hi)

    def states_for(self, path, body, lo, hi):
        column = self.table[path]
        return [k for k in range(lo, hi + 1) if column[k] == body]

    def ms(self, t):
        return f"{(t - self.t0) * 1000:.1f} ms"

    def describe(self, client, path, sent, received, body, lo, hi, why):
        ed = self.ed
        lines = [f"client {client}: GET {path} sent {self.ms(sent)}, received {self.ms(received)}, "
                 f"answered {body!r} ({why})",
                 f"    live states: {lo}..{hi} (edit {lo} returned "
                 f"{self.ms(ed.ends[lo - 1]) if lo else 'n/a'}); valid answers: "
                 f"{sorted(set(self.table[path][lo:hi + 1]))!r}"]
        k = edit_of(body)
        if body == "":
            empty = [j for j, a in enumerate(self.table[path]) if a == ""]
            near = [j for j in empty if abs(j - lo) < 50][:10]
            lines.append(f"    states answering '' for {path} near {lo}: {near}")
        elif k == 0:
            lines.append("    from the imposter as created")
        elif k is not None and 0 < k <= len(ed.starts):
            lines.append(f"    edit {k} ({ed.kinds[k - 1]}) ran {self.ms(ed.starts[k - 1])}.."
                         f"{self.ms(ed.ends[k - 1])}; states answering it: "
                         f"{[j for j, a in enumerate(self.table[path]) if a == body][:10]}")
        for j in range(max(1, lo - 1), min(len(ed.starts), hi + 1) + 1):
            lines.append(f"    edit {j} ({ed.kinds[j - 1]}): {self.ms(ed.starts[j - 1])}.."
                         f"{self.ms(ed.ends[j - 1])} -> {path} answers {self.table[path][j]!r}")
        return "\n".join(lines)


# --- the tests ----------------------------------------------------------------------------------

class JitHotSwapStressTest(unittest.TestCase):
    maxDiff = None

    def test_answers_come_from_a_live_version_while_stubs_change(self):
        rnd = random.Random(SEED)
        print(f"\n[seed {SEED}: RIFT_STRESS_SEED={SEED} repeats this run's edits]", file=sys.stderr)
        with Rift(*ENGINE, "--keepAlive") as rift:
            initial = [new_stub(rnd, 0, j) for j in range(8)]
            port = rift.create({"protocol": "http", "stubs": [s.json for s in initial]})["port"]
            # The imposter as created, served by the JIT, is where every run starts.
            _, version0 = plan(rift, port)
            self.assertIsInstance(version0, int, "GET /imposters/{port}/plan has no planVersion")
            first_compile = wait_for_jit(rift, port, version0)

            editor = Editor(rift, port, initial, rnd)
            stop = threading.Event()
            observations = [[] for _ in range(CLIENTS)]
            errors = []

            def client(i):
                crnd = random.Random(SEED + i + 1)
                conn = Connection(port)
                out = observations[i]
                try:
                    while not stop.is_set():
                        path = crnd.choice(PATHS)
                        sent = time.monotonic()
                        status, body = conn.get(path)
                        received = time.monotonic()
                        out.append((sent, received, path, status, body))
                except Exception as e:  # noqa: BLE001 - reported below, with the time
                    errors.append(f"client {i} at {(time.monotonic() - t0) * 1000:.1f} ms: "
                                  f"{type(e).__name__}: {e}")
                finally:
                    conn.close()

            # Now and then the editor pauses for part of a compile, makes one edit while that
            # compile is (probably) still running, and pauses again so that if the compile's
            # now stale result were swapped in, the clients would ask it. The compile time is
            # re-measured under load at every wait for the JIT.
            pace = random.Random(SEED + 100)  # apart from the edits' generator: timing steers it
            measured = [max(first_compile, 0.01)]
            paused = 0.0
            t0 = time.monotonic()
            threads = [threading.Thread(target=client, args=(i,), daemon=True)
                       for i in range(CLIENTS)]
            for t in threads:
                t.start()
            syncs, jit_waits, racing = 0, [], False
            run_error = None
            try:
                for k in range(1, EDITS + 1):
                    editor.edit()
                    if errors or not alive(rift):
                        break
                    compile_time = sum(measured) / len(measured)
                    if k % SYNC_EVERY == 0:
                        jit_waits.append(wait_for_jit(rift, port, version0 + k))
                        measured.append(max(jit_waits[-1], 0.01))
                        syncs += 1
                        racing = False
                        continue
                    if racing:  # this edit raced a compile: give a stale swap time to show
                        pause = pace.uniform(0.5, 1.5) * compile_time
                        racing = False
                    elif pace.random() < (PAUSE_BUDGET - paused) / (
                            (EDITS - k + 1) * 1.6 * compile_time):
                        pause = pace.uniform(0.2, 1.0) * compile_time
                        racing = True
                    else:
                        continue
                    time.sleep(pause)
                    paused += pause
            except Exception as e:  # noqa: BLE001 - reported after the answers so far are checked
                run_error = (f"the editor failed at edit {len(editor.starts)}: "
                             f"{type(e).__name__}: {e}")
            finally:
                edits_done = time.monotonic()
                time.sleep(0.05)
                stop.set()
                for t in threads:
                    t.join(60)
            elapsed = time.monotonic() - t0

            # Every answer against the states live while it was in flight.
            checker = Checker(editor, t0)
            violations, total, no_match = [], 0, 0
            cycles = {}  # stub label -> how often each of its responses was served
            versions = set()
            for i, obs in enumerate(observations):
                floor = 0   # the oldest state this connection may still observe
                for sent, received, path, status, body in obs:
                    total += 1
                    lo, hi = checker.window(sent, received)
                    if status != 200:
                        violations.append(checker.describe(i, path, sent, received, body, lo, hi,
                                                           f"status {status}"))
                        continue
                    label, position = split_cycle(body)
                    no_match += body == ""
                    versions.add(edit_of(label))
                    if position is not None:
                        cycles.setdefault(label, {}).setdefault(position, 0)
                        cycles[label][position] += 1
                    states = checker.states_for(path, label, lo, hi)
                    if not states:
                        violations.append(checker.describe(i, path, sent, received, body, lo, hi,
                                                           "not from a live state"))
                        continue
                    later = [k for k in states if k >= floor]
                    if not later:
                        violations.append(checker.describe(
                            i, path, sent, received, body, lo, hi,
                            f"older than state {floor}, which this connection had already seen"))
                        continue
                    floor = later[0]

            mix = ", ".join(f"{editor.kinds.count(k)} {k}"
                            for k in ("replace", "add", "put", "delete"))
            waits = ", ".join("%.0f ms" % (w * 1000) for w in jit_waits)
            print(f"[{len(editor.starts)} edits ({mix}) in {edits_done - t0:.1f} s, paused "
                  f"{paused:.1f} s, {syncs} waits for the JIT ({waits}"
                  f"; the first compile {first_compile * 1000:.0f} ms); {total} requests from "
                  f"{CLIENTS} clients in {elapsed:.1f} s, {no_match} of them no-match, naming "
                  f"{len(versions - {None})} versions and {len(cycles)} cycling stubs]",
                  file=sys.stderr)
            problems = []
            if not alive(rift):
                problems.append(f"rift died (exit {rift.process.poll()}):\n{log_tail(rift)}")
            if run_error:
                problems.append(run_error)
            problems += errors[:5]
            if violations:
                problems.append(f"{len(violations)} of {total} answers came from no live version "
                                f"(times from the first edit's start); the first ones:\n" +
                                "\n".join(violations[:5]))
            if problems:
                self.fail(f"seed {SEED} (RIFT_STRESS_SEED={SEED} repeats the edits):\n" +
                          "\n".join(problems))
            self.assertEqual(len(editor.starts), EDITS)

            # After the edits stop, the JIT serves the last version, and every path answers it.
            settle = wait_for_jit(rift, port, version0 + EDITS)
            final = Connection(port)
            finals = {}
            for p in PATHS:
                status, body = final.get(p)
                label, position = split_cycle(body)
                finals[p] = (status, label)
                if position is not None:
                    cycles.setdefault(label, {}).setdefault(position, 0)
                    cycles[label][position] += 1
            final.close()
            tier = plan(rift, port)
            swaps = metric(rift, "rift_jit_swaps_total")
            compiles = metric(rift, "rift_jit_compiles_total")
            discarded = metric(rift, "rift_jit_discarded_total")
            print(f"[settled {settle * 1000:.0f} ms after the last edit; JIT compiles {compiles}, "
                  f"swaps {swaps}, discarded {discarded}]", file=sys.stderr)
            self.assertEqual(finals, {p: (200, answer(editor.states[-1], p)) for p in PATHS},
                             "answers after the edits stopped")
            self.assertEqual(tier, ("jit", version0 + EDITS), "the plan after the edits stopped")
            # A stub's responses cycle through one counter whatever tier matches, so across all
            # clients each response was served as often as the next, or once more.
            uneven = {label: [counts.get(r, 0) for r in range(max(counts) + 1)]
                      for label, counts in cycles.items()}
            uneven = {label: c for label, c in uneven.items()
                      if any(c[r] < c[r + 1] for r in range(len(c) - 1)) or c[0] - c[-1] > 1}
            self.assertEqual(uneven, {}, "response cycles that skipped or repeated a response")
            self.assertGreater(total, 1000, "the clients hardly ran")
            self.assertIsNotNone(swaps, "GET /metrics has no rift_jit_swaps_total")
            self.assertIsNotNone(compiles, "GET /metrics has no rift_jit_compiles_total")
            # Each wait for the JIT needed a swap, and so did the imposter as created.
            self.assertGreaterEqual(swaps, syncs + 1, "the JIT hardly swapped in")
            self.assertGreaterEqual(compiles, swaps)
            assert_alive(self, rift, "after the run")

    def test_every_edit_is_visible_to_the_next_request(self):
        rnd = random.Random(SEED ^ 0x5EED)
        with Rift(*ENGINE, "--keepAlive") as rift:
            initial = [new_stub(rnd, 0, j) for j in range(6)]
            port = rift.create({"protocol": "http", "stubs": [s.json for s in initial]})["port"]
            _, version0 = plan(rift, port)
            compile_time = wait_for_jit(rift, port, version0)
            editor = Editor(rift, port, initial, rnd)
            conn = Connection(port)
            self.addCleanup(conn.close)
            served = {}  # stub label -> responses served so far: one client, so cycles are exact

            def ask_all(when):
                for path in PATHS:
                    stub = next((s for s in editor.stubs if s.matches(path)), None)
                    want = ""
                    if stub is not None:
                        n = served.get(stub.label, 0)
                        served[stub.label] = n + 1
                        want = stub.label if stub.responses == 1 else \
                            f"{stub.label} #{n % stub.responses}"
                    got = conn.get(path)
                    if got != (200, want):
                        tier, version = plan(rift, port)
                        self.fail(f"GET {path} {when} (edit {k}: {editor.kinds[-1]}) answered "
                                  f"{got!r}, not {(200, want)!r}; the plan now: {tier}, version "
                                  f"{version} (edit {k} made {version0 + k}); seed {SEED}")

            tiers = {}
            for k in range(1, 201):
                editor.edit()
                ask_all("right after")
                if k % 8 == 1:
                    # The next edit lands while this one compiles ...
                    time.sleep(rnd.uniform(0.2, 1.0) * compile_time)
                elif k % 8 == 2:
                    # ... and the compile, now stale, must not serve once it is done.
                    time.sleep(rnd.uniform(0.5, 1.5) * compile_time)
                    tier = plan(rift, port)[0]
                    tiers[tier] = tiers.get(tier, 0) + 1
                    ask_all("a while after")
            wait_for_jit(rift, port, version0 + 200)
            k = 200
            ask_all("once the JIT served the last edit")
            conn.close()
            print(f"[200 edits; the tier a while after the edits that raced a compile: {tiers}]",
                  file=sys.stderr)
            assert_alive(self, rift, "")


    def test_imposters_deleted_and_recreated_while_compiling(self):
        """An imposter's compile may still run when it is deleted, or when a new imposter takes
        its port (and perhaps its address): neither may crash rift or serve the old stubs."""
        rnd = random.Random(SEED ^ 0xDE1)
        with Rift(*ENGINE, "--keepAlive") as rift:
            port = rift.create({"protocol": "http", "stubs": []})["port"]
            _, version0 = plan(rift, port)
            compile_time = wait_for_jit(rift, port, version0)
            self.assertEqual(rift.admin("DELETE", f"/imposters/{port}")[0], 200)
            for round_ in range(40):
                stubs = [new_stub(rnd, round_, j) for j in range(rnd.randint(1, 8))]
                rift.create({"protocol": "http", "port": port, "stubs": [s.json for s in stubs]})
                for k in range(rnd.randint(0, 3)):
                    stubs = [new_stub(rnd, round_, 100 + k)] + stubs
                    status, _, body = rift.admin("POST", f"/imposters/{port}/stubs",
                                                 {"index": 0, "stub": stubs[0].json})
                    self.assertEqual(status, 200, body)
                # Delete before, during or after the compile.
                time.sleep(rnd.uniform(0, 1.5 * compile_time))
                conn = Connection(port)
                self.addCleanup(conn.close)
                for path in PATHS:
                    status, body = conn.get(path)
                    self.assertEqual((status, split_cycle(body)[0]), (200, answer(stubs, path)),
                                     f"round {round_}: GET {path}; seed {SEED}")
                conn.close()
                self.assertEqual(rift.admin("DELETE", f"/imposters/{port}")[0], 200)
            assert_alive(self, rift, "while imposters came and went")
            stubs = [new_stub(rnd, 999, j) for j in range(5)]
            rift.create({"protocol": "http", "port": port, "stubs": [s.json for s in stubs]})
            wait_for_jit(rift, port, plan(rift, port)[1])
            conn = Connection(port)
            self.addCleanup(conn.close)
            seen = {}
            for p in PATHS:
                status, body = conn.get(p)
                seen[p] = (status, split_cycle(body)[0])
            self.assertEqual(seen, {p: (200, answer(stubs, p)) for p in PATHS})
            conn.close()
            assert_alive(self, rift, "")


if __name__ == "__main__":
    unittest.main()
