"""Server processes for the Python harnesses: start one, wait until it answers, stop it.

The one implementation behind tests/e2e/harness.py, tests/diff/diffcore.py and bench/*.py.
Standard library only. A harness imports it with

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "..", "tools", "pylib"))  # ".." once from bench/
    import rift_process  # noqa: E402

A server runs in a session (and so a process group) of its own, stdin closed, stdout and
stderr in one log file, optionally pinned with `taskset -c CPU`. It is stopped with SIGTERM to
the group, SIGKILL to the group after a grace period, then SIGKILL to whatever is left of the
group and the session (shell commands it started, say).
"""

import errno
import http.client
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

# Sanitizer or crash reports in a server's output: every harness fails on one.
REPORT_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


class ServerError(RuntimeError):
    """A server that could not be run, exited before it was ready, or never got ready."""


def report_marker(output):
    """The first sanitizer or crash marker found in `output`, or None."""
    return next((marker for marker in REPORT_MARKERS if marker in output), None)


# ---------------------------------------------------------------------------------------------
# Ports


def free_port():
    """A port the kernel has just handed out on 127.0.0.1 (from the ephemeral range)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_free(port):
    """Whether a listener could bind `port` on every address now: 0.0.0.0, and "::" too where
    the host has IPv6."""
    for family, address in ((socket.AF_INET, "0.0.0.0"), (socket.AF_INET6, "::")):
        try:
            s = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue  # no IPv6
        with s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                s.bind((address, port))
            except OSError as e:
                if family == socket.AF_INET or e.errno == errno.EADDRINUSE:
                    return False
    return True


def port_busy(port):
    """True if something accepts connections on localhost:port or holds a listener on it."""
    for family, addr in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        try:
            with socket.socket(family, socket.SOCK_STREAM) as s:
                s.settimeout(0.5)
                if s.connect_ex((addr, port)) == 0:
                    return True
        except OSError:
            pass
    return not port_free(port)


def http_status(port, path="/", headers=None, timeout=2, host="127.0.0.1"):
    """The status of `GET path` on host:port: a readiness probe for wait_ready. Raises OSError
    or http.client.HTTPException while nothing answers."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


# ---------------------------------------------------------------------------------------------
# /proc


def session_of(pid):
    """The session id of process `pid`, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[3])  # field 6 (session); fields[0] is field 3 (state)
    except (OSError, IndexError, ValueError):
        return None


def session_pids(sid):
    """Every live process of session `sid`."""
    return [int(pid) for pid in filter(str.isdigit, os.listdir("/proc"))
            if session_of(int(pid)) == sid]


def listener_pids(ports):
    """{pid: [ports]} of processes holding a LISTEN socket on any of `ports` (from /proc)."""
    inodes = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    parts = line.split()
                    port = int(parts[1].rsplit(":", 1)[1], 16)
                    if parts[3] == "0A" and port in ports:  # 0A = LISTEN
                        inodes[parts[9]] = port
        except OSError:
            pass
    found = {}
    if not inodes:
        return found
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    found.setdefault(int(pid), []).append(inodes[target[8:-1]])
        except OSError:
            continue
    return found


def unwind_on_signals():
    """Makes SIGTERM and SIGHUP of this script unwind like Ctrl-C (KeyboardInterrupt), so that
    the `finally` blocks that stop its servers run."""
    def on_signal(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)


def _kill(pid, group=False):
    try:
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# ---------------------------------------------------------------------------------------------
# The process


class ServerProcess:
    """One server process in a session of its own, its output in `workdir`/`log_name`.

    workdir: the folder for the log (and the working directory unless `cwd` is given); None
    makes a temporary folder (prefix `temp_prefix`) when started, removed when stopped.
    cpu: pin the server with `taskset -c cpu`. append: append to the log instead of rewriting it.
    grace: how long stop() waits after SIGTERM before it sends SIGKILL.
    """

    def __init__(self, argv, workdir=None, cwd=None, log_name="server.log", name=None, cpu=None,
                 append=False, temp_prefix="rift-", grace=5.0):
        self.argv = list(argv)
        self.workdir = workdir
        self.own_workdir = workdir is None
        self.cwd = cwd
        self.log_name = log_name
        self.name = name or os.path.basename(self.argv[0])
        self.cpu = cpu
        self.append = append
        self.temp_prefix = temp_prefix
        self.grace = grace
        self.proc = None  # the subprocess.Popen, kept after stop (its returncode)
        self.log = None  # the open log file while the server runs
        self.log_path = None
        self.started_at = None  # time.perf_counter() right before exec
        self.killed = False  # the server needed SIGKILL
        self._stopped = False
        self._final_output = None  # the log's tail, once an own workdir is removed

    # -- starting

    def command(self):
        """The command line run: argv, behind taskset when pinned."""
        return (["taskset", "-c", str(self.cpu)] if self.cpu is not None else []) + self.argv

    def start(self):
        if self.workdir is None:
            self.workdir = tempfile.mkdtemp(prefix=self.temp_prefix)
        self.log_path = os.path.join(self.workdir, self.log_name)
        self.log = open(self.log_path, "ab" if self.append else "wb")
        command = self.command()
        self.started_at = time.perf_counter()
        try:
            self.proc = subprocess.Popen(command, cwd=self.cwd or self.workdir, stdout=self.log,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True)
        except OSError as e:
            self.log.close()
            raise ServerError(f"cannot run {' '.join(command)}: {e}") from e
        return self

    def wait_ready(self, probe, timeout, interval, tail=4000):
        """Calls probe() every `interval` seconds until it returns true (an OSError or
        http.client.HTTPException from it means not yet). Raises ServerError with the last
        `tail` characters of the output when the server exits first, or, after stopping it,
        when `timeout` seconds pass."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServerError(f"{self.name} exited with {self.proc.returncode} before it was "
                                  f"ready (log {self.log_path}):\n{self.output_tail(tail)}")
            try:
                if probe():
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(interval)
        output = self.output_tail(tail)
        self.stop()
        raise ServerError(f"{self.name} not ready after {timeout:g} s (log {self.log_path}):\n"
                          f"{output}")

    # -- while it runs

    @property
    def pid(self):
        """The server's pid, which is also its session and process group id."""
        return self.proc.pid

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def output(self):
        """Everything the server wrote so far (decoded, undecodable bytes replaced)."""
        return self.output_tail(None)

    def output_tail(self, chars=3000):
        if self._final_output is not None:
            text = self._final_output
        else:
            try:
                with open(self.log_path, "rb") as f:
                    text = f.read().decode("utf-8", "replace")
            except (OSError, TypeError):
                return ""
        return text if chars is None else text[-chars:]

    # -- stopping

    def stop(self):
        """SIGTERM to the group, up to `grace` seconds, then SIGKILL to the group; then SIGKILL
        to any straggler of the group and the session. Returns the exit code (negative: the
        signal); `killed` says whether SIGKILL was needed. Idempotent."""
        if self.proc is not None and not self._stopped:
            self._stopped = True
            sid = self.proc.pid
            if self.proc.poll() is None:
                try:
                    os.killpg(sid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                try:
                    self.proc.wait(timeout=self.grace)
                except subprocess.TimeoutExpired:
                    self.killed = True
                    _kill(sid, group=True)
                    try:
                        self.proc.wait(timeout=5)
                    except subprocess.TimeoutExpired:
                        pass
            _kill(sid, group=True)
            for pid in session_pids(sid):
                _kill(pid)
            self.log.close()
        if self.own_workdir and self.workdir:
            self._final_output = self.output_tail(1 << 20)
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None
        return self.proc.returncode if self.proc is not None else None
