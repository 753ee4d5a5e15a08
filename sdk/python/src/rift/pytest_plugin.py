"""pytest plugin (entry point pytest11 `rift`): fixtures `rift` and `imposter`.

`rift` is one engine for the session; its transport is --rift-transport (or RIFT_TRANSPORT):
embedded (default), spawn, or connect (with --rift-url / RIFT_URL). `imposter` is a per-test
factory: imposter(spec) creates at once, imposter("name") starts a bound builder ending in
.create(); everything it created is deleted when the test ends.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Union

import pytest

from .client import Imposter, ImposterSpec, Rift
from .dsl import ImposterBuilder

TRANSPORTS = ("embedded", "spawn", "connect")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rift", "Rift mock server")
    group.addoption("--rift-transport", dest="rift_transport", default=None,
                    choices=TRANSPORTS,
                    help="how the `rift` fixture runs Rift: embedded (librift in process, "
                         "default), spawn (the rift binary) or connect (--rift-url). "
                         "Env: RIFT_TRANSPORT.")
    group.addoption("--rift-url", dest="rift_url", default=None,
                    help="admin URL for --rift-transport=connect. Env: RIFT_URL.")


def transport_from(config: pytest.Config) -> str:
    value = config.getoption("rift_transport") or os.environ.get("RIFT_TRANSPORT") or "embedded"
    if value not in TRANSPORTS:
        raise pytest.UsageError(f"RIFT_TRANSPORT={value!r}: expected one of {TRANSPORTS}")
    return value


def open_rift(transport: str, url: Optional[str] = None) -> Rift:
    if transport == "embedded":
        return Rift.embedded()
    if transport == "spawn":
        return Rift.spawn()
    if not url:
        raise pytest.UsageError("--rift-transport=connect needs --rift-url or RIFT_URL")
    return Rift.connect(url)


@pytest.fixture(scope="session")
def rift(pytestconfig: pytest.Config):
    """One Rift for the whole session, on the transport the options choose."""
    transport = transport_from(pytestconfig)
    url = pytestconfig.getoption("rift_url") or os.environ.get("RIFT_URL")
    engine = open_rift(transport, url)
    try:
        yield engine
    finally:
        engine.close()


class BoundImposterBuilder(ImposterBuilder):
    """An ImposterBuilder whose create() goes through the test's factory."""

    def __init__(self, factory: "ImposterFactory", name: Optional[str], protocol: str):
        super().__init__(name, protocol)
        self._factory = factory

    def create(self) -> Imposter:
        return self._factory.create(self)


class ImposterFactory:
    def __init__(self, rift: Rift):
        self.rift = rift
        self.created: list[Imposter] = []

    def __call__(self, spec: Union[ImposterSpec, None] = None, protocol: str = "http") -> Any:
        """imposter(builder | dict | JSON text) creates now; imposter("name") returns a builder
        bound to this factory (finish it with .create())."""
        if spec is None or (isinstance(spec, str) and not spec.lstrip().startswith("{")):
            return BoundImposterBuilder(self, spec, protocol)
        return self.create(spec)

    def create(self, spec: ImposterSpec) -> Imposter:
        created = self.rift.create(spec)
        self.created.append(created)
        return created

    def cleanup(self) -> None:
        errors = []
        for imp in reversed(self.created):
            try:
                self.rift.delete_imposter(imp.port)
            except Exception as exc:  # noqa: BLE001 - report all, delete the rest
                errors.append(exc)
        self.created.clear()
        if errors:
            raise errors[0]


@pytest.fixture
def imposter(rift: Rift):
    """Creates imposters for one test and deletes them when it ends."""
    factory = ImposterFactory(rift)
    try:
        yield factory
    finally:
        factory.cleanup()
