"""The SDK's binding table against librift's embed/abi.json, and the ABI version gate."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from rift import RiftLoadError, _ffi
from rift._ffi import BINDINGS, compare_with_abi_json

SDK_DIR = Path(__file__).resolve().parent.parent


def abi_json_path() -> Path:
    return Path(os.environ.get("RIFT_ABI_JSON", SDK_DIR / ".." / ".." / "embed" / "abi.json"))


@pytest.fixture(scope="module")
def abi() -> dict:
    return json.loads(abi_json_path().read_text())


def test_binding_table_matches_abi_json(abi):
    assert compare_with_abi_json(abi) == []
    assert [f["name"] for f in abi["functions"]] == [name for name, _, _ in BINDINGS]


def test_an_altered_argument_type_is_caught(abi, tmp_path):
    altered = copy.deepcopy(abi)
    request = next(f for f in altered["functions"] if f["name"] == "rift_request")
    assert request["args"][5] == ["body_len", "size_t"]
    request["args"][5] = ["body_len", "uint32_t"]
    copy_path = tmp_path / "abi.json"
    copy_path.write_text(json.dumps(altered))
    problems = compare_with_abi_json(json.loads(copy_path.read_text()))
    assert len(problems) == 1 and "rift_request" in problems[0] and "uint32_t" in problems[0]


def test_a_missing_or_extra_function_is_caught(abi):
    fewer = copy.deepcopy(abi)
    fewer["functions"] = [f for f in fewer["functions"] if f["name"] != "rift_free"]
    assert any("rift_free" in p for p in compare_with_abi_json(fewer))
    more = copy.deepcopy(abi)
    more["functions"].append({"name": "rift_new", "returns": "void", "args": []})
    assert any("rift_new" in p for p in compare_with_abi_json(more))


def test_loaded_library_reports_abi_1():
    lib = _ffi.load()
    assert lib.rift_abi_version() == 1
    info = lib.build_info()
    assert info["abi"] == 1 and "javascript" in info["features"]
    assert lib.status_name(-3) == "RIFT_ERR_STATE"


def test_a_different_abi_version_is_refused(monkeypatch):
    monkeypatch.setattr(_ffi, "EXPECTED_ABI", 2)
    with pytest.raises(RiftLoadError, match="ABI version 1; this SDK needs 2"):
        _ffi.Library(_ffi.locate_library())


def test_a_missing_library_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("RIFT_LIB", str(tmp_path / "nope.so"))
    with pytest.raises(RiftLoadError, match="RIFT_LIB=.*nope.so is not a file"):
        _ffi.locate_library()
