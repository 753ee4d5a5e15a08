"""The conformance corpus replayed on each transport (tests/conformance/README.md)."""

from __future__ import annotations

import json

import pytest

import conformance_replayer as replayer
from rift import Rift


def expected_lines() -> int:
    """One line per step of every fixture (the lane lacks no tag), one per fixture skipped
    whole in skips.json."""
    root = replayer.conformance_dir()
    whole = {(c, f) for (c, f, stub) in replayer.load_skips(root) if stub is None}
    total = 0
    for fx in replayer.load_fixtures(root):
        if (fx.corpus, fx.name) in whole:
            total += 1
            continue
        data = json.loads(fx.path.read_text())
        total += sum(len((s.get("_verify") or {}).get("sequence", [])) for s in data["stubs"])
    return total


@pytest.mark.parametrize("transport", ["embedded", "spawn", "connect"])
def test_conformance_lane(transport, request):
    if transport == "embedded":
        client = Rift.embedded()
    elif transport == "spawn":
        client = Rift.spawn()
    else:
        client = Rift.connect(request.getfixturevalue("plain_server").url)
    with client:
        result = replayer.replay(client, transport)
    counts = result["counts"]
    print(f"{transport}: {counts}")
    lines = [json.loads(l) for l in open(result["file"])]
    assert len(lines) == sum(counts.values()) == expected_lines()
    assert {(l["client"], l["transport"], l["tier"]) for l in lines} == {
        ("python", transport, "interpreter")}
    failed = "\n".join(f"{f['corpus']}/{f['fixture']} stub {f['stub']} step {f['step']}: "
                       f"{f['reason']}" for f in result["failed"])
    assert counts["fail"] == 0, failed
    assert counts["pass"] > 0


def test_check_fails_on_a_wrong_answer():
    """The replayer's check can fail: status, bodyContains (also on compact JSON), bodyEquals."""
    assert replayer.check({"status": 200}, 404, "") != []
    assert replayer.check({"bodyContains": '"a":1'}, 200, '{\n    "a": 1\n}') == []
    assert replayer.check({"bodyContains": '"a":2'}, 200, '{\n    "a": 1\n}') != []
    assert replayer.check({"bodyEquals": "x"}, 200, "xy") != []


def test_rewrite_shifts_manifest_ports_and_data_paths():
    fixtures = replayer.load_fixtures(replayer.conformance_dir())
    ports = {f.port for f in fixtures}
    r01 = next(f for f in fixtures if f.name == "01-mountebank-http")
    text = replayer.rewrite(r01, ports, 11000)
    assert '"data/' not in text and "/rift/corpus/data/users.csv" in text
    r03 = next(f for f in fixtures if f.name == "03-proxy")
    assert "localhost:15601" in replayer.rewrite(r03, ports, 11000)
