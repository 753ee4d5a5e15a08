"""The JIT as a module loaded on demand (runtime/tiering/jit_module.h): a server on the interpreter never
maps LLVM, one that JITs loads librift-jit.so from beside the binary, and a binary without the
module says so (`--engine jit` refuses to start, `auto` serves on the interpreter)."""
import os
import shutil
import subprocess
import tempfile
import time
import unittest

from harness import RIFT, Rift, free_port, request

STUB = {"protocol": "http",
        "stubs": [{"predicates": [{"equals": {"path": "/hello"}}],
                   "responses": [{"is": {"statusCode": 200, "body": "hi"}}]}]}


def mapped(rift, name):
    with open(f"/proc/{rift.process.pid}/maps") as maps:
        return any(name in line for line in maps)


def tier(rift, port):
    status, _, body = rift.admin("GET", f"/imposters/{port}/plan")
    assert status == 200, (status, body)
    return body["tier"]


def wait_for_tier(rift, port, wanted, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if tier(rift, port) == wanted:
            return
        time.sleep(0.02)
    raise AssertionError(f"imposter {port} not on tier {wanted!r} after {timeout:.0f} s")


class JitModuleTest(unittest.TestCase):
    def test_the_interpreter_never_maps_llvm(self):
        with Rift("--engine", "interp") as rift:
            port = rift.create(STUB)["port"]
            self.assertEqual(request(port, "GET", "/hello")[2], b"hi")
            self.assertFalse(mapped(rift, "librift-jit.so"))
            self.assertFalse(mapped(rift, "libLLVM"))

    def test_the_jit_loads_its_module_and_serves(self):
        with Rift("--engine", "jit") as rift:
            port = rift.create(STUB)["port"]
            wait_for_tier(rift, port, "jit")
            self.assertEqual(request(port, "GET", "/hello")[2], b"hi")
            self.assertTrue(mapped(rift, "librift-jit.so"))
            self.assertTrue(mapped(rift, "libLLVM"))

    def test_a_binary_without_its_module_says_so(self):
        lonely = tempfile.mkdtemp(prefix="rift-no-jit-")
        binary = os.path.join(lonely, "rift")
        shutil.copy(os.path.abspath(RIFT), binary)
        try:
            refused = subprocess.run(
                [binary, "start", "--port", str(free_port()), "--engine", "jit", "--nologfile",
                 "--pidfile", os.path.join(lonely, "rift.pid")],
                capture_output=True, text=True, timeout=60)
            self.assertNotEqual(refused.returncode, 0)
            self.assertIn("cannot load the JIT module", refused.stdout + refused.stderr)
            with Rift("--engine", "auto", binary=binary) as rift:
                port = rift.create(STUB)["port"]
                self.assertEqual(request(port, "GET", "/hello")[2], b"hi")
                self.assertEqual(tier(rift, port), "interpreter")
                self.assertFalse(mapped(rift, "libLLVM"))
        finally:
            shutil.rmtree(lonely, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
