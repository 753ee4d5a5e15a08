#!/usr/bin/env python3
"""Checks embed/include/rift.h's prototypes against embed/abi.json, exactly.

Every RIFT_API prototype of the header is parsed (the header is ours and simple: one
declaration per `RIFT_API ... ;`), its return type and its arguments' names and types
normalised, and compared with abi.json: the same functions, in any order, each with the same
return type and the same arguments in the same order. A difference fails with a diff.

--self-test: also proves the check fails on a drifted copy of the header (an argument's type
changed, an argument dropped, a function missing) and passes on the header as it is.

Usage: check_abi.py --header rift.h --abi abi.json [--self-test]
"""

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

PROTOTYPE = re.compile(
    r"RIFT_API\s+([^;]*?)\b(rift_\w+)\s*\(([^)]*)\)\s*(?:RIFT_NOEXCEPT\s*)?;", re.S)


def normal_type(text):
    """'const  char*' -> 'const char *'; 'rift_engine **' stays."""
    text = re.sub(r"\s+", " ", text.strip())
    text = re.sub(r"\s*\*\s*", " *", text)
    text = text.replace("* *", "**").replace("* *", "**")
    return text.strip()


def parse_header(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    functions = {}
    for match in PROTOTYPE.finditer(text):
        returns, name, args = match.groups()
        arguments = []
        args = args.strip()
        if args and args != "void":
            for arg in args.split(","):
                arg = arg.strip()
                found = re.match(r"(.*?)(\w+)$", arg, re.S)
                if not found:
                    raise ValueError(f"{name}: cannot read argument '{arg}'")
                arguments.append([found.group(2), normal_type(found.group(1))])
        functions[name] = {"returns": normal_type(returns), "args": arguments}
    return functions


def read_abi(path):
    data = json.loads(Path(path).read_text())
    return {f["name"]: {"returns": normal_type(f["returns"]),
                        "args": [[a, normal_type(t)] for a, t in f["args"]]}
            for f in data["functions"]}


def differences(header, abi):
    found = []
    for name in sorted(set(abi) - set(header)):
        found.append(f"- {name}: in abi.json, not in the header")
    for name in sorted(set(header) - set(abi)):
        found.append(f"+ {name}: in the header, not in abi.json")
    for name in sorted(set(abi) & set(header)):
        want, have = abi[name], header[name]
        if want["returns"] != have["returns"]:
            found.append(f"~ {name}: returns '{have['returns']}' in the header, "
                         f"'{want['returns']}' in abi.json")
        if want["args"] != have["args"]:
            found.append(f"~ {name}: arguments differ\n    abi.json: {want['args']}\n"
                         f"    header:   {have['args']}")
    return found


def check(header_path, abi_path):
    header = parse_header(Path(header_path).read_text())
    abi = read_abi(abi_path)
    if not header:
        return ["no RIFT_API prototypes found in the header"]
    return differences(header, abi)


def self_test(header_path, abi_path):
    text = Path(header_path).read_text()
    drifts = {
        "an argument's type": text.replace("size_t body_len", "int32_t body_len", 1),
        "a dropped argument": re.sub(r"const char\s*\*\s*headers_json,\s*", "", text,
                                     count=1),
        "a return type": text.replace("RIFT_API uint32_t rift_abi_version",
                                      "RIFT_API int32_t rift_abi_version", 1),
        "a missing function": re.sub(r"RIFT_API void rift_free\([^)]*\)[^;]*;", "", text),
    }
    failures = []
    if check(header_path, abi_path):
        failures.append("the header as it is does not pass")
    with tempfile.TemporaryDirectory() as directory:
        for what, drifted in drifts.items():
            if drifted == text:
                failures.append(f"self-test could not make {what} (the header changed?)")
                continue
            path = Path(directory) / "rift.h"
            path.write_text(drifted)
            found = check(path, abi_path)
            if not found:
                failures.append(f"a drifted header ({what}) passed the check")
            else:
                print(f"drift caught ({what}): {found[0].splitlines()[0]}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--header", required=True)
    parser.add_argument("--abi", required=True)
    parser.add_argument("--self-test", action="store_true")
    arguments = parser.parse_args()
    if arguments.self_test:
        failures = self_test(arguments.header, arguments.abi)
        for line in failures:
            print("self-test: " + line)
        return 1 if failures else 0
    found = check(arguments.header, arguments.abi)
    for line in found:
        print(line)
    if found:
        print(f"check_abi: {arguments.header} and {arguments.abi} differ", file=sys.stderr)
        return 1
    print(f"check_abi: {len(read_abi(arguments.abi))} functions agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
