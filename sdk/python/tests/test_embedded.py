"""What only the embedded transport has: librift's statuses, bodies by length, close, threads."""

from __future__ import annotations

import threading

import pytest

from rift import Rift, RiftError, RiftException, binary, imposter, ok, on_get


def test_unknown_option_is_rift_err_argument():
    with pytest.raises(RiftError) as err:
        Rift.embedded(bogus=1)
    assert (err.value.code, err.value.name) == (-1, "RIFT_ERR_ARGUMENT")
    assert "bogus" in err.value.message


def test_jit_tier_is_unsupported():
    with pytest.raises(RiftError) as err:
        Rift.embedded(tier="jit")
    assert (err.value.code, err.value.name) == (-4, "RIFT_ERR_UNSUPPORTED")


def test_bodies_are_read_by_length_nuls_included():
    with Rift.embedded() as rift:
        imp = rift.create(imposter().stub(on_get("/b").will_return(binary(b"a\x00b\xff\x00"))))
        assert imp.get("/b").body == b"a\x00b\xff\x00"
        # and request bodies too: the gateway echoes what the journal saw
        echo = rift.create(imposter().record().stub(on_get("/e").will_return(ok("x"))))
        echo.call("POST", "/n", b"1\x002")
        assert echo.requests()[0]["body"] == "1\x002"


def test_close_is_idempotent_and_later_calls_fail_clearly():
    rift = Rift.embedded()
    rift.close()
    rift.close()
    with pytest.raises(RiftException, match="closed"):
        rift.request("GET", "/imposters")


def test_serve_admin_once_then_rift_err_state():
    with Rift.embedded() as rift:
        url = rift.transport.serve_admin()
        assert url.startswith("http://127.0.0.1:")
        with Rift.connect(url) as over_http:
            created = rift.create(imposter("seen").stub(on_get("/").will_return(ok("x"))))
            assert [i["port"] for i in over_http.imposters()] == [created.port]
        with pytest.raises(RiftError) as err:
            rift.transport.serve_admin()
        assert err.value.name == "RIFT_ERR_STATE"


def test_concurrent_calls_from_threads_then_close():
    rift = Rift.embedded()
    imp = rift.create(imposter().stub(on_get("/t").will_return(ok("t"))))
    failures: list = []

    def worker():
        try:
            for _ in range(50):
                assert imp.get("/t").text == "t"
        except Exception as exc:  # noqa: BLE001
            failures.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rift.close()
    assert failures == []


def test_gateway_to_a_port_without_imposter_is_404():
    with Rift.embedded() as rift:
        resp = rift.call(1, "GET", "/x")
        assert resp.status == 404 and "no imposter on port 1" in resp.text
