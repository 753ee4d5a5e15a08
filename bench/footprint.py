#!/usr/bin/env python3
"""Memory, start-up and admin-plane cost of Rift against Mountebank 2.9.1 (issue 6, items 4-5).

  python3 bench/footprint.py --rift build/bin/rift --riftc build/bin/riftc
  python3 bench/footprint.py --servers interp,mb --admin-reps 3 --admin-port 47000 --offset 43000

For each server (one at a time, pinned to --server-core with taskset, in its own session):

- **start-up**: exec -> the first request answered 200 by an imposter (the Simple imposter's
  `/health`), the client polling connect on --client-core. `rift`/`mb` load the fixture with
  --configfile for this; the frozen binary has it built in.
- **RSS**: the server restarted without a config, the 14 benchmark imposters POSTed
  (bench/fixture.py), --settle seconds later Rss / Pss_Anon / Pss_File from /proc/PID/smaps_rollup
  (summed over the server's process tree) and its thread count.
- **admin**: on that server, POST /imposters of one imposter with --stubs exact-path stubs and
  GET /imposters/:port of it (client wall time over a kept-alive connection, median of
  --admin-reps), then DELETE.

Servers: `interp` (rift start --engine interp), `auto` (rift start: the JIT when the build has it),
`frozen` (a binary `riftc compile` builds from the fixture), `mb` (Mountebank). Ratios are
Mountebank's figure over Rift's. Writes bench/results/footprint-<time>.md and .json.
Standard library only (plus taskset, and node for Mountebank).
"""
import argparse
import datetime
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "tools", "pylib"))
import fixture  # noqa: E402  (bench/fixture.py: the benchmark workload)
import rift_process  # noqa: E402  (tools/pylib/rift_process.py: server processes, ports, /proc)
import run as harness  # noqa: E402  (bench/run.py: host description, /proc CPU accounting)

SIMPLE_BASE_PORT = 4545  # the Simple imposter answers GET /health with 200 "OK"
BIG_BASE_PORT = 4590  # the 10,000-stub imposter of the admin timing
SERVERS = ("interp", "auto", "frozen", "mb")
TARGET_RSS_MB = 30.0
TARGET_STARTUP_MS = 10.0
TARGET_POST_MS = 100.0
TARGET_GET_MS = 50.0
CT_JSON = {"Content-Type": "application/json"}


class Abort(Exception):
    pass


def log(msg):
    print(f"[footprint] {msg}", file=sys.stderr, flush=True)


def default_binary(name):
    for rel in (f"build/bin/{name}", f"build-cg/bin/{name}"):
        path = os.path.join(REPO, rel)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return os.path.join(REPO, f"build/bin/{name}")


def default_mb():
    for rel in ("tests/diff/node_modules/mountebank/bin/mb", "tests/diff/node_modules/.bin/mb"):
        path = os.path.join(REPO, rel)
        if os.path.exists(path):
            return path
    return None


def fmt(x, nd=1):
    return "-" if x is None else f"{x:,.{nd}f}"


def ratio(mb, rift):
    if mb is None or rift is None or rift <= 0:
        return "-"
    return f"{mb / rift:,.1f}x"


# ---------------------------------------------------------------------------------------------
# /proc


def memory(sid):
    """Rss / Pss_Anon / Pss_File in MiB and the thread count, over every process of a session."""
    total = {"Rss": 0, "Pss_Anon": 0, "Pss_File": 0}
    threads = 0
    for pid in rift_process.session_pids(sid):
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    key, _, rest = line.partition(":")
                    if key in total:
                        total[key] += int(rest.split()[0])
            threads += len(os.listdir(f"/proc/{pid}/task"))
        except OSError:
            continue
    out = {k: v / 1024.0 for k, v in total.items()}
    out["threads"] = threads
    return out


# ---------------------------------------------------------------------------------------------
# Servers


def start_server(argv, args, workdir, name):
    """One server process in its own session, pinned with taskset (unless --server-core none),
    appending to workdir/<name>.log; stop() kills it with its group (tools/pylib/rift_process.py)."""
    cpu = None if args.server_core == "none" else args.server_core
    return rift_process.ServerProcess(argv, workdir=workdir, log_name=f"{name}.log", name=name,
                                      cpu=cpu, append=True, grace=10).start()


def wait_first_200(server, port, path="/health", timeout=60.0):
    """Milliseconds from exec to the first 200 on port, polling connect without pause."""
    request = f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if not server.alive():
            raise Abort(f"{server.name} exited before answering (see its log)")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(request)
                data = b""
                while b"\r\n" not in data:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                if data.startswith(b"HTTP/1.1 200"):
                    wall = (time.perf_counter() - server.started_at) * 1000.0
                    return wall, cpu_ms(server.pid)
        except OSError:
            pass
    raise Abort(f"{server.name}: no 200 on port {port} within {timeout} s")


def wait_admin(server, port, timeout=60.0):
    try:
        server.wait_ready(lambda: rift_process.http_status(port, "/imposters", timeout=5),
                          timeout=timeout, interval=0.01)
    except rift_process.ServerError as e:
        raise Abort(f"{server.name}: admin API on {port} did not answer: {e}") from e


class Admin:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method, path, body=None):
        data = body.encode() if isinstance(body, str) else body
        t0 = time.perf_counter()
        self.conn.request(method, path, body=data, headers=CT_JSON if data is not None else {})
        resp = self.conn.getresponse()
        text = resp.read()
        ms = (time.perf_counter() - t0) * 1000.0
        if resp.getheader("Connection", "").lower() == "close":
            self.conn.close()  # http.client reconnects on the next request
        return resp.status, text, ms

    def close(self):
        self.conn.close()


# ---------------------------------------------------------------------------------------------
# The workload


def big_imposter(port, stubs):
    """One imposter with `stubs` exact method+path stubs, shaped like the fixture's API stubs."""
    out = []
    for i in range(stubs):
        out.append({"predicates": [{"equals": {"method": "GET", "path": f"/api/v1/item/{i}"}}],
                    "responses": [{"is": {"statusCode": 200,
                                          "headers": {"Content-Type": "application/json"},
                                          "body": json.dumps({"id": i, "name": f"item_{i}"})}}]})
    return json.dumps({"port": port, "protocol": "http", "name": "Big", "stubs": out})


def server_argv(kind, args, admin_port, config=None):
    if kind == "mb":
        argv = ["node", args.mb, "start", "--port", str(admin_port), "--nologfile",
                "--pidfile", "mb.pid"]
    elif kind == "frozen":
        argv = [args.frozen_binary, "--port", str(admin_port), "--nologfile", "--pidfile",
                "frozen.pid"]
    else:
        argv = [args.rift, "start", "--port", str(admin_port), "--nologfile", "--pidfile",
                "rift.pid", "--loglevel", "warn"]
        if kind == "interp":
            argv += ["--engine", "interp"]
        if args.rift_threads:
            argv += ["--threads", str(args.rift_threads)]
    if config and kind != "frozen":
        argv += ["--configfile", config]
    return argv


def ports_for(kind, args):
    shift = 100 if kind == "mb" else 0
    return args.admin_port + shift, args.offset + shift


def measure_startup(kind, args, workdir):
    admin_port, offset = ports_for(kind, args)
    config = os.path.join(workdir, f"fixture-{offset}.json")
    if kind != "frozen" and not os.path.exists(config):
        write_config(config, offset)
    times, cpus = [], []
    for rep in range(args.startup_reps):
        check_ports(kind, args)
        server = start_server(server_argv(kind, args, admin_port, config), args, workdir,
                              f"{kind}-startup")
        try:
            wall, cpu = wait_first_200(server, offset + SIMPLE_BASE_PORT)
            times.append(wall)
            cpus.append(cpu)
        finally:
            server.stop()
    return times, cpus


def write_config(path, offset):
    docs = [json.loads(body) for _, _, body in fixture.imposters(offset)]
    with open(path, "w") as f:
        json.dump({"imposters": docs}, f)


def check_ports(kind, args):
    admin_port, offset = ports_for(kind, args)
    wanted = [admin_port] + [offset + base for _, base, _, _ in fixture.TABLE] + \
        [offset + BIG_BASE_PORT]
    busy = [p for p in wanted if not rift_process.port_free(p)]
    if busy:
        raise Abort(f"{kind}: ports already in use: {busy}")


def measure_loaded(kind, args, workdir):
    """RSS with the 14 imposters, then the admin timings on the same server."""
    admin_port, offset = ports_for(kind, args)
    check_ports(kind, args)
    server = start_server(server_argv(kind, args, admin_port), args, workdir, kind)
    result = {}
    try:
        wait_admin(server, admin_port)
        sid = server.pid
        admin = Admin(admin_port)
        time.sleep(args.settle)
        result["idle"] = memory(sid)
        if kind != "frozen":
            for name, _base, body in fixture.imposters(offset):
                status, text, _ = admin.call("POST", "/imposters", body)
                if status != 201:
                    raise Abort(f"{kind}: POST {name} answered {status}: {text[:200]!r}")
        time.sleep(args.settle)
        result["loaded"] = memory(sid)
        if args.admin_reps and kind != "frozen":
            result["admin"] = admin_timings(kind, admin, offset, args, sid)
            result["after_admin"] = memory(sid)
        admin.close()
    finally:
        server.stop()
    return result


def cpu_ms(sid):
    """utime + stime of every process of a session, in ms: the server's own cost of a call,
    which a shared machine's scheduling delays do not inflate as they do wall time."""
    return harness.cpu_ticks(sid) * 1000.0 / harness.CLK_TCK


def admin_timings(kind, admin, offset, args, sid):
    port = offset + BIG_BASE_PORT
    body = big_imposter(port, args.stubs)
    posts, gets, get_bytes, post_cpu, get_cpu = [], [], 0, [], []
    for rep in range(args.admin_reps):
        c0 = cpu_ms(sid)
        status, text, ms = admin.call("POST", "/imposters", body)
        post_cpu.append(cpu_ms(sid) - c0)
        if status != 201:
            raise Abort(f"{kind}: POST of {args.stubs} stubs answered {status}: {text[:200]!r}")
        posts.append(ms)
        c0 = cpu_ms(sid)
        status, text, ms = admin.call("GET", f"/imposters/{port}")
        get_cpu.append(cpu_ms(sid) - c0)
        if status != 200 or len(json.loads(text)["stubs"]) != args.stubs:
            raise Abort(f"{kind}: GET /imposters/{port} answered {status} or lost stubs")
        gets.append(ms)
        get_bytes = len(text)
        status, _, _ = admin.call("DELETE", f"/imposters/{port}")
        if status != 200:
            raise Abort(f"{kind}: DELETE /imposters/{port} answered {status}")
    return {"post_ms": posts, "get_ms": gets, "post_cpu_ms": post_cpu, "get_cpu_ms": get_cpu,
            "post_bytes": len(body), "get_bytes": get_bytes}


def build_frozen(args, workdir):
    config = os.path.join(workdir, f"fixture-{args.offset}.json")
    write_config(config, args.offset)
    out = os.path.join(workdir, "frozen-mock")
    log(f"riftc compile ({args.riftc}) ...")
    t0 = time.perf_counter()
    done = subprocess.run([args.riftc, "compile", config, "-o", out], cwd=workdir,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        raise Abort(f"riftc compile failed:\n{done.stdout[-2000:]}")
    log(f"frozen binary built in {time.perf_counter() - t0:.1f} s")
    return out


# ---------------------------------------------------------------------------------------------
# Report


def median(values):
    return statistics.median(values) if values else None


def render(results, args):
    lines = [f"# Footprint ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC)",
             "", f"host: {host_line()}; server core {args.server_core}, client core "
             f"{args.client_core}; rift {args.rift}", ""]
    mb = results.get("mb", {})

    lines += ["## Memory with the 14 benchmark imposters", "",
              "| server | RSS MiB | anon MiB | file MiB | threads | idle RSS MiB | "
              "RSS after admin MiB | MB/this |", "|---|--:|--:|--:|--:|--:|--:|--:|"]
    mb_rss = mb.get("loaded", {}).get("Rss")
    for kind, res in results.items():
        if "loaded" not in res:
            continue
        ld, idle = res["loaded"], res["idle"]
        after = res.get("after_admin", {}).get("Rss")
        lines.append(f"| {kind} | {fmt(ld['Rss'])} | {fmt(ld['Pss_Anon'])} | "
                     f"{fmt(ld['Pss_File'])} | {ld['threads']} | {fmt(idle['Rss'])} | "
                     f"{fmt(after)} | {ratio(mb_rss, ld['Rss']) if kind != 'mb' else '-'} |")
    lines += ["", f"Target: interpreter tier <= {TARGET_RSS_MB:.0f} MiB RSS.", ""]

    lines += ["## Start-up: exec -> first 200 from an imposter", "",
              "| server | median ms | min | max | server CPU ms (median) | reps | MB/this |",
              "|---|--:|--:|--:|--:|--:|--:|"]
    mb_start = median(mb.get("startup_ms", []))
    for kind, res in results.items():
        t = res.get("startup_ms")
        if not t:
            continue
        lines.append(f"| {kind} | {fmt(median(t))} | {fmt(min(t))} | {fmt(max(t))} | "
                     f"{fmt(median(res.get('startup_cpu_ms', [])))} | {len(t)} | "
                     f"{ratio(mb_start, median(t)) if kind != 'mb' else '-'} |")
    lines += ["", f"Target: frozen binary <= {TARGET_STARTUP_MS:.0f} ms. `rift` and `mb` load the "
              "fixture with --configfile.", ""]

    lines += [f"## Admin plane: one imposter with {args.stubs:,} stubs", "",
              "| server | POST ms (median) | min | server CPU ms | GET ms (median) | min | "
              "server CPU ms | GET bytes | POST MB/this | GET MB/this |",
              "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    mb_admin = mb.get("admin", {})
    for kind, res in results.items():
        a = res.get("admin")
        if not a:
            continue
        p, g = median(a["post_ms"]), median(a["get_ms"])
        lines.append(
            f"| {kind} | {fmt(p)} | {fmt(min(a['post_ms']))} | {fmt(median(a['post_cpu_ms']))} | "
            f"{fmt(g)} | {fmt(min(a['get_ms']))} | {fmt(median(a['get_cpu_ms']))} | "
            f"{a['get_bytes']:,} | "
            f"{ratio(median(mb_admin.get('post_ms', [])), p) if kind != 'mb' else '-'} | "
            f"{ratio(median(mb_admin.get('get_ms', [])), g) if kind != 'mb' else '-'} |")
    lines += ["", f"Targets: POST <= {TARGET_POST_MS:.0f} ms, GET <= {TARGET_GET_MS:.0f} ms "
              f"(POST body {results_bytes(results)} bytes). Wall time is the client's, over a "
              "kept-alive connection; server CPU (utime+stime from /proc, 10 ms ticks) is what "
              "the server spent, which a busy machine does not inflate.", ""]
    return "\n".join(lines)


def results_bytes(results):
    for res in results.values():
        if res.get("admin"):
            return f"{res['admin']['post_bytes']:,}"
    return "-"


def host_line():
    return harness.host_line()


# ---------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rift", default=default_binary("rift"))
    ap.add_argument("--riftc", default=default_binary("riftc"))
    ap.add_argument("--frozen-binary", help="use this frozen mock instead of building one "
                    "(it must serve the fixture at --offset)")
    ap.add_argument("--mb", default=default_mb(), help="Mountebank's bin/mb")
    ap.add_argument("--servers", default=",".join(SERVERS), help="of " + ",".join(SERVERS))
    ap.add_argument("--admin-port", type=int, default=2525, help="Mountebank: this + 100")
    ap.add_argument("--offset", type=int, default=0,
                    help="fixture port offset (imposters on 4545+offset...; Mountebank +100)")
    ap.add_argument("--stubs", type=int, default=10000)
    ap.add_argument("--admin-reps", type=int, default=5)
    ap.add_argument("--startup-reps", type=int, default=5)
    ap.add_argument("--settle", type=float, default=2.0, help="seconds before reading RSS")
    ap.add_argument("--rift-threads", type=int, default=1, help="0: rift's default (cores)")
    ap.add_argument("--server-core", default="0", help="taskset core ('none': no pin)")
    ap.add_argument("--client-core", default="1", help="this script's core ('none': no pin)")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    args = ap.parse_args()

    # The servers run in a scratch directory (their pidfiles and logs go there).
    for name in ("rift", "riftc", "frozen_binary", "mb"):
        if getattr(args, name):
            setattr(args, name, os.path.abspath(getattr(args, name)))
    servers = [s for s in args.servers.split(",") if s]
    unknown = [s for s in servers if s not in SERVERS]
    if unknown:
        ap.error(f"unknown servers: {unknown}")
    if "mb" in servers and not args.mb:
        ap.error("Mountebank not found: cd tests/diff && npm ci, or pass --mb")
    if (args.server_core != "none" or args.client_core != "none") and not shutil.which("taskset"):
        ap.error("taskset not found (or pass --server-core none --client-core none)")
    if args.client_core != "none":
        os.sched_setaffinity(0, {int(args.client_core)})

    workdir = tempfile.mkdtemp(prefix="footprint-")
    results = {}
    try:
        if "frozen" in servers and not args.frozen_binary:
            args.frozen_binary = build_frozen(args, workdir)
        for kind in servers:
            log(f"{kind}: start-up x{args.startup_reps}")
            wall, cpu = measure_startup(kind, args, workdir)
            res = {"startup_ms": wall, "startup_cpu_ms": cpu}
            log(f"{kind}: memory and admin timings")
            res.update(measure_loaded(kind, args, workdir))
            results[kind] = res
    except Abort as e:
        log(f"ABORT: {e} (logs in {workdir})")
        return 1
    report = render(results, args)
    print(report)
    os.makedirs(args.out, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    with open(os.path.join(args.out, f"footprint-{stamp}.md"), "w") as f:
        f.write(report + "\n")
    with open(os.path.join(args.out, f"footprint-{stamp}.json"), "w") as f:
        json.dump({"args": vars(args), "results": results}, f, indent=2)
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
