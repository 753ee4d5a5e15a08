"""librift through ctypes: the binding table, the loader and the calls.

The binding table below is written once; every ctypes prototype is derived from it, and
tests/test_abi.py compares it with librift's embed/abi.json.
"""

from __future__ import annotations

import ctypes
import json
import os
import threading
from pathlib import Path
from typing import Optional, Sequence

from .errors import RiftError, RiftLoadError

EXPECTED_ABI = 1

# (name, return type, [(argument name, argument type), ...]) exactly as in rift.h / abi.json.
BINDINGS: list[tuple[str, str, list[tuple[str, str]]]] = [
    ("rift_abi_version", "uint32_t", []),
    ("rift_build_info", "const char *", []),
    ("rift_engine_open", "int32_t",
     [("options_json", "const char *"), ("out_engine", "rift_engine **"),
      ("out_error", "char **")]),
    ("rift_engine_close", "int32_t", [("engine", "rift_engine *")]),
    ("rift_request", "int32_t",
     [("engine", "rift_engine *"), ("method", "const char *"), ("target", "const char *"),
      ("headers_json", "const char *"), ("body", "const char *"), ("body_len", "size_t"),
      ("out_status", "int32_t *"), ("out_body", "char **"), ("out_body_len", "size_t *"),
      ("out_headers_json", "char **"), ("out_error", "char **")]),
    ("rift_serve_admin", "int32_t",
     [("engine", "rift_engine *"), ("options_json", "const char *"), ("out_json", "char **"),
      ("out_error", "char **")]),
    ("rift_free", "void", [("pointer", "void *")]),
    ("rift_status_name", "const char *", [("status", "int32_t")]),
]

# C type -> ctypes type. Returned strings are c_void_p: c_char_p would copy and lose the pointer.
_ARG_TYPES = {
    "uint32_t": ctypes.c_uint32,
    "int32_t": ctypes.c_int32,
    "size_t": ctypes.c_size_t,
    "const char *": ctypes.c_char_p,
    "void *": ctypes.c_void_p,
    "rift_engine *": ctypes.c_void_p,
    "rift_engine **": ctypes.POINTER(ctypes.c_void_p),
    "char **": ctypes.POINTER(ctypes.c_void_p),
    "int32_t *": ctypes.POINTER(ctypes.c_int32),
    "size_t *": ctypes.POINTER(ctypes.c_size_t),
}
_RETURN_TYPES = {
    "void": None,
    "uint32_t": ctypes.c_uint32,
    "int32_t": ctypes.c_int32,
    "const char *": ctypes.c_void_p,
}


def compare_with_abi_json(abi: dict, bindings: Sequence = BINDINGS) -> list[str]:
    """Differences between a binding table and an abi.json document (empty when they agree)."""
    problems: list[str] = []
    theirs = {f["name"]: f for f in abi.get("functions", [])}
    ours = {name: (ret, args) for name, ret, args in bindings}
    if abi.get("abi") != EXPECTED_ABI:
        problems.append(f"abi.json declares abi {abi.get('abi')!r}, the SDK binds {EXPECTED_ABI}")
    for name in sorted(set(theirs) - set(ours)):
        problems.append(f"{name}: in abi.json, not bound by the SDK")
    for name in sorted(set(ours) - set(theirs)):
        problems.append(f"{name}: bound by the SDK, not in abi.json")
    for name in sorted(set(ours) & set(theirs)):
        ret, args = ours[name]
        if _norm(theirs[name]["returns"]) != _norm(ret):
            problems.append(f"{name}: returns {theirs[name]['returns']!r}, SDK says {ret!r}")
        their_args = [(a[0], _norm(a[1])) for a in theirs[name]["args"]]
        our_args = [(a[0], _norm(a[1])) for a in args]
        if their_args != our_args:
            problems.append(f"{name}: arguments {their_args} in abi.json, SDK says {our_args}")
    return problems


def _norm(ctype: str) -> str:
    return " ".join(ctype.replace("*", " * ").split()).replace("* *", "**")


def locate_library() -> Path:
    env = os.environ.get("RIFT_LIB")
    if env:
        if not Path(env).is_file():
            raise RiftLoadError(f"RIFT_LIB={env} is not a file")
        return Path(env)
    packaged = Path(__file__).resolve().parent / "_native" / "librift.so.1"
    if packaged.is_file():
        return packaged
    raise RiftLoadError(
        "librift not found: set RIFT_LIB to librift.so.1, or install a wheel built with RIFT_LIB "
        "(it carries rift/_native/librift.so.1)")


class Library:
    """One loaded librift with typed functions. Never unloaded (librift is -z nodelete)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            # RTLD_LOCAL: librift's dependencies stay out of the global symbol scope.
            self._dll = ctypes.CDLL(str(self.path), mode=os.RTLD_LOCAL | os.RTLD_NOW)
        except OSError as exc:
            raise RiftLoadError(f"cannot load {self.path}: {exc}") from exc
        for name, ret, args in BINDINGS:
            try:
                fn = getattr(self._dll, name)
            except AttributeError as exc:
                raise RiftLoadError(f"{self.path} lacks {name}") from exc
            fn.restype = _RETURN_TYPES[ret]
            fn.argtypes = [_ARG_TYPES[t] for _, t in args]
            setattr(self, name, fn)
        version = self.rift_abi_version()
        if version != EXPECTED_ABI:
            raise RiftLoadError(
                f"{self.path} has ABI version {version}; this SDK needs {EXPECTED_ABI}")

    def build_info(self) -> dict:
        ptr = self.rift_build_info()
        return json.loads(ctypes.string_at(ptr).decode()) if ptr else {}

    def status_name(self, status: int) -> str:
        ptr = self.rift_status_name(status)
        return ctypes.string_at(ptr).decode() if ptr else "RIFT_ERR_UNKNOWN"

    def take_string(self, ptr: ctypes.c_void_p, length: Optional[int] = None) -> Optional[bytes]:
        """Copies an out-parameter string and frees librift's copy."""
        if not ptr.value:
            return None
        try:
            return ctypes.string_at(ptr.value, length) if length is not None \
                else ctypes.string_at(ptr.value)
        finally:
            self.rift_free(ptr.value)
            ptr.value = None

    def error(self, status: int, err_ptr: ctypes.c_void_p) -> RiftError:
        raw = self.take_string(err_ptr)
        code, name, message = status, self.status_name(status), ""
        if raw:
            try:
                parsed = json.loads(raw.decode("utf-8", "replace"))
                code = parsed.get("code", code)
                name = parsed.get("name", name)
                message = parsed.get("message", "")
            except ValueError:
                message = raw.decode("utf-8", "replace")
        return RiftError(code, name, message)


_lock = threading.Lock()
_loaded: dict[str, Library] = {}


def load(path: Optional[os.PathLike] = None) -> Library:
    """Loads librift once per path (RIFT_LIB, then the packaged copy, unless a path is given)."""
    resolved = Path(path) if path else locate_library()
    key = str(resolved.resolve())
    with _lock:
        lib = _loaded.get(key)
        if lib is None:
            lib = Library(resolved)
            _loaded[key] = lib
        return lib
