"""One stubbed GET (small JSON body): the embedded gateway vs loopback HTTP to a spawned rift.

    RIFT_LIB=... RIFT_BIN=... python bench/bench.py [N] [WARMUP]

Prints microseconds per call for each. HTTP uses one kept-alive connection (http.client).
"""

from __future__ import annotations

import sys
import time

from rift import Rift, imposter, ok_json, on_get


def measure(rift: Rift, n: int, warmup: int) -> float:
    imp = rift.create(imposter("bench").stub(
        on_get("/users/1").will_return(ok_json({"id": 1, "name": "Ada"}))))
    try:
        for _ in range(warmup):
            resp = imp.get("/users/1")
        assert resp.status == 200 and resp.json()["id"] == 1
        start = time.perf_counter()
        for _ in range(n):
            imp.get("/users/1")
        elapsed = time.perf_counter() - start
    finally:
        imp.delete()
    return elapsed / n * 1e6


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    with Rift.embedded() as rift:
        embedded = measure(rift, n, warmup)
    with Rift.spawn() as rift:
        http = measure(rift, n, warmup)
    print(f"N={n} warmup={warmup}")
    print(f"embedded gateway (rift_request /__rift/<port>/...): {embedded:8.1f} us/call")
    print(f"spawned rift over loopback HTTP/1.1 (keep-alive):   {http:8.1f} us/call")


if __name__ == "__main__":
    main()
