"""The conformance replayer (tests/conformance/README.md), for any transport of this SDK."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from rift import Rift
from rift.transport import EmbeddedTransport

SDK_DIR = Path(__file__).resolve().parent.parent
REPO_DIR = SDK_DIR.parent.parent
CLIENT = "python"
CLIENT_OFFSET = 11000
ALL_TAGS = {"injection", "proxy", "https", "shell", "redis", "rhai"}


def conformance_dir() -> Path:
    return Path(os.environ.get("RIFT_CONFORMANCE_DIR", REPO_DIR / "tests" / "conformance"))


def results_dir() -> Path:
    return Path(os.environ.get("RIFT_RESULTS", REPO_DIR / "build" / "conformance-results"))


def port_offset() -> int:
    value = os.environ.get("RIFT_CONFORMANCE_PORT_OFFSET")
    return int(value) if value else CLIENT_OFFSET


@dataclass
class Fixture:
    corpus: str
    name: str  # file name without .json
    path: Path
    port: int
    requires: list
    text: str = ""
    data: dict = field(default_factory=dict)
    skipped: Optional[str] = None


def load_fixtures(root: Path) -> list[Fixture]:
    fixtures = []
    for corpus in ("rift", "reference-rift"):
        manifest_path = root / corpus / "manifest.json"
        manifest = json.loads(manifest_path.read_text())
        for entry in manifest["fixtures"]:
            path = manifest_path.parent / entry["file"]
            fixtures.append(Fixture(corpus, path.name[:-len(".json")] if path.name.endswith(
                ".json") else path.name, path, int(entry["port"]), list(entry.get("requires", []))))
    return fixtures


def rewrite(fixture: Fixture, manifest_ports: set, offset: int) -> str:
    text = fixture.path.read_text()

    def shift(m: re.Match) -> str:
        port = int(m.group(2))
        return f"{m.group(1)}:{port + offset}" if port in manifest_ports else m.group(0)

    text = re.sub(r"(localhost|127\.0\.0\.1):(\d+)(?!\d)", shift, text)
    corpus_folder = fixture.path.parent.parent.resolve()  # <manifest folder>/corpus
    text = text.replace('"data/', f'"{corpus_folder}/data/')
    return text


def load_skips(root: Path) -> dict:
    skips = json.loads((root / "skips.json").read_text())["skips"]
    return {(s["corpus"], s["fixture"], s["stub"]): s["why"] for s in skips}


def lane_tags(rift: Rift) -> set:
    tags = {"proxy", "https"}
    injection = bool(rift.config().get("options", {}).get("allowInjection"))
    if isinstance(rift.transport, EmbeddedTransport):
        injection = injection and "javascript" in rift.transport.lib.build_info().get("features", [])
    if injection:
        tags |= {"injection", "shell"}
    return tags


def compact(body: str) -> Optional[str]:
    try:
        return json.dumps(json.loads(body), separators=(",", ":"), ensure_ascii=False)
    except ValueError:
        return None


def check(expect: dict, status: int, body: str) -> list[str]:
    problems = []
    if "status" in expect and status != expect["status"]:
        problems.append(f"status: expected {expect['status']}, got {status}")
    if "bodyContains" in expect:
        needle = expect["bodyContains"]
        packed = compact(body)
        if needle not in body and (packed is None or needle not in packed):
            problems.append(f"bodyContains: expected {needle!r} in {body[:300]!r}")
    if "bodyEquals" in expect and body != expect["bodyEquals"]:
        problems.append(f"bodyEquals: expected {expect['bodyEquals']!r}, got {body[:300]!r}")
    return problems


def replay(rift: Rift, transport: str, tier: str = "interpreter") -> dict:
    """Runs one lane; writes $RIFT_RESULTS/python-<transport>-<tier>.jsonl; returns counts and
    the failed lines."""
    root = conformance_dir()
    fixtures = load_fixtures(root)
    skips = load_skips(root)
    offset = port_offset()
    ports = {f.port for f in fixtures}
    tags = lane_tags(rift)
    lines: list[dict] = []

    def emit(fx: Fixture, stub: Optional[int], step: Optional[int], outcome: str, reason: str = ""):
        lines.append({"client": CLIENT, "transport": transport, "tier": tier,
                      "corpus": fx.corpus, "fixture": fx.name, "stub": stub, "step": step,
                      "outcome": outcome, "reason": reason})

    rift.delete_all()
    for fx in fixtures:
        missing = [t for t in fx.requires if t not in tags]
        if missing:
            fx.skipped = f"lane lacks {', '.join(missing)}"
        elif (fx.corpus, fx.name, None) in skips:
            fx.skipped = skips[(fx.corpus, fx.name, None)]
        else:
            fx.text = rewrite(fx, ports, offset)
            fx.data = json.loads(fx.text)
    runnable = [fx for fx in fixtures if fx.skipped is None]
    refused: dict[str, str] = {}
    try:
        # Create every fixture first (some proxy to others).
        for fx in runnable:
            body = dict(fx.data)
            body["port"] = fx.port + offset
            resp = rift.request("POST", "/imposters", json.dumps(body),
                                {"Content-Type": "application/json"})
            if resp.status != 201:
                refused[fx.name + "@" + fx.corpus] = f"POST /imposters answered {resp.status}: " \
                                                     f"{resp.text[:300]}"
        for fx in fixtures:
            if fx.skipped is not None:  # one line for the fixture, as replay.cpp writes it
                emit(fx, None, None, "skip", fx.skipped)
                continue
            refusal = refused.get(fx.name + "@" + fx.corpus)
            for i, stub in enumerate(fx.data.get("stubs", [])):
                sequence = (stub.get("_verify") or {}).get("sequence", [])
                why = skips.get((fx.corpus, fx.name, i))
                for j, step in enumerate(sequence):
                    if why:
                        emit(fx, i, j, "skip", why)
                        continue
                    if refusal:
                        emit(fx, i, j, "fail", refusal)
                        continue
                    req, expect = step.get("request", {}), step.get("expect", {})
                    body = req.get("body")
                    if body is not None and not isinstance(body, str):
                        body = json.dumps(body, separators=(",", ":"))
                    try:
                        resp = rift.call(fx.port + offset, req.get("method", "GET"),
                                         req.get("path", "/"), body, req.get("headers"),
                                         keep_alive=False)
                    except Exception as exc:  # noqa: BLE001 - a carrier failure fails the step
                        emit(fx, i, j, "fail", f"no answer: {type(exc).__name__}: {exc}")
                        continue
                    problems = check(expect, resp.status, resp.text)
                    emit(fx, i, j, "fail" if problems else "pass", "; ".join(problems))
    finally:
        rift.delete_all()
        out_dir = results_dir()
        out_dir.mkdir(parents=True, exist_ok=True)
        out = out_dir / f"{CLIENT}-{transport}-{tier}.jsonl"
        with open(out, "w") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")
    counts = {k: sum(1 for l in lines if l["outcome"] == k) for k in ("pass", "fail", "skip")}
    return {"counts": counts, "failed": [l for l in lines if l["outcome"] == "fail"],
            "file": str(out)}
