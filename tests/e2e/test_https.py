"""https imposters over real TLS sockets (docs/mountebank-semantics.md §2.1, §2.2; checklist
16, 86, 87).

Certificates are made at test time with the openssl CLI: a CA, a client certificate it signed,
an untrusted self-signed client, and a server pair."""
import json
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import unittest
import warnings

from harness import Rift

RANDOM_DATA = b'Htijy%@tWXJ/hQ#[Q:7G@dH4"gu[QaX&'


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_certificates(directory):
    """ca, client (signed by ca), stranger (self-signed) and server pairs as NAME-key.pem and
    NAME-cert.pem files in `directory`."""
    def self_signed(name, subject):
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-keyout", f"{name}-key.pem", "-out", f"{name}-cert.pem", "-subj", subject,
                cwd=directory)

    self_signed("ca", "/CN=e2e CA")
    self_signed("stranger", "/CN=e2e stranger")
    self_signed("server", "/CN=localhost/O=e2e server")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "client-key.pem",
            "-out", "client.csr", "-subj", "/CN=e2e client", cwd=directory)
    openssl("x509", "-req", "-in", "client.csr", "-CA", "ca-cert.pem", "-CAkey", "ca-key.pem",
            "-CAcreateserial", "-days", "2", "-out", "client-cert.pem", cwd=directory)


def client_context(cert_dir=None, client=None):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    if client:
        context.load_cert_chain(os.path.join(cert_dir, f"{client}-cert.pem"),
                                os.path.join(cert_dir, f"{client}-key.pem"))
    return context


def tls_exchange(port, data, context=None, keep=None):
    """Sends `data` over TLS and reads until the server closes. Returns (bytes, socket facts)
    where the facts are the served certificate (DER) and the TLS version; raises on a failed
    handshake or a connection the server drops with an alert."""
    context = context or client_context()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as plain:
        with context.wrap_socket(plain) as tls:
            facts = {"cert": tls.getpeercert(binary_form=True), "version": tls.version()}
            tls.sendall(data)
            received = b""
            try:
                while chunk := tls.recv(65536):
                    received += chunk
            except ConnectionResetError:
                received += b"<RST>"
            return received, facts


def get(port, path="/", context=None):
    request = f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()
    return tls_exchange(port, request, context)


def body_of(response):
    head, _, body = response.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" in head.lower():
        size, _, rest = body.partition(b"\r\n")
        return rest[:int(size, 16)]
    return body


def der(pem):
    return ssl.PEM_cert_to_DER_cert(pem)


class HttpsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.certs = tempfile.mkdtemp(prefix="rift-e2e-tls-")
        make_certificates(cls.certs)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.certs, ignore_errors=True)

    def pem(self, name):
        with open(os.path.join(self.certs, f"{name}.pem")) as f:
            return f.read()

    def test_default_pair_is_served_and_echoed(self):
        with Rift() as rift:
            created = rift.create({"protocol": "https", "stubs": [
                {"responses": [{"is": {"statusCode": 201, "headers": {"X-Test": "v"}, "body": "hi"}}]}]})
            self.assertIn("-----BEGIN CERTIFICATE-----", created["cert"])
            self.assertIn("PRIVATE KEY-----", created["key"])
            self.assertEqual((created["mutualAuth"], created["rejectUnauthorized"], created["ca"]),
                             (False, False, None))
            response, facts = get(created["port"])
            self.assertTrue(response.startswith(b"HTTP/1.1 201 Created\r\n"), response)
            self.assertIn(b"X-Test: v\r\n", response)
            self.assertEqual(body_of(response), b"hi")
            self.assertEqual(facts["cert"], der(created["cert"]))
            self.assertIn(facts["version"], ("TLSv1.2", "TLSv1.3"))
            subject = subprocess.run(["openssl", "x509", "-noout", "-subject"], input=created["cert"],
                                     capture_output=True, text=True, check=True).stdout
            self.assertIn("CN = mountebank", subject)
            self.assertEqual(rift.admin("GET", f"/imposters/{created['port']}")[2]["numberOfRequests"], 1)

    def test_supplied_pair_is_served_and_echoed(self):
        with Rift() as rift:
            created = rift.create({"protocol": "https", "key": self.pem("server-key"),
                                   "cert": self.pem("server-cert")})
            self.assertEqual(created["key"], self.pem("server-key"))
            self.assertEqual(created["cert"], self.pem("server-cert"))
            _, facts = get(created["port"])
            self.assertEqual(facts["cert"], der(self.pem("server-cert")))
            saved = rift.admin("GET", "/imposters?replayable=true")[2]["imposters"][0]
            self.assertEqual(saved["cert"], self.pem("server-cert"))

    def test_tls_below_1_2_is_refused(self):
        old = client_context()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the point is an old version
            old.minimum_version = ssl.TLSVersion.TLSv1
            old.maximum_version = ssl.TLSVersion.TLSv1_1
        try:
            old.set_ciphers("DEFAULT:@SECLEVEL=0")
        except ssl.SSLError:
            self.skipTest("this OpenSSL cannot offer TLS 1.1 at all")
        with Rift() as rift:
            port = rift.create({"protocol": "https"})["port"]
            with self.assertRaises(ssl.SSLError) as refused:
                get(port, context=old)
            if "NO_PROTOCOLS_AVAILABLE" in str(refused.exception):
                self.skipTest("this OpenSSL refuses to offer TLS 1.1 itself")
            # The server's alert, not the client giving up before it asked.
            self.assertIn("PROTOCOL_VERSION", str(refused.exception))
            modern = client_context()
            modern.maximum_version = ssl.TLSVersion.TLSv1_2
            self.assertEqual(get(port, context=modern)[1]["version"], "TLSv1.2")

    def test_mutual_auth_alone_requests_no_certificate(self):
        with Rift() as rift:
            port = rift.create({"protocol": "https", "mutualAuth": True, "ca": [self.pem("ca-cert")],
                                "stubs": [{"responses": [{"is": {"body": "open"}}]}]})["port"]
            self.assertEqual(body_of(get(port)[0]), b"open")
            self.assertEqual(body_of(get(port, context=client_context(self.certs, "stranger"))[0]),
                             b"open")

    def test_mutual_auth_with_reject_unauthorized_requires_a_trusted_client(self):
        with Rift() as rift:
            port = rift.create({"protocol": "https", "mutualAuth": True, "rejectUnauthorized": True,
                                "ca": [self.pem("ca-cert")], "recordRequests": True,
                                "stubs": [{"responses": [{"is": {"body": "members only"}}]}]})["port"]
            for refused in (None, "stranger"):
                with self.assertRaises((ssl.SSLError, ConnectionResetError), msg=refused):
                    response, _ = get(port, "/refused", client_context(self.certs, refused))
                    # TLS 1.3 lets the client finish its handshake before the server's verdict:
                    # then the alert arrives on the first read and nothing is answered.
                    if not response:
                        raise ssl.SSLError("closed without an answer")
            self.assertEqual(body_of(get(port, "/member", client_context(self.certs, "client"))[0]),
                             b"members only")
            imposter = rift.admin("GET", f"/imposters/{port}")[2]
            self.assertEqual(imposter["numberOfRequests"], 1)
            self.assertEqual([r["path"] for r in imposter["requests"]], ["/member"])

    def test_ciphers_restrict_tls_1_2_and_are_echoed_upper_cased(self):
        with Rift() as rift:
            created = rift.create({"protocol": "https", "ciphers": "ecdhe-rsa-aes128-gcm-sha256"})
            self.assertEqual(created["ciphers"], "ECDHE-RSA-AES128-GCM-SHA256")
            other = client_context()
            other.maximum_version = ssl.TLSVersion.TLSv1_2
            other.set_ciphers("ECDHE-RSA-AES256-GCM-SHA384")
            with self.assertRaises(ssl.SSLError):
                get(created["port"], context=other)
            same = client_context()
            same.maximum_version = ssl.TLSVersion.TLSv1_2
            same.set_ciphers("ECDHE-RSA-AES128-GCM-SHA256")
            self.assertTrue(get(created["port"], context=same)[0].startswith(b"HTTP/1.1 200"))

    def test_invalid_key_or_cert_fails_creation_and_keeps_the_current_set(self):
        with Rift() as rift:
            status, _, body = rift.admin("POST", "/imposters", {"protocol": "https", "cert": "junk",
                                                                "key": self.pem("server-key")})
            self.assertEqual(status, 400)
            self.assertEqual(body["errors"][0]["code"], "ERR_OSSL_PEM_NO_START_LINE")
            self.assertIn("no start line", body["errors"][0]["message"])
            status, _, body = rift.admin("POST", "/imposters", {
                "protocol": "https", "key": self.pem("client-key"), "cert": self.pem("server-cert")})
            self.assertEqual((status, body["errors"][0]["code"]),
                             (400, "ERR_OSSL_X509_KEY_VALUES_MISMATCH"))
            kept = rift.create({"protocol": "http"})["port"]
            status, _, _ = rift.admin("PUT", "/imposters", {"imposters": [
                {"protocol": "http"}, {"protocol": "https", "ciphers": "no-such-cipher"}]})
            self.assertEqual(status, 400)
            listed = rift.admin("GET", "/imposters")[2]["imposters"]
            self.assertEqual([i["port"] for i in listed], [kept])

    def test_keep_alive_and_pipelining_over_tls(self):
        with Rift() as rift:
            port = rift.create({"protocol": "https", "stubs": [{"responses": [
                {"is": {"headers": {"Connection": "keep-alive"}, "body": "one"}},
                {"is": {"body": "two"}}]}]})["port"]
            pipelined = (b"GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
                         b"GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            response, _ = tls_exchange(port, pipelined)
            self.assertEqual(response.count(b"HTTP/1.1 200 OK"), 2, response)
            self.assertLess(response.index(b"one"), response.index(b"two"))

    def test_a_plain_http_client_on_an_https_port_gets_nothing_and_harms_nothing(self):
        with Rift() as rift:
            port = rift.create({"protocol": "https", "stubs": [{"responses": [{"is": {"body": "ok"}}]}]})["port"]
            with socket.create_connection(("127.0.0.1", port), timeout=5) as plain:
                plain.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                try:
                    answer = plain.recv(65536)
                except ConnectionResetError:
                    answer = b""
                self.assertNotIn(b"HTTP/1.1", answer)
            self.assertEqual(body_of(get(port)[0]), b"ok")
            self.assertEqual(rift.admin("GET", f"/imposters/{port}")[2]["numberOfRequests"], 1)

    def test_a_client_that_never_handshakes_is_disconnected(self):
        with Rift("--tlsHandshakeTimeout", "300") as rift:
            port = rift.create({"protocol": "https", "stubs": [{"responses": [{"is": {"body": "ok"}}]}]})["port"]
            # Silent: connected, no ClientHello. Without the timeout recv() would block until
            # the socket's own 10 s timeout raised socket.timeout.
            with socket.create_connection(("127.0.0.1", port), timeout=10) as silent:
                try:
                    self.assertEqual(silent.recv(1), b"")
                except ConnectionResetError:
                    pass
                # A client that does handshake is served meanwhile and afterwards.
                self.assertEqual(body_of(get(port)[0]), b"ok")

    def test_delete_drops_open_tls_connections(self):
        with Rift() as rift:
            port = rift.create({"protocol": "https", "stubs": [{"responses": [
                {"is": {"headers": {"Connection": "keep-alive"}, "body": "kept"}}]}]})["port"]
            with socket.create_connection(("127.0.0.1", port), timeout=5) as plain:
                with client_context().wrap_socket(plain) as tls:
                    tls.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                    self.assertIn(b"kept", tls.recv(65536))
                    self.assertEqual(rift.admin("DELETE", f"/imposters/{port}")[0], 200)
                    try:
                        self.assertEqual(tls.recv(65536), b"")
                    except (ConnectionResetError, ssl.SSLError):
                        pass
            with self.assertRaises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.1", port), timeout=5)

    def test_faults_act_inside_the_tls_connection(self):
        with Rift() as rift:
            port = rift.create({"protocol": "https", "recordRequests": True, "stubs": [{"responses": [
                {"fault": "RANDOM_DATA_THEN_CLOSE"}, {"fault": "CONNECTION_RESET_BY_PEER"}]}]})["port"]
            self.assertEqual(get(port, "/random")[0], RANDOM_DATA)
            try:
                self.assertIn(get(port, "/reset")[0], (b"", b"<RST>"))
            except ssl.SSLError:
                pass  # the reset cut the TLS stream: also "closed without writing"
            imposter = rift.admin("GET", f"/imposters/{port}")[2]
            self.assertEqual([r["path"] for r in imposter["requests"]], ["/random", "/reset"])


if __name__ == "__main__":
    unittest.main()
