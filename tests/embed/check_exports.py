#!/usr/bin/env python3
"""librift exports rift_* only, and every function of abi.json.

Usage: check_exports.py --library librift.so --abi abi.json
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
    arguments = parser.parse_args()
    out = subprocess.run(["nm", "-D", "--defined-only", arguments.library], check=True,
                         capture_output=True, text=True).stdout
    exported = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3:
            exported.add(fields[2].split("@")[0])
    # The version node itself appears as an absolute symbol (RIFT_1).
    exported.discard("RIFT_1")
    stray = sorted(name for name in exported if not name.startswith("rift_"))
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
