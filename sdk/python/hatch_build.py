"""Wheel hook: with RIFT_LIB set at build time, the wheel carries that librift as
rift/_native/librift.so.1 and is tagged for this platform; without it, the wheel is pure and
librift comes from RIFT_LIB at run time."""

from __future__ import annotations

import os
import sysconfig

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        lib = os.environ.get("RIFT_LIB")
        if not lib:
            return
        if not os.path.isfile(lib):
            raise FileNotFoundError(f"RIFT_LIB={lib} is not a file")
        build_data["force_include"][os.path.realpath(lib)] = "rift/_native/librift.so.1"
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"
