"""A typed builder for Mountebank imposter JSON, and verification against the journal.

    imposter("users").port(4545).record().stub(
        on_get("/users/1").will_return(ok_json({"id": 1})))
"""

from __future__ import annotations

import copy as _copy
import json
from typing import Any, Callable, Mapping, Optional, Union
from urllib.parse import parse_qsl

Json = Any

# --------------------------------------------------------------------------------------------
# Predicates


class Predicate:
    """One Mountebank predicate: {"<operator>": {...}, "caseSensitive": ..., ...}."""

    def __init__(self, data: Mapping[str, Any]):
        self._data = dict(data)

    def case_sensitive(self, value: bool = True) -> "Predicate":
        return self._with("caseSensitive", value)

    def except_(self, regex: str) -> "Predicate":
        return self._with("except", regex)

    def jsonpath(self, selector: str) -> "Predicate":
        return self._with("jsonpath", {"selector": selector})

    def xpath(self, selector: str, namespaces: Optional[Mapping[str, str]] = None) -> "Predicate":
        value: dict = {"selector": selector}
        if namespaces:
            value["ns"] = dict(namespaces)
        return self._with("xpath", value)

    def _with(self, key: str, value: Any) -> "Predicate":
        data = dict(self._data)
        data[key] = value
        return Predicate(data)

    def to_dict(self) -> dict:
        return _copy.deepcopy(self._data)

    def __repr__(self) -> str:
        return f"Predicate({self._data!r})"


def _operator(op: str) -> Callable[..., Predicate]:
    def build(fields: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> Predicate:
        value = dict(fields or {})
        value.update(kwargs)
        return Predicate({op: value})

    build.__name__ = op
    build.__doc__ = f"A `{op}` predicate on request fields (method, path, query, headers, body)."
    return build


equals = _operator("equals")
deep_equals = _operator("deepEquals")
contains = _operator("contains")
starts_with = _operator("startsWith")
ends_with = _operator("endsWith")
matches = _operator("matches")
exists = _operator("exists")


def not_(predicate: Union[Predicate, Mapping]) -> Predicate:
    return Predicate({"not": _pred_dict(predicate)})


def or_(*predicates: Union[Predicate, Mapping]) -> Predicate:
    return Predicate({"or": [_pred_dict(p) for p in predicates]})


def and_(*predicates: Union[Predicate, Mapping]) -> Predicate:
    return Predicate({"and": [_pred_dict(p) for p in predicates]})


def inject_predicate(js: str) -> Predicate:
    return Predicate({"inject": js})


def _pred_dict(p: Union[Predicate, Mapping]) -> dict:
    return p.to_dict() if isinstance(p, Predicate) else dict(p)


# --------------------------------------------------------------------------------------------
# Responses and behaviors


class StubResponse:
    """One stub response: is / proxy / inject, with optional _behaviors."""

    def __init__(self, data: Mapping[str, Any]):
        self._data = _copy.deepcopy(dict(data))

    def _behavior(self, key: str, value: Any) -> "StubResponse":
        data = _copy.deepcopy(self._data)
        data.setdefault("_behaviors", {})[key] = value
        return StubResponse(data)

    def header(self, name: str, value: str) -> "StubResponse":
        data = _copy.deepcopy(self._data)
        if "is" not in data:
            raise ValueError("headers belong to an `is` response")
        data["is"].setdefault("headers", {})[name] = value
        return StubResponse(data)

    def wait(self, ms_or_js: Union[int, str]) -> "StubResponse":
        """Waits ms milliseconds (or as long as a JavaScript function returns) before answering."""
        return self._behavior("wait", ms_or_js)

    def repeat(self, times: int) -> "StubResponse":
        return self._behavior("repeat", int(times))

    def copy(self, from_: Union[str, Mapping], into: str, using: Mapping[str, Any]) -> "StubResponse":
        """Copies a request field (selected by regex/xpath/jsonpath `using`) into the response."""
        entries = list(self._data.get("_behaviors", {}).get("copy", []))
        entries.append({"from": from_, "into": into, "using": dict(using)})
        return self._behavior("copy", entries)

    def lookup(self, key: Mapping[str, Any], from_data_source: Mapping[str, Any],
               into: str) -> "StubResponse":
        entries = list(self._data.get("_behaviors", {}).get("lookup", []))
        entries.append({"key": dict(key), "fromDataSource": dict(from_data_source), "into": into})
        return self._behavior("lookup", entries)

    def decorate(self, js: str) -> "StubResponse":
        """A JavaScript function (config) => ... that rewrites the response (needs injection)."""
        return self._behavior("decorate", js)

    def shell_transform(self, command: str) -> "StubResponse":
        return self._behavior("shellTransform", command)

    def to_dict(self) -> dict:
        return _copy.deepcopy(self._data)

    def __repr__(self) -> str:
        return f"StubResponse({self._data!r})"


def is_(status: int = 200, body: Json = None, headers: Optional[Mapping[str, str]] = None,
        mode: Optional[str] = None) -> StubResponse:
    """An `is` response. A dict or list body is sent as JSON (Mountebank serializes it)."""
    fields: dict = {"statusCode": int(status)}
    if headers:
        fields["headers"] = dict(headers)
    if body is not None:
        fields["body"] = body
    if mode:
        fields["_mode"] = mode
    return StubResponse({"is": fields})


def ok(body: Json = None, headers: Optional[Mapping[str, str]] = None) -> StubResponse:
    return is_(200, body, headers)


def status(code: int, body: Json = None) -> StubResponse:
    return is_(code, body)


def json_response(code: int, value: Json, headers: Optional[Mapping[str, str]] = None) -> StubResponse:
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    if isinstance(value, str):  # already JSON text
        value = json.loads(value)
    return is_(code, value, all_headers)


def ok_json(value: Json, headers: Optional[Mapping[str, str]] = None) -> StubResponse:
    return json_response(200, value, headers)


def proxy(to: str, mode: str = "proxyOnce", predicate_generators: Optional[list] = None,
          **extra: Any) -> StubResponse:
    """A proxy response: mode proxyOnce, proxyAlways or proxyTransparent."""
    fields: dict = {"to": to, "mode": mode}
    if predicate_generators:
        fields["predicateGenerators"] = predicate_generators
    fields.update(extra)
    return StubResponse({"proxy": fields})


def binary(data: bytes, status: int = 200,
           headers: Optional[Mapping[str, str]] = None) -> StubResponse:
    """An `is` response whose body is these bytes (Mountebank's _mode binary, base64)."""
    import base64
    return is_(status, base64.b64encode(data).decode("ascii"), headers, mode="binary")


def inject(js: str) -> StubResponse:
    """A JavaScript response function (needs allowInjection)."""
    return StubResponse({"inject": js})


def fault(name: str = "CONNECTION_RESET_BY_PEER") -> StubResponse:
    return StubResponse({"fault": name})


# --------------------------------------------------------------------------------------------
# Request matchers (predicates that verify() can also apply to the journal) and stubs


class RequestMatcher:
    """A request shape: method, path, query, headers, body. As a stub predicate it is one
    `equals`; against the journal it matches the way that `equals` was built."""

    def __init__(self, method: Optional[str] = None, path: Optional[str] = None):
        self.method = method.upper() if method else None
        self.path = path
        self.query: dict[str, str] = {}
        self.headers: dict[str, str] = {}
        self.body: Json = None
        self.extra: list[Predicate] = []
        if path and "?" in path:
            self.path, qs = path.split("?", 1)
            self.query.update(dict(parse_qsl(qs, keep_blank_values=True)))

    def _clone(self) -> "RequestMatcher":
        other = RequestMatcher(self.method, self.path)
        other.query = dict(self.query)
        other.headers = dict(self.headers)
        other.body = _copy.deepcopy(self.body)
        other.extra = list(self.extra)
        return other

    def with_query(self, name: str, value: str) -> "RequestMatcher":
        other = self._clone()
        other.query[name] = value
        return other

    def with_header(self, name: str, value: str) -> "RequestMatcher":
        other = self._clone()
        other.headers[name] = value
        return other

    def with_body(self, body: Json) -> "RequestMatcher":
        other = self._clone()
        other.body = body
        return other

    def and_predicate(self, predicate: Predicate) -> "RequestMatcher":
        """Adds a predicate to the stub (verify() does not evaluate these)."""
        other = self._clone()
        other.extra.append(predicate)
        return other

    def fields(self) -> dict:
        fields: dict = {}
        if self.method:
            fields["method"] = self.method
        if self.path is not None:
            fields["path"] = self.path
        if self.query:
            fields["query"] = dict(self.query)
        if self.headers:
            fields["headers"] = dict(self.headers)
        if self.body is not None:
            fields["body"] = _copy.deepcopy(self.body)
        return fields

    def predicates(self) -> list[dict]:
        result = [{"equals": self.fields()}] if self.fields() else []
        return result + [p.to_dict() for p in self.extra]

    def will_return(self, *responses: StubResponse) -> "Stub":
        return Stub(self.predicates(), [r.to_dict() for r in responses])

    def matches_request(self, recorded: Mapping[str, Any]) -> bool:
        """True when a journal entry (GET /imposters/<port> → requests[i]) has this shape."""
        if self.method and str(recorded.get("method", "")).upper() != self.method:
            return False
        if self.path is not None and recorded.get("path") != self.path:
            return False
        rq = recorded.get("query") or {}
        for k, v in self.query.items():
            got = rq.get(k)
            if isinstance(got, list):
                if v not in got:
                    return False
            elif got != v:
                return False
        rh = {str(k).lower(): v for k, v in (recorded.get("headers") or {}).items()}
        for k, v in self.headers.items():
            got = rh.get(k.lower())
            if isinstance(got, list):
                if v not in got:
                    return False
            elif got != v:
                return False
        if self.body is not None:
            got = recorded.get("body")
            if isinstance(self.body, (dict, list)):
                try:
                    parsed = json.loads(got) if isinstance(got, str) else got
                except ValueError:
                    return False
                if not _subset(self.body, parsed):
                    return False
            elif got != self.body:
                return False
        return True

    def __repr__(self) -> str:
        return f"RequestMatcher({self.fields()!r})"


def _subset(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _subset(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(
            _subset(e, a) for e, a in zip(expected, actual))
    return expected == actual


def on_request(method: Optional[str] = None, path: Optional[str] = None) -> RequestMatcher:
    return RequestMatcher(method, path)


def on_get(path: str) -> RequestMatcher:
    return RequestMatcher("GET", path)


def on_post(path: str) -> RequestMatcher:
    return RequestMatcher("POST", path)


def on_put(path: str) -> RequestMatcher:
    return RequestMatcher("PUT", path)


def on_delete(path: str) -> RequestMatcher:
    return RequestMatcher("DELETE", path)


def on_patch(path: str) -> RequestMatcher:
    return RequestMatcher("PATCH", path)


class Stub:
    def __init__(self, predicates: list, responses: list):
        self._predicates = list(predicates)
        self._responses = list(responses)

    def then(self, *responses: StubResponse) -> "Stub":
        """More responses, cycled in order after the earlier ones."""
        return Stub(self._predicates, self._responses + [r.to_dict() for r in responses])

    def to_dict(self) -> dict:
        data: dict = {"responses": _copy.deepcopy(self._responses)}
        if self._predicates:
            data["predicates"] = _copy.deepcopy(self._predicates)
        return data


def stub(*predicates: Union[Predicate, Mapping]) -> "_StubStart":
    """stub(equals(path="/x"), exists(...)).will_return(ok("x")): free-form predicates."""
    return _StubStart([_pred_dict(p) for p in predicates])


class _StubStart:
    def __init__(self, predicates: list):
        self._predicates = predicates

    def will_return(self, *responses: StubResponse) -> Stub:
        return Stub(self._predicates, [r.to_dict() for r in responses])


# --------------------------------------------------------------------------------------------
# Imposters


class ImposterBuilder:
    def __init__(self, name: Optional[str] = None, protocol: str = "http"):
        self._data: dict = {"protocol": protocol}
        if name:
            self._data["name"] = name
        self._stubs: list[dict] = []

    def port(self, port: int) -> "ImposterBuilder":
        self._data["port"] = int(port)
        return self

    def protocol(self, protocol: str) -> "ImposterBuilder":
        self._data["protocol"] = protocol
        return self

    def https(self) -> "ImposterBuilder":
        return self.protocol("https")

    def host(self, host: str) -> "ImposterBuilder":
        self._data["host"] = host
        return self

    def record(self, value: bool = True) -> "ImposterBuilder":
        """recordRequests: keep the journal that verify() reads."""
        self._data["recordRequests"] = bool(value)
        return self

    def default_response(self, response: Union[StubResponse, Mapping]) -> "ImposterBuilder":
        r = response.to_dict() if isinstance(response, StubResponse) else dict(response)
        self._data["defaultResponse"] = r.get("is", r)
        return self

    def stub(self, *stubs: Union[Stub, Mapping]) -> "ImposterBuilder":
        for s in stubs:
            self._stubs.append(s.to_dict() if isinstance(s, Stub) else dict(s))
        return self

    def set(self, key: str, value: Any) -> "ImposterBuilder":
        """Any other imposter field, as Mountebank spells it (e.g. allowCORS)."""
        self._data[key] = value
        return self

    def to_dict(self) -> dict:
        data = _copy.deepcopy(self._data)
        data["stubs"] = _copy.deepcopy(self._stubs)
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict())


def imposter(name: Optional[str] = None, protocol: str = "http") -> ImposterBuilder:
    return ImposterBuilder(name, protocol)


# --------------------------------------------------------------------------------------------
# Verification modes


class Times:
    def __init__(self, check: Callable[[int], bool], description: str):
        self.check = check
        self.description = description

    def __repr__(self) -> str:
        return self.description


def times(n: int) -> Times:
    return Times(lambda c: c == n, f"exactly {n}")


def never() -> Times:
    return times(0)


def at_least(n: int) -> Times:
    return Times(lambda c: c >= n, f"at least {n}")


def at_most(n: int) -> Times:
    return Times(lambda c: c <= n, f"at most {n}")

