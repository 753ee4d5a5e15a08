#!/usr/bin/env python3
"""The shape of GET /metrics on the admin port, Rift against Mountebank 2.9.1 (docs/metrics.md).

Values differ between any two processes, so what is compared is the shape, moment by moment: the
ordered families, each with its HELP text, its TYPE and its series (name, sorted label names, and
the values of the labels that do not vary from run to run: `imposter`, `le`, `quantile`, `space`).

    python3 tests/diff/metrics_shape.py --rift build/bin/rift   # Rift against the committed shapes
    python3 tests/diff/metrics_shape.py --capture               # rewrite them from live Mountebank
    python3 tests/diff/metrics_shape.py --check                 # exit 1 if live Mountebank differs

The moments: (a) right after start; (b) after an http imposter is made; (c) after a call a stub
matches and one no stub matches; (d) after a call through a `wait` behavior and one through a
proxy (a second imposter proxying to the first).

Series that belong to Node's moment-to-moment state (`nodejs_active_*` grouped by `type`, the GC
histogram grouped by `kind`) are compared by their HELP and TYPE only; `version`, `major`,
`minor` and `patch` are compared by name only. Families Mountebank does not have (Rift's own
`rift_*`, after every `mb_*` one) are listed, not compared.

Mountebank binary: $MB_BIN, else tests/diff/node_modules/.bin/mb.
"""

import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import diffcore  # noqa: E402

EXPECTED = os.path.join(HERE, "metrics", "expected_shapes.json")
KEPT_VALUES = {"imposter", "le", "quantile", "space"}
HEADER_ONLY = {"mb_nodejs_active_resources", "mb_nodejs_active_handles",
               "mb_nodejs_active_requests", "mb_nodejs_gc_duration_seconds"}
# Differences known and owed, (moment, family) -> why; reported, not failed (--strict fails them).
KNOWN_GAPS = {}
SERIES = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse(text, ports):
    """Families in order: {"name", "help", "type", "series": [[name, labels, kept values]]}."""
    families = []
    for line in text.splitlines():
        if not line:
            continue
        if line.startswith("# HELP "):
            name, _, help_text = line[len("# HELP "):].partition(" ")
            families.append({"name": name, "help": help_text, "type": None, "series": []})
            continue
        if line.startswith("# TYPE "):
            name, _, kind = line[len("# TYPE "):].partition(" ")
            if not families or families[-1]["name"] != name:
                raise ValueError("TYPE without its HELP: %r" % line)
            families[-1]["type"] = kind
            continue
        match = SERIES.match(line)
        if not match or not families:
            raise ValueError("not a series line: %r" % line)
        labels = dict(LABEL.findall(match.group(2) or ""))
        kept = {k: normalize(k, v, ports) for k, v in labels.items() if k in KEPT_VALUES}
        entry = [match.group(1), sorted(labels), kept]
        family = families[-1]
        if entry not in family["series"]:
            family["series"].append(entry)
    for family in families:
        if family["name"] in HEADER_ONLY:
            family["series"] = None
    return families


def normalize(label, value, ports):
    """Imposter ports vary with --base-port: `[http:4591 web] ` becomes `[http:${P1} web] `."""
    if label != "imposter":
        return value
    for i, port in enumerate(ports, 1):
        value = value.replace(":%d" % port, ":${P%d}" % i)
    return value


def run_moments(binary, admin_port, imposter_port):
    """GET /metrics at each moment: {moment: text}."""
    ports = [imposter_port, imposter_port + 1]
    server = diffcore.Server(binary, admin_port, ["--allowInjection", "--host", "127.0.0.1"])
    server.start()
    moments = {}
    try:
        def scrape(moment):
            status, _, body = diffcore.simple_request(admin_port, "GET", "/metrics")
            if status != 200:
                raise RuntimeError("GET /metrics gave %s" % status)
            moments[moment] = parse(body.decode("utf-8"), ports)

        def post(imposter):
            status, _, body = diffcore.simple_request(admin_port, "POST", "/imposters",
                                                      body=json.dumps(imposter))
            if status != 201:
                raise RuntimeError("POST /imposters gave %s: %r" % (status, body[:200]))

        def call(port, path):
            status, _, _ = diffcore.simple_request(port, "GET", path)
            if status != 200:
                raise RuntimeError("GET %s on %d gave %s" % (path, port, status))

        scrape("a_started")
        post({"protocol": "http", "port": ports[0], "name": "web", "stubs": [
            {"predicates": [{"equals": {"path": "/hi"}}], "responses": [{"is": {"body": "hello"}}]},
            {"predicates": [{"equals": {"path": "/slow"}}],
             "responses": [{"is": {"body": "slow"}, "behaviors": [{"wait": 20}]}]}]})
        scrape("b_imposter_created")
        call(ports[0], "/hi")
        call(ports[0], "/nope")
        scrape("c_match_and_miss")
        call(ports[0], "/slow")
        post({"protocol": "http", "port": ports[1], "stubs": [
            {"responses": [{"proxy": {"to": "http://127.0.0.1:%d" % ports[0]}}]}]})
        call(ports[1], "/hi")
        scrape("d_behavior_and_proxy")
    finally:
        server.stop()
    return moments


def compare(expected, actual, who, strict=True):
    """Differences between two {moment: families}; Rift's own families are set aside."""
    problems = []
    for moment, want in expected.items():
        got = actual.get(moment)
        if got is None:
            problems.append("%s: missing moment" % moment)
            continue
        extra = [f["name"] for f in got if not f["name"].startswith("mb_")]
        ours = [f for f in got if f["name"].startswith("mb_")]
        if extra and moment == "a_started":
            print("%s: not compared (not Mountebank's): %s" % (who, ", ".join(extra)))
        names_want = [f["name"] for f in want]
        names_got = [f["name"] for f in ours]
        if names_want != names_got:
            problems.append("%s: families differ\n  want %s\n  got  %s" %
                            (moment, names_want, names_got))
        by_name = {f["name"]: f for f in ours}
        for family in want:
            other = by_name.get(family["name"])
            if other is None:
                continue
            for key in ("help", "type", "series"):
                if family[key] != other[key]:
                    gap = KNOWN_GAPS.get((moment, family["name"]))
                    if gap and not strict and key == "series":
                        print("KNOWN %s: %s %s differs: %s" % (moment, family["name"], key, gap))
                        continue
                    problems.append("%s: %s %s differs\n  want %s\n  got  %s" %
                                    (moment, family["name"], key, family[key], other[key]))
        # Rift's own families come after every one of Mountebank's.
        seen_extra = False
        for f in got:
            if not f["name"].startswith("mb_"):
                seen_extra = True
            elif seen_extra:
                problems.append("%s: %s after a family Mountebank does not have" %
                                (moment, f["name"]))
    return problems


def load_expected():
    with open(EXPECTED, encoding="utf-8") as f:
        return json.load(f)["moments"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--rift", help="Rift binary to check against the committed shapes")
    mode.add_argument("--capture", action="store_true", help="rewrite the shapes from live Mountebank")
    mode.add_argument("--check", action="store_true", help="compare live Mountebank to the shapes")
    ap.add_argument("--strict", action="store_true", help="fail on the KNOWN_GAPS too")
    ap.add_argument("--mb", default=diffcore.default_mb_bin(), help="Mountebank binary")
    ap.add_argument("--base-port", type=int, default=24890,
                    help="admin port; the imposters take the next ten")
    args = ap.parse_args()
    admin, imposter = args.base_port, args.base_port + 1

    if args.capture:
        moments = run_moments(args.mb, admin, imposter)
        os.makedirs(os.path.dirname(EXPECTED), exist_ok=True)
        with open(EXPECTED, "w", encoding="utf-8") as f:
            json.dump({"source": "Mountebank 2.9.1 (prom-client 14.2), GET /metrics on the admin "
                                 "port; written by tests/diff/metrics_shape.py --capture",
                       "moments": moments}, f, indent=1)
            f.write("\n")
        print("wrote %s" % os.path.relpath(EXPECTED))
        return 0
    if args.check:
        problems = compare(load_expected(), run_moments(args.mb, admin, imposter), "mountebank")
    else:
        problems = compare(load_expected(), run_moments(args.rift, admin, imposter), "rift",
                           strict=args.strict)
    for problem in problems:
        print("MISMATCH " + problem)
    print("%d mismatch(es)" % len(problems) if problems else "metrics shape: all moments match")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
