#!/usr/bin/env python3
"""Regenerates the benchmark imposter fixture (docs/benchmark-workload.md §3-5).

The canonical POST body of each imposter is `json.dumps(doc)` with Python's default separators
(", " and ": "), keys in insertion order, no trailing newline. With the default stub counts and
offset 0 every body's SHA-256 must equal the digest published in §4.

  python3 bench/fixture.py                 # print bytes + digests, verify (exit 1 on mismatch)
  python3 bench/fixture.py --out DIR       # also write DIR/<port>-<Name>.json
  python3 bench/fixture.py --offset 100    # Mountebank ports (digests only checked at offset 0)
  python3 bench/fixture.py --config examples/benchmark.json   # the workload as one config

Importable: `imposters(offset, stub_count, body_field_stubs, recording)` returns
[(name, base_port, body_str), ...] in creation order.
"""
import argparse
import hashlib
import json
import os
import sys

CT_JSON = {"Content-Type": "application/json"}


def stub(predicates, status=200, headers=None, body=None):
    response = {"statusCode": status}
    if headers is not None:
        response["headers"] = headers
    if body is not None:
        response["body"] = body
    return {"predicates": predicates, "responses": [{"is": response}]}


def body_text(obj):
    """Response bodies are JSON-encoded strings whose inner text uses ", " / ": "."""
    return json.dumps(obj)


def g1_simple():
    return [stub([{"equals": {"path": "/health"}}], body="OK"),
            stub([{"equals": {"path": "/ping"}}], body="pong")]


def g2_api():
    stubs = []
    for r in range(1, 11):
        name = f"resource{r}"
        stubs.append(stub([{"equals": {"method": "GET", "path": f"/api/v1/{name}"}}],
                          headers=dict(CT_JSON),
                          body=body_text({"items": [{"id": 1}, {"id": 2}], "total": 2})))
        for j in range(1, 11):
            path = f"/api/v1/{name}/{j}"
            stubs.append(stub([{"equals": {"method": "GET", "path": path}}], headers=dict(CT_JSON),
                              body=body_text({"id": j, "name": f"{name}_{j}"})))
            stubs.append(stub([{"equals": {"method": "PUT", "path": path}}],
                              body=body_text({"id": j, "updated": True})))
            stubs.append(stub([{"equals": {"method": "DELETE", "path": path}}], status=204))
    return stubs


def g3_regex():
    return [stub([{"matches": {"path": f"/regex/pattern{i}/[a-zA-Z0-9]+"}}], body=f"regex {i}")
            for i in range(1, 101)]


def g4_complex():
    out = []
    for i in range(1, 51):
        pred = {"and": [{"equals": {"method": "POST"}},
                        {"startsWith": {"path": f"/complex/{i}/"}},
                        {"or": [{"contains": {"headers": {"X-Request-Type": "json"}}},
                                {"contains": {"headers": {"Content-Type": "application/json"}}}]}]}
        out.append(stub([pred], headers=dict(CT_JSON),
                        body=body_text({"complex": i, "matched": True})))
    return out


def g5_json_body(n=50):
    return [stub([{"equals": {"method": "POST", "path": f"/json/equals/{i}",
                              "body": {"id": i, "type": "request"}}}],
                 body=body_text({"matched": "equals", "id": i}))
            for i in range(1, n + 1)]


def g6_jsonpath():
    return [stub([{"equals": {"method": "POST", "path": f"/jsonpath/{i}"}},
                  {"equals": {"body": f"{i}"}, "jsonpath": {"selector": "$.user.id"}}],
                 body=body_text({"jsonpath_matched": True, "user_id": i}))
            for i in range(1, 51)]


def g7_xpath():
    return [stub([{"equals": {"method": "POST", "path": f"/xpath/{i}"}},
                  {"exists": {"body": True}, "xpath": {"selector": f"//item[@id='{i}']"}}],
                 headers={"Content-Type": "application/xml"},
                 body=f"<response><id>{i}</id></response>")
            for i in range(1, 51)]


def g8_template():
    return [stub([{"equals": {"path": f"/template/{i}"}}],
                 headers={"Content-Type": "application/json", "X-Request-Path": "${request.path}"},
                 body=body_text({"template": i, "path": "${request.path}",
                                 "query": "${request.query}"}))
            for i in range(1, 51)]


def g9_header():
    return [stub([{"equals": {"path": "/headers/route", "headers": {"X-Route-Id": f"route-{i}"}}}],
                 body=body_text({"routed_to": i}))
            for i in range(1, 101)]


def g10_query():
    return [stub([{"equals": {"path": "/query/search", "query": {"page": f"{i}", "size": "10"}}}],
                 body=body_text({"page": i}))
            for i in range(1, 101)]


def g11_deep_equals():
    return [stub([{"deepEquals": {"method": "POST", "path": f"/deep/equals/{i}",
                                  "body": {"order": {"id": i, "items": [{"sku": f"sku-{i}",
                                                                         "qty": i}]},
                                           "meta": {"source": "bench"}}}}],
                 body=body_text({"matched": "deepEquals", "order": i}))
            for i in range(1, 51)]


def g12_literal():
    out = []
    for i in range(1, 101):
        out.append(stub([{"startsWith": {"path": f"/literal/prefix{i}/"}}],
                        body=body_text({"literal": i, "kind": "prefix"})))
        out.append(stub([{"contains": {"path": f"/needle{i}/"}}],
                        body=body_text({"literal": i, "kind": "contains"})))
    return out


def g13_method_mix():
    return [stub([{"equals": {"method": verb, "path": f"/method/{i}"}}],
                 body=body_text({"method_matched": verb, "id": i}))
            for i in range(1, 51) for verb in ("PUT", "DELETE", "PATCH", "OPTIONS")]


def g14_body_field(n=200):
    return [stub([{"equals": {"method": "POST", "path": "/orders/submit",
                              "body": {"orderId": f"ord-{i}", "channel": "web"}}}],
                 body=body_text({"body_field_matched": True, "order": i}))
            for i in range(1, n + 1)]


# (name, base port, published bytes, published sha256) in creation order.
TABLE = [
    ("Simple", 4549, 281, "0f356d9af6f8ebb2485eda087929dfdf78cf761fd6398f08fd27d9ee19b5c7e4"),
    ("API", 4545, 54121, "342e9ebf45df1af9bcae959165c4b2d57e01e1109c383ccc419a0f0590b0c0b4"),
    ("Regex", 4546, 13846, "6b3661f2e19b44e7fb9ff1b17a5ddc10cf2942d46f3da852d4fee1f3079a2394"),
    ("Complex", 4547, 18746, "1835fa9d566d9ae1fbccfa35022831aaa075db906f1722152c00927fc6632db3"),
    ("JSONBody", 4550, 10488, "15e901f2b5b40fd39a55c9c7e6140b1e19fcc5360dfd5c3b9c31ad169357a17d"),
    ("JSONPath", 4551, 12138, "930bc5efe94f9eda50997132cabd8006918ee0f27e65e17b2810e2b5cde4ac57"),
    ("XPath", 4552, 13935, "626acb0a4fdcb32a1b1f96a4ca1f4fb87761042ab9fac764e9955e9c56388db7"),
    ("Template", 4553, 14047, "547d77da7ebaae584336e08ee4d5df3ee9286273f6f07d199ce9bbe0c793a875"),
    ("Header", 4554, 17247, "47e1e6031aa3e99ffdb061b59b3ae8f777d528337b047f076302930a90ec2d27"),
    ("Query", 4555, 16646, "1275423d1f8251d0a188861558c06665c044ec931654ec6e215ab26839e7e55a"),
    ("DeepEquals", 4560, 14122, "7d1faa6ba05fa1e413cebf6eb22beaab564f0d77fa687dc5bb60b90f6e7c2839"),
    ("Literal", 4557, 31432, "499ebc36fdda548d0272cfbf9b45bba4e32713c62c927e589378f98e1195aa57"),
    ("MethodMix", 4558, 34494, "c2e1e360366610b4c95842d87747784eadf30b2a9eb3e8da5363c88d1689a82e"),
    ("BodyField", 4559, 45450, "ab90f0d9504433b008c693a18e8a730917c93a7788975740c05c3a134ea120bd"),
]
RECORDING = ("Recording", 4556, 54151,
             "8df5295919d83e8e34e0f8e5f1c244926f78fa4a39aee5680b1b7cd6008c3852")

DEFAULT_STUB_COUNT = 50
DEFAULT_BODY_FIELD_STUBS = 200


def generate_stubs(name, stub_count=DEFAULT_STUB_COUNT, body_field_stubs=DEFAULT_BODY_FIELD_STUBS):
    return {
        "Simple": g1_simple, "API": g2_api, "Regex": g3_regex, "Complex": g4_complex,
        "JSONBody": lambda: g5_json_body(stub_count), "JSONPath": g6_jsonpath,
        "XPath": g7_xpath, "Template": g8_template, "Header": g9_header, "Query": g10_query,
        "DeepEquals": g11_deep_equals, "Literal": g12_literal, "MethodMix": g13_method_mix,
        "BodyField": lambda: g14_body_field(body_field_stubs), "Recording": g2_api,
    }[name]()


def imposter_body(name, port, stubs):
    doc = {"port": port, "protocol": "http", "name": name}
    if name == "Recording":
        doc["recordRequests"] = True
    doc["stubs"] = stubs
    return json.dumps(doc)


def imposters(offset=0, stub_count=DEFAULT_STUB_COUNT, body_field_stubs=DEFAULT_BODY_FIELD_STUBS,
              recording=False):
    rows = TABLE + ([RECORDING] if recording else [])
    return [(name, base, imposter_body(name, base + offset,
                                       generate_stubs(name, stub_count, body_field_stubs)))
            for name, base, _, _ in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--offset", type=int, default=0, help="port offset (Mountebank: 100)")
    ap.add_argument("--stub-count", type=int, default=DEFAULT_STUB_COUNT,
                    help="JSONBody (G5) stub count (default 50)")
    ap.add_argument("--body-field-stubs", type=int, default=DEFAULT_BODY_FIELD_STUBS,
                    help="BodyField (G14) stub count (default 200)")
    ap.add_argument("--no-recording", action="store_true", help="omit the Recording imposter")
    ap.add_argument("--out", metavar="DIR", help="write canonical POST bodies to DIR")
    ap.add_argument("--config", metavar="FILE",
                    help="write every imposter into one --configfile document (riftc compile)")
    args = ap.parse_args()

    published = {name: (nbytes, digest) for name, _, nbytes, digest in TABLE + [RECORDING]}
    checkable = (args.offset == 0 and args.stub_count == DEFAULT_STUB_COUNT and
                 args.body_field_stubs == DEFAULT_BODY_FIELD_STUBS)
    rows = imposters(args.offset, args.stub_count, args.body_field_stubs,
                     recording=not args.no_recording)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    failures = 0
    total_stubs = 0
    for name, base, body in rows:
        data = body.encode("ascii")
        digest = hashlib.sha256(data).hexdigest()
        nstubs = len(json.loads(body)["stubs"])
        if name != "Recording":
            total_stubs += nstubs
        status = "-"
        if checkable:
            ok = (len(data), digest) == published[name]
            status = "OK" if ok else f"MISMATCH (want {published[name][0]} {published[name][1]})"
            failures += not ok
        print(f"{base + args.offset:5d} {name:<11} {nstubs:5d} stubs {len(data):6d} B "
              f"{digest} {status}")
        if args.out:
            with open(os.path.join(args.out, f"{base + args.offset}-{name}.json"), "wb") as f:
                f.write(data)
    if args.config:
        with open(args.config, "w") as f:
            docs = [json.loads(body) for _, _, body in rows]
            f.write(json.dumps({"imposters": docs}, indent=2) + "\n")
    print(f"fixture: {len([r for r in rows if r[0] != 'Recording'])} imposters, "
          f"{total_stubs} stubs" + (" (+ Recording)" if not args.no_recording else ""))
    if not checkable:
        print("digests not checked (non-default offset or stub counts)")
    elif failures:
        print(f"FAIL: {failures} digest mismatch(es)", file=sys.stderr)
        return 1
    else:
        print("all digests match docs/benchmark-workload.md §4")
    return 0


if __name__ == "__main__":
    sys.exit(main())
