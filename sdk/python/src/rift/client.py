"""Rift: one client interface over the embedded, spawn and connect transports."""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping, Optional, Union

from .dsl import ImposterBuilder, RequestMatcher, Times, times as _times
from .errors import RiftHttpError, VerificationError
from .transport import (Body, EmbeddedTransport, Headers, HttpTransport, Response, SpawnTransport,
                        Transport)

ImposterSpec = Union[ImposterBuilder, Mapping[str, Any], str, bytes]


class Imposter:
    """A created imposter: its port, its traffic, its journal."""

    def __init__(self, rift: "Rift", port: int, created: Mapping[str, Any]):
        self.rift = rift
        self.port = port
        self.created = dict(created)

    @property
    def protocol(self) -> str:
        return self.created.get("protocol", "http")

    def call(self, method: str, path: str, body: Body = None, headers: Headers = None) -> Response:
        return self.rift.call(self.port, method, path, body, headers)

    def get(self, path: str, headers: Headers = None) -> Response:
        return self.call("GET", path, None, headers)

    def post(self, path: str, body: Body = None, headers: Headers = None) -> Response:
        return self.call("POST", path, body, headers)

    def details(self) -> dict:
        return self.rift.get_imposter(self.port)

    def requests(self) -> list[dict]:
        return self.rift.recorded_requests(self.port)

    def verify(self, matcher: RequestMatcher, mode: Optional[Times] = None) -> int:
        return self.rift.verify(self.port, matcher, mode)

    def delete(self) -> None:
        self.rift.delete_imposter(self.port)

    def __repr__(self) -> str:
        return f"Imposter(port={self.port}, transport={self.rift.transport_name})"


class Rift:
    """Rift.embedded() / Rift.spawn() / Rift.connect(url); use as a context manager."""

    def __init__(self, transport: Transport):
        self.transport = transport

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def embedded(cls, allow_injection: bool = True, library: Optional[str] = None,
                 **options: Any) -> "Rift":
        """librift in this process. options are rift_engine_open's (threads, tier, host, ...)."""
        opts = {"allowInjection": bool(allow_injection)}
        opts.update(options)
        return cls(EmbeddedTransport(opts, library))

    @classmethod
    def spawn(cls, binary: Optional[str] = None, allow_injection: bool = True,
              args: Iterable[str] = (), start_timeout: float = 30.0) -> "Rift":
        """Starts the rift binary (RIFT_BIN, then PATH) on a free port of 127.0.0.1."""
        return cls(SpawnTransport(binary, allow_injection, args, start_timeout))

    @classmethod
    def connect(cls, url: str, timeout: float = 30.0) -> "Rift":
        """A running Rift (or Mountebank) at its admin URL, e.g. http://127.0.0.1:2525."""
        return cls(HttpTransport(url, timeout))

    @property
    def transport_name(self) -> str:
        return self.transport.name

    def __enter__(self) -> "Rift":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Idempotent: closes the engine / stops the child / drops the connections."""
        self.transport.close()

    # -- the raw escape hatch -----------------------------------------------------------------

    def request(self, method: str, path: str, body: Body = None,
                headers: Headers = None) -> Response:
        """Any admin API call, as is: status, headers and body, whatever the status."""
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
            headers = headers or {"Content-Type": "application/json"}
        return self.transport.admin(method, path, body, headers)

    def _admin_json(self, method: str, path: str, body: Any = None) -> Any:
        if body is not None and not isinstance(body, (str, bytes)):
            body = json.dumps(body)
        headers = {"Content-Type": "application/json"} if body is not None else None
        resp = self.transport.admin(method, path, body, headers)
        if resp.status >= 400:
            raise RiftHttpError(method, path, resp.status, resp.text)
        return resp.json() if resp.body.strip() else None

    # -- imposters ----------------------------------------------------------------------------

    def create(self, spec: ImposterSpec) -> Imposter:
        """POST /imposters from a builder, a dict, or raw JSON text."""
        if isinstance(spec, ImposterBuilder):
            body: Union[str, bytes] = spec.to_json()
        elif isinstance(spec, (str, bytes)):
            body = spec
        else:
            body = json.dumps(spec)
        created = self._admin_json("POST", "/imposters", body)
        return Imposter(self, int(created["port"]), created)

    def create_json(self, text: Union[str, bytes]) -> Imposter:
        return self.create(text)

    def imposters(self) -> list[dict]:
        return self._admin_json("GET", "/imposters")["imposters"]

    def get_imposter(self, port: int) -> dict:
        return self._admin_json("GET", f"/imposters/{int(port)}")

    def replace_stubs(self, port: int, stubs: list) -> dict:
        return self._admin_json("PUT", f"/imposters/{int(port)}/stubs",
                                {"stubs": [s.to_dict() if hasattr(s, "to_dict") else s
                                           for s in stubs]})

    def delete_imposter(self, port: int) -> Optional[dict]:
        return self._admin_json("DELETE", f"/imposters/{int(port)}")

    def delete_all(self) -> Optional[dict]:
        return self._admin_json("DELETE", "/imposters")

    def clear_requests(self, port: int) -> None:
        self._admin_json("DELETE", f"/imposters/{int(port)}/savedRequests")

    def config(self) -> dict:
        return self._admin_json("GET", "/config")

    # -- imposter traffic ---------------------------------------------------------------------

    def call(self, port: int, method: str, path: str, body: Body = None,
             headers: Headers = None, keep_alive: bool = True) -> Response:
        """A request to the imposter on `port`: the gateway in process, else HTTP to the port."""
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        return self.transport.imposter(port, method, path, body, headers, keep_alive)

    # -- verification -------------------------------------------------------------------------

    def recorded_requests(self, port: int) -> list[dict]:
        return self.get_imposter(port).get("requests", [])

    def verify(self, port: int, matcher: RequestMatcher, mode: Optional[Times] = None) -> int:
        """Counts the journal's requests that match; raises VerificationError when the count is
        not what `mode` (default times(1)) allows. The imposter must record (record())."""
        mode = mode or _times(1)
        recorded = self.recorded_requests(port)
        count = sum(1 for r in recorded if matcher.matches_request(r))
        if not mode.check(count):
            seen = "\n".join(f"  {r.get('method')} {r.get('path')} {r.get('query') or ''}"
                             for r in recorded) or "  (none)"
            raise VerificationError(
                f"expected {mode.description} request(s) matching {matcher.fields()} on imposter "
                f"{port}, found {count}; recorded:\n{seen}")
        return count


def verify(target: Union[Imposter, "Rift"], matcher: RequestMatcher,
           mode: Optional[Times] = None, port: Optional[int] = None) -> int:
    """verify(users, on_get("/users/1"), times(1)) — or verify(rift, ..., port=4545)."""
    if isinstance(target, Imposter):
        return target.verify(matcher, mode)
    if port is None:
        raise ValueError("verify(rift, ...) needs port=")
    return target.verify(port, matcher, mode)
