"""The pytest11 plugin: --rift-transport / RIFT_TRANSPORT and the fixtures, in a child pytest."""

from __future__ import annotations

import pytest

INNER = '''
from rift import imposter as build, ok, on_get, times

created = []

def test_creates(rift, imposter, pytestconfig):
    print("TRANSPORT", rift.transport_name)
    users = imposter(build("users").record().stub(on_get("/u").will_return(ok("hi"))))
    bound = imposter("bound").stub(on_get("/b").will_return(ok("b"))).create()
    assert users.get("/u").text == "hi" and bound.get("/b").text == "b"
    users.verify(on_get("/u"), times(1))
    created.extend([users.port, bound.port])

def test_teardown_deleted_them(rift):
    assert created and rift.imposters() == []
'''


@pytest.mark.parametrize("how", ["option", "env"])
@pytest.mark.parametrize("transport", ["embedded", "spawn", "connect"])
def test_plugin_fixtures(pytester, transport, how, request, monkeypatch):
    pytester.makepyfile(test_inner=INNER)
    args = ["-p", "no:cacheprovider", "-s"]
    url = request.getfixturevalue("plain_server").url if transport == "connect" else None
    if how == "option":
        args += [f"--rift-transport={transport}"] + ([f"--rift-url={url}"] if url else [])
    else:
        monkeypatch.setenv("RIFT_TRANSPORT", transport)
        if url:
            monkeypatch.setenv("RIFT_URL", url)
    if transport == "connect":
        # the shared server must start empty for the inner teardown check
        from rift import Rift
        with Rift.connect(url) as r:
            r.delete_all()
    result = pytester.runpytest_subprocess(*args)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines([f"*TRANSPORT {transport}*"])


def test_bad_transport_is_a_usage_error(pytester, monkeypatch):
    pytester.makepyfile(test_inner="def test_x(rift): pass\n")
    monkeypatch.setenv("RIFT_TRANSPORT", "carrier-pigeon")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*RIFT_TRANSPORT='carrier-pigeon'*"])
