"""The layering check fails on an include against the links, and only then.

A check that passes on main proves nothing by itself: these tests plant upward and sideways
includes, a cycle and a room that includes a test, and expect each one to be named.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SOURCE = Path(os.environ.get("RIFT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CHECK = SOURCE / "tools" / "check_layering.py"
REAL_ROOMS = os.environ.get("RIFT_LAYERING_ROOMS")


def run_check(root, rooms_file):
    return subprocess.run([sys.executable, str(CHECK), "--rooms", str(rooms_file), "--root",
                           str(root)], capture_output=True, text=True, check=False)


class SyntheticTree(unittest.TestCase):
    ROOMS = ("lib/low rift_low\n"
             "lib/mid rift_mid rift_low\n"
             "lib/top rift_top rift_mid\n"
             "side rift_side rift_low\n")

    def setUp(self):
        self.root = Path(tempfile.mkdtemp())
        self.rooms = self.root / "rooms.txt"
        self.rooms.write_text(self.ROOMS)
        self.write("lib/low/a.h", "#pragma once\n")
        self.write("lib/mid/b.h", '#include "lib/low/a.h"\n')
        self.write("lib/top/c.cpp", '#include "lib/mid/b.h"\n#include "lib/low/a.h"\n')
        self.write("side/d.cpp", '#include "lib/low/a.h"\n#include <vector>\n')
        self.write("tests/t.cpp", '#include "lib/top/c.h"\n#include "tests/u.h"\n')

    def tearDown(self):
        shutil.rmtree(self.root)

    def write(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def test_includes_that_point_down_pass(self):
        result = run_check(self.root, self.rooms)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_an_upward_include_fails_with_file_line_and_rule(self):
        self.write("lib/low/a.cpp", '#include "lib/low/a.h"\n#include "lib/top/c.h"\n')
        result = run_check(self.root, self.rooms)
        self.assertEqual(result.returncode, 1)
        self.assertIn("lib/low/a.cpp:2: includes lib/top/c.h", result.stdout)
        self.assertIn("does not link rift_top", result.stdout)

    def test_a_sideways_include_fails(self):
        self.write("side/e.cpp", '#include "lib/mid/b.h"\n')
        result = run_check(self.root, self.rooms)
        self.assertEqual(result.returncode, 1)
        self.assertIn("side/e.cpp:1", result.stdout)

    def test_reaching_through_links_is_allowed(self):
        # top links mid, mid links low: top may include low (c.cpp does), low may not include mid.
        self.write("lib/low/f.h", '  #  include "lib/mid/b.h"\n')
        result = run_check(self.root, self.rooms)
        self.assertEqual(result.returncode, 1)
        self.assertIn("lib/low/f.h:1", result.stdout)
        self.assertNotIn("lib/top/c.cpp", result.stdout)

    def test_a_room_may_not_include_a_test(self):
        self.write("lib/mid/g.cpp", '#include "tests/u.h"\n')
        result = run_check(self.root, self.rooms)
        self.assertEqual(result.returncode, 1)
        self.assertIn("a room may not include tests/", result.stdout)

    def test_a_cycle_in_the_links_is_bad_input(self):
        self.rooms.write_text(self.ROOMS.replace("lib/low rift_low", "lib/low rift_low rift_top"))
        result = run_check(self.root, self.rooms)
        self.assertEqual(result.returncode, 2)
        self.assertIn("cycle", result.stderr)

    def test_build_trees_are_not_read(self):
        self.write("build-asan/lib/low/x.cpp", '#include "lib/top/c.h"\n')
        result = run_check(self.root, self.rooms)
        self.assertEqual(result.returncode, 0, result.stdout)


@unittest.skipUnless(REAL_ROOMS, "RIFT_LAYERING_ROOMS names the build's rooms file (ctest sets it)")
class TheRealTree(unittest.TestCase):
    def setUp(self):
        self.copy = Path(tempfile.mkdtemp()) / "rift"
        shutil.copytree(SOURCE, self.copy, ignore=shutil.ignore_patterns(
            "build*", ".git", "node_modules", "*.png", "*.json"))

    def tearDown(self):
        shutil.rmtree(self.copy.parent)

    def test_main_passes(self):
        result = run_check(self.copy, REAL_ROOMS)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_the_http_layer_may_not_include_the_imposter(self):
        connection = self.copy / "runtime/http/connection.cpp"
        connection.write_text('#include "runtime/imposter/imposter.h"\n' + connection.read_text())
        result = run_check(self.copy, REAL_ROOMS)
        self.assertEqual(result.returncode, 1)
        self.assertIn("runtime/http/connection.cpp:1: includes runtime/imposter/imposter.h",
                      result.stdout)

    def test_the_compiler_may_not_include_the_runtime(self):
        ir = self.copy / "compiler/ir.h"
        ir.write_text(ir.read_text() + '\n#include "runtime/base/logger.h"\n')
        result = run_check(self.copy, REAL_ROOMS)
        self.assertEqual(result.returncode, 1)
        self.assertIn("compiler/ir.h", result.stdout)
        self.assertIn("does not link rift_base", result.stdout)

    def test_codegen_may_not_include_the_runtime(self):
        emit = self.copy / "codegen/emit_matcher.cpp"
        emit.write_text('#include "runtime/http/message.h"\n' + emit.read_text())
        result = run_check(self.copy, REAL_ROOMS)
        self.assertEqual(result.returncode, 1)
        self.assertIn("codegen/emit_matcher.cpp:1", result.stdout)


if __name__ == "__main__":
    unittest.main()
