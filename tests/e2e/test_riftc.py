"""`riftc` end to end: the real binary on config files under configs/ (standard library only).

The binary comes from RIFT_RIFTC (set by ctest); default build/bin/riftc.
"""
import json
import os
import subprocess
import unittest

RIFTC = os.environ.get("RIFT_RIFTC", "build/bin/riftc")
CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "configs")
CONFIG = os.path.join(CONFIGS, "riftc_inspect.json")

# What the analysis must find in riftc_inspect.json's imposter 4545, and nothing else.
EXPECTED = [
    {"kind": "shadowed", "stub": 2, "by": 0},
    {"kind": "shadowed", "stub": 4, "by": 3},
    {"kind": "duplicate", "stub": 7, "by": 1},
    {"kind": "shadowed", "stub": 9, "by": 8},
]


def riftc(*args):
    return subprocess.run([os.path.abspath(RIFTC), *args], capture_output=True, text=True, timeout=60)


class InspectTest(unittest.TestCase):
    def test_json_lists_the_findings_and_the_tree(self):
        result = riftc("inspect", CONFIG, "--imposter", "4545", "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        plan = json.loads(result.stdout)
        self.assertEqual(plan["port"], 4545)
        self.assertEqual(plan["name"], "shadows")
        self.assertEqual(plan["stubs"], 10)
        found = [{k: f[k] for k in ("kind", "stub", "by")} for f in plan["findings"]]
        self.assertEqual(found, EXPECTED)
        for finding in plan["findings"]:
            self.assertIn("stub %d" % finding["stub"], finding["reason"])
            self.assertIn("stub %d" % finding["by"], finding["reason"])
        users = plan["tree"]["methods"]["GET"]["paths"]["/users"]
        self.assertEqual([c["stub"] for c in users["candidates"]], [0, 2])
        self.assertEqual(plan["tree"]["anyMethod"]["prefixes"]["/api/"]["candidates"][0]["stub"], 3)
        self.assertGreaterEqual(plan["candidateSets"]["worstCase"], plan["candidateSets"]["max"])

    def test_json_without_imposter_lists_every_imposter(self):
        result = riftc("inspect", CONFIG, "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        imposters = json.loads(result.stdout)["imposters"]
        self.assertEqual([i["port"] for i in imposters], [4545, 4546])
        self.assertEqual(imposters[1]["findings"], [])

    def test_text_names_the_stubs(self):
        result = riftc("inspect", CONFIG)  # text is the default
        self.assertEqual(result.returncode, 0, result.stderr)
        out = result.stdout
        self.assertIn('imposter 4545 "shadows" (http)', out)
        self.assertIn('imposter 4546 "clean" (http)', out)
        self.assertIn("findings (4):", out)
        self.assertIn("shadowed: stub 2 can never match", out)
        self.assertIn("duplicate: stub 7 duplicates stub 1", out)
        self.assertIn("shadowed: stub 9 can never match: the earlier stub 8 has no predicates", out)
        self.assertIn("findings: none", out)

    def test_dot_is_graphviz(self):
        result = riftc("inspect", CONFIG, "--imposter", "4545", "--format", "dot")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("digraph plan {", result.stdout)
        self.assertIn('s2 -> s0 [style=dashed, color=red, label="shadowed"];', result.stdout)
        self.assertIn('s7 -> s1 [style=dashed, color=red, label="duplicate"];', result.stdout)
        self.assertTrue(result.stdout.rstrip().endswith("}"))

    def test_yaml_config(self):
        result = riftc("inspect", os.path.join(CONFIGS, "riftc_inspect.yaml"), "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        findings = json.loads(result.stdout)["imposters"][0]["findings"]
        self.assertEqual([(f["kind"], f["stub"], f["by"]) for f in findings], [("duplicate", 1, 0)])

    def test_errors_exit_1_with_a_message(self):
        for args, message in [
            (("inspect", os.path.join(CONFIGS, "missing.json")), "missing.json"),
            (("inspect", os.path.join(CONFIGS, "riftc_broken.json")), "responses"),
            (("inspect", CONFIG, "--imposter", "9999"), "no imposter on port 9999"),
            (("inspect", CONFIG, "--format", "svg"), "--format must be text, dot or json"),
            (("inspect",), "usage: riftc inspect"),
        ]:
            result = riftc(*args)
            self.assertEqual(result.returncode, 1, args)
            self.assertIn(message, result.stderr, args)
            self.assertEqual(result.stdout, "", args)


class CliTest(unittest.TestCase):
    def test_compile_needs_an_output(self):  # compile itself: test_frozen.py
        result = riftc("compile", CONFIG)
        self.assertEqual(result.returncode, 2)
        self.assertIn("usage: riftc compile", result.stderr)

    def test_version_and_usage(self):
        result = riftc("--version")
        self.assertEqual(result.returncode, 0)
        self.assertTrue(result.stdout.startswith("riftc "))
        self.assertEqual(riftc().returncode, 2)
        self.assertIn("inspect", riftc("--help").stdout)
        unknown = riftc("frobnicate")
        self.assertEqual(unknown.returncode, 2)
        self.assertIn("unknown command", unknown.stderr)


if __name__ == "__main__":
    unittest.main()
