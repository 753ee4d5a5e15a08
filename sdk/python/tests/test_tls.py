"""Python's own TLS (the ssl module's OpenSSL) against an https imposter served by librift's
OpenSSL, in one process."""

from __future__ import annotations

import http.client
import ssl

from rift import Rift, imposter, ok_json, on_get, _ffi


def test_host_tls_client_calls_an_https_imposter_in_process():
    with Rift.embedded() as rift:
        assert _ffi.load().rift_abi_version() == 1  # librift loaded in this process
        secure = rift.create(imposter("tls").https().stub(
            on_get("/secure").will_return(ok_json({"tls": True}))))
        assert secure.protocol == "https"
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        conn = http.client.HTTPSConnection("127.0.0.1", secure.port, context=context, timeout=10)
        try:
            conn.request("GET", "/secure")
            resp = conn.getresponse()
            body = resp.read()
            assert resp.status == 200
            assert conn.sock.version() in ("TLSv1.2", "TLSv1.3")
        finally:
            conn.close()
        assert b'"tls": true' in body
        # plain HTTP to the same port is not answered as HTTP 200
        plain = http.client.HTTPConnection("127.0.0.1", secure.port, timeout=10)
        try:
            plain.request("GET", "/secure")
            assert plain.getresponse().status != 200
        except (http.client.HTTPException, OSError):
            pass
        finally:
            plain.close()
