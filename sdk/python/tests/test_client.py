"""One client interface, the same behaviour on embedded, spawn and connect."""

from __future__ import annotations

import json

import pytest

from rift import (RiftHttpError, VerificationError, at_least, contains, equals, exists,
                  imposter, inject, json_response, never, not_, ok, ok_json, on_get, on_post,
                  proxy, status, stub, times, verify)


def test_dsl_stub_call_and_verify(any_rift):
    users = any_rift.create(imposter("users").record().stub(
        on_get("/users/1").will_return(ok_json({"id": 1, "name": "Ada"}))))
    try:
        resp = users.get("/users/1")
        assert resp.status == 200
        assert resp.json() == {"id": 1, "name": "Ada"}
        assert resp.header("content-type") == "application/json"
        assert users.get("/users/2").status == 200  # Mountebank's default: 200, empty body
        users.verify(on_get("/users/1"), times(1))
        verify(users, on_get("/users/2"), times(1))
        users.verify(on_get("/users/3"), never())
        with pytest.raises(VerificationError, match="exactly 2 .* found 1"):
            users.verify(on_get("/users/1"), times(2))
    finally:
        users.delete()


def test_verify_matches_query_headers_and_body(any_rift):
    orders = any_rift.create(imposter("orders").record().stub(
        on_post("/orders").with_body({"item": "book"}).will_return(status(201, "created"))))
    try:
        resp = orders.call("POST", "/orders?src=web", json.dumps({"item": "book", "qty": 2}),
                           {"Content-Type": "application/json", "X-Trace": "t1"})
        assert (resp.status, resp.text) == (201, "created")
        assert orders.post("/orders", "{}").status == 200
        orders.verify(on_post("/orders").with_query("src", "web"), times(1))
        orders.verify(on_post("/orders").with_header("x-trace", "t1"), times(1))
        orders.verify(on_post("/orders").with_body({"item": "book"}), times(1))
        orders.verify(on_post("/orders"), at_least(2))
        orders.verify(on_post("/orders").with_query("src", "app"), never())
        with pytest.raises(VerificationError):
            orders.verify(on_post("/orders").with_header("X-Trace", "t2"), times(1))
    finally:
        orders.delete()


def test_predicates_cycles_and_behaviors(any_rift):
    imp = any_rift.create(
        imposter("preds")
        .stub(stub(contains(path="/search"), exists(query={"q": True}))
              .will_return(ok("found")))
        .stub(stub(not_(equals(method="GET")), equals(path="/cycle"))
              .will_return(status(500, "first"), ok("second").repeat(2)))
        .stub(on_get("/wait").will_return(ok("late").wait(20)))
        .stub(on_get("/copy/42").will_return(
            ok("id=${id}").copy("path", "${id}", {"method": "regex", "selector": "\\d+"})))
        .default_response(status(404, "none")))
    try:
        assert imp.get("/search?q=x").text == "found"
        assert imp.get("/search").status == 404
        got = [imp.post("/cycle").text for _ in range(4)]
        assert got == ["first", "second", "second", "first"]
        assert imp.get("/wait").text == "late"
        assert imp.get("/copy/42").text == "id=42"
    finally:
        imp.delete()


def test_inject_and_proxy(any_rift):
    origin = any_rift.create(imposter("origin").stub(
        on_get("/hello").will_return(json_response(200, {"from": "origin"}))))
    scripted = any_rift.create(imposter("scripted").stub(
        on_get("/js").will_return(
            inject("(config) => ({ statusCode: 202, body: 'path ' + config.request.path })"))))
    front = any_rift.create(imposter("front").stub(
        stub().will_return(proxy(f"http://127.0.0.1:{origin.port}", "proxyOnce"))))
    try:
        js = scripted.get("/js")
        assert (js.status, js.text) == (202, "path /js")
        assert front.get("/hello").json() == {"from": "origin"}
        assert front.get("/hello").json() == {"from": "origin"}  # replayed
    finally:
        for imp in (origin, scripted, front):
            imp.delete()


def test_raw_json_and_request_escape_hatch(any_rift):
    raw = any_rift.create_json(
        '{"protocol": "http", "stubs": [{"responses": [{"is": {"body": "raw"}}]}]}')
    try:
        assert raw.get("/anything").text == "raw"
        listed = any_rift.request("GET", "/imposters")
        assert listed.status == 200 and raw.port in [i["port"] for i in listed.json()["imposters"]]
        bad = any_rift.request("POST", "/imposters", "{not json",
                               {"Content-Type": "application/json"})
        assert bad.status == 400 and "errors" in bad.json()
        with pytest.raises(RiftHttpError) as err:
            any_rift.create({"protocol": "gopher"})
        assert err.value.status == 400
    finally:
        raw.delete()
    assert any_rift.request("GET", f"/imposters/{raw.port}").status == 404
