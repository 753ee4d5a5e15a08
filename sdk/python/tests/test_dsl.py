"""The DSL's JSON, without an engine."""

from __future__ import annotations

from rift import (and_, contains, deep_equals, ends_with, equals, exists, imposter, inject,
                  matches, not_, ok, ok_json, on_get, or_, proxy, starts_with, stub)


def test_imposter_json_shape():
    built = imposter("users").port(4545).record().stub(
        on_get("/users/1?active=true").with_header("Accept", "application/json")
        .will_return(ok_json({"id": 1}).wait(10))).to_dict()
    assert built == {
        "protocol": "http", "name": "users", "port": 4545, "recordRequests": True,
        "stubs": [{
            "predicates": [{"equals": {"method": "GET", "path": "/users/1",
                                       "query": {"active": "true"},
                                       "headers": {"Accept": "application/json"}}}],
            "responses": [{"is": {"statusCode": 200,
                                  "headers": {"Content-Type": "application/json"},
                                  "body": {"id": 1}},
                           "_behaviors": {"wait": 10}}]}]}


def test_every_predicate_operator():
    preds = stub(
        equals(path="/a"), deep_equals(query={"x": "1"}), contains(body="b"),
        starts_with(path="/s"), ends_with(path="e"), matches(path="^/m").case_sensitive(),
        exists(headers={"X": True}).except_("^v"),
        not_(equals(method="GET")), or_(equals(path="/1"), equals(path="/2")),
        and_(contains(path="a"), contains(path="b")),
        equals(body={"a": 1}).jsonpath("$.a"),
    ).will_return(ok("x")).to_dict()["predicates"]
    assert [next(iter(p)) for p in preds] == [
        "equals", "deepEquals", "contains", "startsWith", "endsWith", "matches", "exists",
        "not", "or", "and", "equals"]
    assert preds[5]["caseSensitive"] is True and preds[6]["except"] == "^v"
    assert preds[10]["jsonpath"] == {"selector": "$.a"}


def test_responses_and_behaviors():
    r = ok("x").repeat(2).decorate("(c) => {}").copy(
        "path", "${p}", {"method": "regex", "selector": ".*"}).to_dict()
    assert set(r["_behaviors"]) == {"repeat", "decorate", "copy"}
    assert proxy("http://o", "proxyAlways").to_dict() == {
        "proxy": {"to": "http://o", "mode": "proxyAlways"}}
    assert inject("f").to_dict() == {"inject": "f"}


def test_matcher_against_journal_entries():
    m = on_get("/u").with_query("a", "1").with_header("X-K", "v")
    assert m.matches_request({"method": "GET", "path": "/u", "query": {"a": "1"},
                              "headers": {"x-k": "v"}})
    assert not m.matches_request({"method": "GET", "path": "/u", "query": {"a": "2"},
                                  "headers": {"x-k": "v"}})
    assert not m.matches_request({"method": "POST", "path": "/u", "query": {"a": "1"},
                                  "headers": {"x-k": "v"}})
    body = on_get("/b").with_body({"k": [1, 2]})
    assert body.matches_request({"method": "GET", "path": "/b", "body": '{"k":[1,2],"z":0}'})
    assert not body.matches_request({"method": "GET", "path": "/b", "body": '{"k":[1]}'})
