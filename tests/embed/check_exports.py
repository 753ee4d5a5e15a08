#!/usr/bin/env python3
"""librift exports rift_* only, and every function of abi.json.

Usage: check_exports.py --library librift.so --abi abi.json [--also-cxx rift::compiled::]

--also-cxx allows C++ symbols whose demangled names start with the prefix (librift-jit exports
what its generated code calls by name).
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", required=True)
    parser.add_argument("--abi", required=True)
    parser.add_argument("--also-cxx", default=None, metavar="PREFIX")
    arguments = parser.parse_args()
    out = subprocess.run(["nm", "-D", "--defined-only", arguments.library], check=True,
                         capture_output=True, text=True).stdout
    exported = set()
    for line in out.splitlines():
        fields = line.split()
        # A lower-case type is a local symbol, which nothing outside can bind to; u, v and w
        # (unique and weak) are global.
        if len(fields) >= 3 and not (fields[1].islower() and fields[1] not in "uvw"):
            exported.add(fields[2].split("@")[0])
    # The version node itself appears as an absolute symbol (RIFT_1).
    exported.discard("RIFT_1")
    stray = sorted(name for name in exported if not name.startswith("rift_"))
    if arguments.also_cxx:
        demangled = subprocess.run(["c++filt"], input="\n".join(stray), check=True,
                                   capture_output=True, text=True).stdout.splitlines()
        allowed = {name for name, plain in zip(stray, demangled)
                   if plain.startswith(arguments.also_cxx)}
        if not allowed:
            print(f"no exported symbol starts with {arguments.also_cxx}")
            return 1
        stray = [name for name in stray if name not in allowed]
    wanted = {f["name"] for f in json.loads(Path(arguments.abi).read_text())["functions"]}
    missing = sorted(wanted - exported)
    extra = sorted(name for name in exported - wanted if name.startswith("rift_"))
    for name in stray[:50]:
        print(f"exported but not rift_*: {name}")
    if len(stray) > 50:
        print(f"... and {len(stray) - 50} more")
    for name in missing:
        print(f"in abi.json, not exported: {name}")
    for name in extra:
        print(f"exported, not in abi.json: {name}")
    if stray or missing or extra:
        return 1
    print(f"check_exports: exactly the {len(wanted)} functions of abi.json are exported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
