"""One check on every tier: the interpreter, the JIT and a frozen mock built by `riftc compile`.
A test class mixes EveryTier in (before unittest.TestCase) and defines imposter(port) (the
imposter to serve; port None: any) and check(port) (what every tier must answer)."""
import json
import os
import shutil
import subprocess
import tempfile

from harness import RIFT, Rift, free_port
from test_jit_module import wait_for_tier

RIFTC = os.environ.get("RIFT_RIFTC") or os.path.join(os.path.dirname(RIFT), "riftc")


class EveryTier:
    def test_interpreter(self):
        with Rift("--engine", "interp") as rift:
            self.check(rift.create(self.imposter(None))["port"])

    def test_jit(self):
        with Rift("--engine", "jit") as rift:
            port = rift.create(self.imposter(None))["port"]
            wait_for_tier(rift, port, "jit")
            self.check(port)

    def test_frozen_mock(self):
        folder = tempfile.mkdtemp(prefix="rift-tiers-")
        try:
            port = free_port()
            config = os.path.join(folder, "imposters.json")
            with open(config, "w") as f:
                json.dump({"imposters": [self.imposter(port)]}, f)
            binary = os.path.join(folder, "mock")
            built = subprocess.run([os.path.abspath(RIFTC), "compile", config, "-o", binary],
                                   capture_output=True, text=True, timeout=600)
            self.assertEqual(built.returncode, 0, built.stderr[-4000:])
            with Rift(binary=binary):
                self.check(port)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
