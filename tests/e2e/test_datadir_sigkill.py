"""--datadir durability: SIGKILL at random moments during a stream of admin writes, 200 times.

Each round starts `rift --datadir D`, checks that the imposters it loaded are exactly the ones
acknowledged before the last kill, sends a stream of admin writes (create, every stub edit,
delete, replace all) and kills the server with SIGKILL after a random delay. The write in flight
when it died may be there or not; every acknowledged one must be, intact, and nothing else.
A half-written file that got loaded would show as a refused start or as an imposter that is
neither its acknowledged state nor the in-flight one.

Deterministic in what it asserts: round r draws its writes and its kill delay from
Random(seed, r) (the seed is printed; RIFT_DURABILITY_SEED replays one). Timing only decides how
many of those writes are acknowledged before the kill, and the invariant holds for any number.
RIFT_DURABILITY_ROUNDS changes the number of rounds (default 200); RIFT_TEST_PORT_BASE puts
every port the test uses in [base, base+1000).
"""
import json
import os
import random
import shutil
import signal
import tempfile
import threading
import unittest

from harness import Rift, port_free, request

SEED = int(os.environ.get("RIFT_DURABILITY_SEED", "20261203"))
ROUNDS = int(os.environ.get("RIFT_DURABILITY_ROUNDS", "200"))
IMPOSTER_PORTS = 4
MAX_KILL_DELAY = 0.25  # seconds into the write stream


def stable_ports(count):
    """Ports below the ephemeral range: no client connection can be holding one when the server
    restarts and binds it again."""
    base = os.environ.get("RIFT_TEST_PORT_BASE")
    if base:
        candidates = list(range(int(base), int(base) + 1000))
    else:
        low = 32768
        try:
            with open("/proc/sys/net/ipv4/ip_local_port_range") as ports:
                low = int(ports.read().split()[0])
        except OSError:
            pass
        candidates = random.Random().sample(range(10000, max(low, 11000)), 500)
    chosen = [port for port in candidates if port_free(port)][:count]
    if len(chosen) < count:
        raise RuntimeError("no free ports")
    return chosen


def stubs_for(rng, tag, count):
    # Bodies up to a few KB make each write long enough for kills to land inside some of them.
    return [{"predicates": [{"equals": {"path": f"/{tag}/{i}"}}],
             "responses": [{"is": {"body": tag + "-" + "x" * rng.randint(0, 4000)}}]}
            for i in range(count)]


def digest(imposter):
    """What must survive: the name and every stub's path and body, in order."""
    return (imposter.get("name"),
            tuple((s["predicates"][0]["equals"]["path"], s["responses"][0]["is"]["body"])
                  for s in imposter["stubs"]))


class Write:
    """One admin call and the state of every port it touches if it is acknowledged."""

    def __init__(self, method, path, body, status, after):
        self.method, self.path, self.body, self.status = method, path, body, status
        self.after = after  # port -> digest, None for absent


def next_write(rng, model, ports, serial):
    """Draws a write that is valid for `model` (port -> digest)."""
    tag = f"w{serial}"
    present = sorted(model)
    absent = [p for p in ports if p not in model]
    choices = ["post"] * 3 if absent else []
    if present:
        choices += ["put_stubs", "post_stub", "put_stub", "delete_stub", "delete"] * 2
    choices += ["put_all", "delete_all"]
    kind = rng.choice(choices)

    def imposter(port):
        doc = {"protocol": "http", "port": port, "name": tag, "recordRequests": False,
               "stubs": stubs_for(rng, f"{tag}p{port}", rng.randint(0, 12))}
        return doc, digest(doc)

    if kind == "post":
        port = rng.choice(absent)
        doc, state = imposter(port)
        return Write("POST", "/imposters", doc, 201, {port: state})
    if kind == "put_all":
        docs = [imposter(p) for p in sorted(rng.sample(ports, rng.randint(0, len(ports))))]
        after = {p: None for p in ports}
        after.update({doc["port"]: state for doc, state in docs})
        return Write("PUT", "/imposters", {"imposters": [doc for doc, _ in docs]}, 200, after)
    if kind == "delete_all":
        return Write("DELETE", "/imposters", None, 200, {p: None for p in ports})
    port = rng.choice(present)
    name, stubs = model[port]
    stubs = list(stubs)
    if kind == "delete":
        return Write("DELETE", f"/imposters/{port}", None, 200, {port: None})
    if kind == "put_stubs":
        new = stubs_for(rng, f"{tag}p{port}", rng.randint(0, 12))
        return Write("PUT", f"/imposters/{port}/stubs", {"stubs": new}, 200,
                     {port: (name, digest({"stubs": new})[1])})
    if kind == "post_stub" or not stubs:
        new = stubs_for(rng, f"{tag}p{port}", 1)[0]
        index = rng.randint(0, len(stubs))
        stubs.insert(index, digest({"stubs": [new]})[1][0])
        return Write("POST", f"/imposters/{port}/stubs", {"index": index, "stub": new}, 200,
                     {port: (name, tuple(stubs))})
    index = rng.randrange(len(stubs))
    if kind == "put_stub":
        new = stubs_for(rng, f"{tag}p{port}", 1)[0]
        stubs[index] = digest({"stubs": [new]})[1][0]
        return Write("PUT", f"/imposters/{port}/stubs/{index}", new, 200,
                     {port: (name, tuple(stubs))})
    del stubs[index]
    return Write("DELETE", f"/imposters/{port}/stubs/{index}", None, 200,
                 {port: (name, tuple(stubs))})


class SigkillDurability(unittest.TestCase):
    def test_every_acknowledged_write_survives_sigkill(self):
        print(f"durability seed {SEED}, {ROUNDS} rounds (RIFT_DURABILITY_SEED={SEED} replays)",
              flush=True)
        folder = tempfile.mkdtemp(prefix="rift-durability-")
        data = os.path.join(folder, "data")
        admin_port, *ports = stable_ports(IMPOSTER_PORTS + 1)
        model = {}  # port -> digest: what is acknowledged
        pending = None  # the write in flight at the last kill
        acknowledged = 0
        self.in_flight_applied = 0  # kills after a write was done but before its answer arrived
        try:
            for round_number in range(ROUNDS):
                rng = random.Random(f"{SEED}-{round_number}")
                context = f"seed {SEED}, round {round_number}"
                rift = Rift("--datadir", data, "--engine", "interp")
                rift.port = admin_port
                try:
                    rift.__enter__()
                except RuntimeError as error:
                    self.fail(f"{context}: rift did not restart: {error}")
                rift.expect_exit = True
                try:
                    model = self.check_loaded(rift, model, pending, ports, data, context)
                    delay = rng.uniform(0, MAX_KILL_DELAY)
                    killer = threading.Timer(delay, os.kill, (rift.process.pid, signal.SIGKILL))
                    killer.start()
                    pending, done = self.write_until_killed(rift, rng, model, ports, round_number,
                                                            context)
                    acknowledged += done
                    killer.join()
                    rift.process.wait()
                finally:
                    if rift.process.poll() is None:
                        rift.process.kill()
                        rift.process.wait()
                    rift.__exit__(None, None, None)
                    shutil.rmtree(rift.dir, ignore_errors=True)
            print(f"{acknowledged} acknowledged writes across {ROUNDS} kills; "
                  f"{self.in_flight_applied} unacknowledged writes found applied", flush=True)
            self.assertGreater(acknowledged, ROUNDS // 4)  # the stream did write
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def write_until_killed(self, rift, rng, model, ports, round_number, context):
        """Sends writes until the server dies; returns the unacknowledged one and the count."""
        done = 0
        while True:
            write = next_write(rng, model, ports, f"{round_number}-{done}")
            payload = b"" if write.body is None else json.dumps(write.body).encode()
            try:
                status, _, body = request(rift.port, write.method, write.path, payload)
            except Exception:  # killed: refused, reset, or a response cut short
                return write, done
            self.assertEqual(status, write.status,
                             f"{context}: {write.method} {write.path} answered {body[:300]!r}")
            for port, state in write.after.items():
                if state is None:
                    model.pop(port, None)
                else:
                    model[port] = state
            done += 1

    def check_loaded(self, rift, model, pending, ports, data, context):
        """Every port holds its acknowledged state, or the one the write in flight would have
        left; returns what was loaded as the new model."""
        status, _, body = rift.admin("GET", "/imposters?replayable=true")
        self.assertEqual(status, 200)
        loaded = {imposter["port"]: digest(imposter) for imposter in body["imposters"]}
        self.assertLessEqual(set(loaded), set(ports), context)
        for port in ports:
            allowed = [model.get(port)]
            if pending is not None and port in pending.after:
                allowed.append(pending.after[port])
            self.assertIn(loaded.get(port), allowed,
                          f"{context}: port {port} holds neither its acknowledged state nor the "
                          f"one {pending.method + ' ' + pending.path if pending else 'no write'} "
                          f"in flight would leave")
        if pending is not None and any(loaded.get(port) != model.get(port)
                                       for port in pending.after):
            self.in_flight_applied += 1
        for root, _, files in os.walk(data):
            for name in files:
                self.assertFalse(name.endswith(".tmp"), f"{context}: {root}/{name} left behind")
        return loaded


if __name__ == "__main__":
    unittest.main()
