#!/usr/bin/env python3
"""Holds every #include in the tree to the direction of the library links.

A *room* is a source folder with its own library (compiler/, frontends/, codegen/, each
runtime/<room>/). CMake writes the rooms and the rift libraries each one links
(build/layering_rooms.txt, see the top-level CMakeLists.txt); a file in a room may include
its own room and the rooms its library reaches through those links, nothing else. The
leaves (tools/, tests/, bench/) may include any room; no room may include a leaf. So the
links are the one statement of the architecture, and an include that runs against them,
upward or sideways, fails here with the file, the line and the rule it breaks.

Usage: check_layering.py --rooms build/layering_rooms.txt [--root .]
Exit status 0: every include points down; 1: the violations are printed; 2: bad input.
"""

import argparse
import os
import re
import sys
from pathlib import Path

LEAVES = ("tools", "tests", "bench", "embed")
SOURCE_SUFFIXES = {".h", ".hpp", ".cpp", ".cc", ".c", ".re"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_rooms(path):
    """folder -> (library, [linked rift libraries]) from CMake's list."""
    rooms = {}
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 2:
            raise ValueError(f"{path}:{number}: expected '<folder> <library> [links...]'")
        rooms[fields[0]] = (fields[1], fields[2:])
    return rooms


def reachable(rooms):
    """library -> the set of libraries it reaches (itself included); raises on a cycle."""
    direct = {}
    for library, links in rooms.values():
        direct.setdefault(library, set()).update(links)
    known = set(direct)
    closure = {}
    visiting = []

    def visit(library):
        if library in closure:
            return closure[library]
        if library in visiting:
            cycle = visiting[visiting.index(library):] + [library]
            raise ValueError("the rooms' links form a cycle: " + " -> ".join(cycle))
        visiting.append(library)
        seen = {library}
        for below in sorted(direct[library] & known):
            seen |= visit(below)
        visiting.pop()
        closure[library] = seen
        return seen

    for library in sorted(direct):
        visit(library)
    return closure


def room_of(relative_path, folders):
    """The longest room (or leaf) that `relative_path` lies in, or None. A room is a folder, or
    a file stem ("codegen/compiled_matcher" holds its .h and .cpp) where one folder builds two
    libraries."""
    best = None
    for folder in list(folders) + list(LEAVES):
        if relative_path == folder or relative_path.startswith((folder + "/", folder + ".")):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def sources(root):
    """Every C/C++ source under `root`, leaving out build trees, .git and node_modules."""
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(
            name for name in subdirectories
            if not (name.startswith("build") and Path(directory) == root)
            and name not in (".git", "node_modules"))
        for name in sorted(files):
            if Path(name).suffix in SOURCE_SUFFIXES:
                yield Path(directory) / name


def violations(root, rooms):
    closure = reachable(rooms)
    found = []
    for path in sources(Path(root)):
        relative = path.relative_to(root).as_posix()
        source_room = room_of(relative, rooms)
        if source_room is None:
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target_room = room_of(match.group(1), rooms)
            if target_room is None or target_room == source_room:
                continue
            source_library = rooms.get(source_room, (None,))[0]
            target_library = rooms.get(target_room, (None,))[0]
            if source_room in LEAVES:
                if target_room in LEAVES:
                    found.append(f"{relative}:{number}: includes {match.group(1)}: "
                                 f"{source_room}/ may not include another leaf ({target_room}/)")
                continue
            if target_room in LEAVES:
                found.append(f"{relative}:{number}: includes {match.group(1)}: a room may not "
                             f"include {target_room}/")
            elif target_library not in closure[source_library]:
                allowed = sorted(room for room, (library, _) in rooms.items()
                                 if library in closure[source_library])
                found.append(f"{relative}:{number}: includes {match.group(1)}: {source_room} "
                             f"({source_library}) does not link {target_library}; "
                             f"it may include {', '.join(allowed)}")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", required=True, help="the rooms file CMake writes")
    parser.add_argument("--root", default=".", help="the source tree")
    arguments = parser.parse_args()
    try:
        rooms = read_rooms(arguments.rooms)
        found = violations(Path(arguments.root), rooms)
    except (OSError, ValueError) as error:
        print(f"check_layering: {error}", file=sys.stderr)
        return 2
    for line in found:
        print(line)
    if found:
        print(f"check_layering: {len(found)} include(s) against the direction of the links",
              file=sys.stderr)
        return 1
    print(f"check_layering: {len(rooms)} rooms, every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
