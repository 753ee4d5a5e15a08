"""tools/pylib/rift_process.py, the server-process manager of the Python harnesses, on stand-in
servers made of sh and python3 (no Rift binary needed). Standard library only."""
import os
import socket
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                                "pylib"))
import rift_process  # noqa: E402

# Answers HTTP on the port given as argv[1] after printing a line.
HTTP_SERVER = ("import http.server, sys\n"
               "print('serving', flush=True)\n"
               "http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])),"
               " http.server.SimpleHTTPRequestHandler).serve_forever()\n")


def live(pids):
    """The pids that are not zombies (an orphan's zombie waits for init to reap it)."""
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    out.append(pid)
        except OSError:
            pass
    return out


class ServerProcessTest(unittest.TestCase):
    def test_starts_waits_and_stops_an_http_server_in_a_temporary_folder(self):
        port = rift_process.free_port()
        server = rift_process.ServerProcess([sys.executable, "-c", HTTP_SERVER, str(port)],
                                            name="stand-in").start()
        workdir = server.workdir
        server.wait_ready(lambda: rift_process.http_status(port) == 200, timeout=20,
                          interval=0.05)
        self.assertTrue(server.alive())
        self.assertFalse(rift_process.port_free(port))
        self.assertTrue(rift_process.port_busy(port))
        self.assertEqual(rift_process.session_of(server.pid), server.pid)
        self.assertEqual(server.stop(), -15)  # SIGTERM
        self.assertFalse(server.killed)
        self.assertFalse(os.path.exists(workdir))
        self.assertIn("serving", server.output())  # kept after the folder is gone
        self.assertEqual(server.stop(), -15)  # idempotent

    def test_an_early_exit_reports_the_output(self):
        server = rift_process.ServerProcess(["sh", "-c", "echo bad flag; exit 3"],
                                            name="quitter").start()
        with self.assertRaises(rift_process.ServerError) as failure:
            server.wait_ready(lambda: False, timeout=20, interval=0.05)
        self.assertIn("quitter exited with 3", str(failure.exception))
        self.assertIn("bad flag", str(failure.exception))
        self.assertEqual(server.stop(), 3)

    def test_a_server_that_never_answers_is_stopped_at_the_timeout(self):
        server = rift_process.ServerProcess(["sleep", "30"], name="sleeper").start()
        with self.assertRaises(rift_process.ServerError) as failure:
            server.wait_ready(lambda: False, timeout=0.5, interval=0.05)
        self.assertIn("sleeper not ready after 0.5 s", str(failure.exception))
        self.assertFalse(server.alive())

    def test_sigkill_after_the_grace_period_and_no_stragglers(self):
        given = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"rift-process-test-{os.getpid()}")
        os.makedirs(given, exist_ok=True)
        # Ignores SIGTERM and leaves a child of its own in the session.
        server = rift_process.ServerProcess(
            ["sh", "-c", "trap '' TERM; sleep 60 & echo started; wait; sleep 60"],
            workdir=given, log_name="stubborn.log", grace=0.5).start()
        deadline = time.monotonic() + 10
        while "started" not in server.output() and time.monotonic() < deadline:
            time.sleep(0.02)
        sid = server.pid
        self.assertEqual(server.stop(), -9)
        self.assertTrue(server.killed)
        deadline = time.monotonic() + 5
        while live(rift_process.session_pids(sid)) and time.monotonic() < deadline:
            time.sleep(0.02)  # killed ones linger until they die
        self.assertEqual(live(rift_process.session_pids(sid)), [])
        self.assertTrue(os.path.exists(os.path.join(given, "stubborn.log")))  # a given folder stays
        os.remove(os.path.join(given, "stubborn.log"))
        os.rmdir(given)

    def test_a_missing_binary_is_a_server_error(self):
        server = rift_process.ServerProcess(["/nonexistent/rift"])
        with self.assertRaises(rift_process.ServerError):
            server.start()
        server.stop()


class PortsTest(unittest.TestCase):
    def test_a_listener_makes_a_port_busy(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            s.listen()
            port = s.getsockname()[1]
            self.assertFalse(rift_process.port_free(port))
            self.assertTrue(rift_process.port_busy(port))
            self.assertIn(os.getpid(), rift_process.listener_pids({port}))

    def test_report_marker(self):
        self.assertEqual(rift_process.report_marker("x\n==1==ERROR: AddressSanitizer: y"),
                         "ERROR: AddressSanitizer")
        self.assertIsNone(rift_process.report_marker("all fine"))


if __name__ == "__main__":
    unittest.main()
