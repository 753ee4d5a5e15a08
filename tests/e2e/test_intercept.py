"""The intercept proxy over real sockets with real clients (docs/intercept.md): curl, Python's
urllib and Java's HttpClient reach a hard-coded https:// host through `--intercept-port`, trusting
the CA Rift exports (PEM, PKCS#12, JKS), and get their answers from rules; rules forward to
imposters, plain http:// goes through too, and hostile tunnels do not stop the proxy."""
import glob
import json
import os
import shutil
import socket
import ssl
import subprocess
import unittest
import urllib.request

from harness import Rift, free_port, raw, request

FLAGS = "https://flags.vendor.example/v1/flags"
JAVA_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "java",
                           "HardCodedClient.java")


def java_binary():
    """The Temurin 25 JDK the machine carries, else whatever `java` is on the path."""
    found = sorted(glob.glob("/usr/lib/jvm/temurin-25*/bin/java"))
    return found[0] if found else shutil.which("java")


def fetch(rift, path):
    status, headers, body = request(rift.port, "GET", path)
    return status, {k.lower(): v for k, v in headers.items()}, body


def curl(proxy_port, url, *args, cacert=None):
    cmd = ["curl", "-sS", "--max-time", "10", "--proxy", f"http://127.0.0.1:{proxy_port}",
           "-w", "\n%{http_code}", *args]
    if cacert:
        cmd += ["--cacert", cacert]
    out = subprocess.run(cmd + [url], capture_output=True, text=True, timeout=20)
    body, _, code = out.stdout.rpartition("\n")
    return int(code or 0), body, out.stderr


class InterceptTest(unittest.TestCase):
    def start(self, *args):
        rift = Rift("--intercept-port", "0", *args)
        return rift

    def proxy_port(self, rift):
        status, _, body = rift.admin("GET", "/intercept")
        self.assertEqual(status, 200, body)
        self.assertEqual(body["interceptUrl"], f"http://127.0.0.1:{body['interceptPort']}")
        return body["interceptPort"]

    def ca_file(self, rift):
        status, headers, pem = fetch(rift, "/intercept/ca.pem")
        self.assertEqual(status, 200)
        self.assertEqual(headers["content-type"], "application/x-pem-file")
        path = os.path.join(rift.dir, "ca.pem")
        with open(path, "wb") as f:
            f.write(pem)
        return path

    def add_rules(self, rift, rules):
        status, _, body = rift.admin("POST", "/intercept/rules", rules)
        self.assertEqual(status, 201, body)
        return body

    def test_curl_gets_a_rule_answer_for_a_hard_coded_host(self):
        with self.start() as rift:
            port = self.proxy_port(rift)
            self.add_rules(rift, {"host": "flags.vendor.example",
                                  "predicates": [{"equals": {"path": "/v1/flags"}}],
                                  "action": {"serve": {"statusCode": 200,
                                                       "headers": {"x-from": "rift"},
                                                       "body": '{"dark_mode": true}'}}})
            ca = self.ca_file(rift)
            code, body, err = curl(port, FLAGS, "-i", cacert=ca)
            self.assertEqual(code, 200, err)
            self.assertIn("x-from: rift", body.lower())
            self.assertTrue(body.endswith('{"dark_mode": true}'), body)
            # Hosts compare without case; another path of the host is no rule's: the fallback.
            code, body, err = curl(port, "https://FLAGS.Vendor.Example/other", cacert=ca)
            self.assertEqual((code, body), (200, "rift intercepted GET /other for FLAGS.Vendor.Example\n"), err)
            # Without the CA, curl refuses the minted leaf: the trust is real.
            code, _, err = curl(port, FLAGS)
            self.assertEqual(code, 0)
            self.assertIn("certificate", err.lower())

    def test_keep_alive_and_chunked_bodies_inside_the_tunnel(self):
        with self.start() as rift:
            port = self.proxy_port(rift)
            self.add_rules(rift, [
                {"host": "api.vendor.example", "predicates": [{"equals": {"body": "hello chunks"}}],
                 "action": {"serve": {"body": "matched the chunked body"}}},
                {"host": "api.vendor.example", "action": {"serve": {"body": "second"}}}])
            ca = self.ca_file(rift)
            out = subprocess.run(
                ["curl", "-sS", "-v", "--max-time", "10", "--proxy", f"http://127.0.0.1:{port}",
                 "--cacert", ca, "https://api.vendor.example/a", "https://api.vendor.example/b"],
                capture_output=True, text=True, timeout=20)
            self.assertEqual(out.stdout, "secondsecond", out.stderr)
            self.assertIn("Re-using existing connection", out.stderr)
            # HTTP/2 inside the tunnel (ALPN on the minted leaf), a chunk-free body in DATA.
            out = subprocess.run(
                ["curl", "-sS", "--max-time", "10", "--http2", "--proxy",
                 f"http://127.0.0.1:{port}", "--cacert", ca, "-w", " %{http_version}",
                 "https://api.vendor.example/h2"], capture_output=True, text=True, timeout=20)
            self.assertEqual(out.stdout, "second 2", out.stderr)
            out = subprocess.run(
                ["curl", "-sS", "--max-time", "10", "--http2", "--proxy",
                 f"http://127.0.0.1:{port}", "--cacert", ca, "--data-binary", "hello chunks",
                 "https://api.vendor.example/upload"], capture_output=True, text=True, timeout=20)
            self.assertEqual(out.stdout, "matched the chunked body", out.stderr)
            out = subprocess.run(
                ["curl", "-sS", "--max-time", "10", "--proxy", f"http://127.0.0.1:{port}",
                 "--cacert", ca, "-H", "Transfer-Encoding: chunked", "--data-binary", "hello chunks",
                 "https://api.vendor.example/upload"],
                capture_output=True, text=True, timeout=20)
            self.assertEqual(out.stdout, "matched the chunked body", out.stderr)

    def test_wildcard_hosts_forwarding_and_plain_http(self):
        with self.start() as rift:
            port = self.proxy_port(rift)
            imposter = free_port()
            rift.create({"protocol": "http", "port": imposter, "recordRequests": True,
                         "stubs": [{"responses": [{"is": {"body": "from the imposter"}}]}]})
            self.add_rules(rift, [
                {"host": "*.cdn.example", "action": {"forward": {"port": imposter}}},
                {"host": "plain.example", "action": {"serve": {"statusCode": 202, "body": "plain"}}}])
            ca = self.ca_file(rift)
            code, body, err = curl(port, "https://eu.edge.cdn.example/asset?v=2", cacert=ca)
            self.assertEqual((code, body), (200, "from the imposter"), err)
            _, _, recorded = rift.admin("GET", f"/imposters/{imposter}")
            self.assertEqual(recorded["requests"][0]["path"], "/asset")
            self.assertEqual(recorded["requests"][0]["query"], {"v": "2"})
            # Label boundary: the bare domain is not under its wildcard.
            code, body, err = curl(port, "https://cdn.example/asset", cacert=ca)
            self.assertEqual(body, "rift intercepted GET /asset for cdn.example\n", err)
            # An absolute-form http:// request needs no tunnel at all.
            code, body, err = curl(port, "http://plain.example/x")
            self.assertEqual((code, body), (202, "plain"), err)

    def test_python_urllib_through_the_proxy(self):
        with self.start() as rift:
            port = self.proxy_port(rift)
            self.add_rules(rift, {"host": "flags.vendor.example",
                                  "action": {"serve": {"body": "python"}}})
            context = ssl.create_default_context(cafile=self.ca_file(rift))
            proxy = f"http://127.0.0.1:{port}"
            opener = urllib.request.build_opener(
                urllib.request.ProxyHandler({"https": proxy, "http": proxy}),
                urllib.request.HTTPSHandler(context=context))
            with opener.open(FLAGS, timeout=10) as response:
                self.assertEqual((response.status, response.read()), (200, b"python"))

    def test_java_trusts_the_exported_truststores(self):
        java = java_binary()
        self.assertIsNotNone(java, "no JDK on this machine")
        with self.start() as rift:
            port = self.proxy_port(rift)
            self.add_rules(rift, {"host": "flags.vendor.example",
                                  "predicates": [{"equals": {"path": "/v1/flags"}}],
                                  "action": {"serve": {"body": "java"}}})
            for kind, store_type in (("p12", "PKCS12"), ("jks", "JKS")):
                status, headers, store = fetch(rift, f"/intercept/truststore.{kind}?password=s3cret")
                self.assertEqual(status, 200)
                self.assertEqual(headers["x-truststore-password"], "s3cret")
                self.assertIn(f'filename="rift-intercept-ca.{kind}"', headers["content-disposition"])
                path = os.path.join(rift.dir, f"truststore.{kind}")
                with open(path, "wb") as f:
                    f.write(store)
                out = subprocess.run(
                    [java, f"-Dhttps.proxyHost=127.0.0.1", f"-Dhttps.proxyPort={port}",
                     f"-Djavax.net.ssl.trustStore={path}", "-Djavax.net.ssl.trustStorePassword=s3cret",
                     f"-Djavax.net.ssl.trustStoreType={store_type}", JAVA_SOURCE],
                    capture_output=True, text=True, timeout=120)
                # HttpClient offers h2 in ALPN: the tunnel speaks HTTP/2.
                self.assertEqual(out.stdout.split("\n")[:3], ["200", "HTTP_2", "java"],
                                 kind + ": " + out.stderr[-3000:])

    def test_lifecycle_over_the_admin_api(self):
        with Rift() as rift:
            status, _, body = rift.admin("GET", "/intercept")
            self.assertEqual(status, 404)
            self.assertIn("not running", json.dumps(body))
            self.assertEqual(rift.admin("GET", "/intercept/rules")[0], 404)
            status, _, body = rift.admin("POST", "/intercept", {"returnCaKey": True, "rules": [
                {"host": "seeded.example", "action": {"serve": {"body": "seeded"}}}]})
            self.assertEqual(status, 201, body)
            self.assertIn("BEGIN CERTIFICATE", body["caCertPem"])
            self.assertIn("PRIVATE KEY", body["caKeyPem"])
            port = body["interceptPort"]
            self.assertEqual(rift.admin("POST", "/intercept", {})[0], 409)
            _, _, rules = rift.admin("GET", "/intercept/rules")
            self.assertEqual(rules, [{"host": "seeded.example",
                                      "action": {"serve": {"body": "seeded"}}}])
            ca = os.path.join(rift.dir, "given-ca.pem")
            with open(ca, "w") as f:
                f.write(body["caCertPem"])
            self.assertEqual(curl(port, "https://seeded.example/", cacert=ca)[:2], (200, "seeded"))
            # The cap refuses a batch whole.
            too_many = [{"action": {"serve": {}}}] * 10000
            status, _, body = rift.admin("POST", "/intercept/rules", too_many)
            self.assertEqual(status, 429, body)
            self.assertEqual(len(rift.admin("GET", "/intercept/rules")[2]), 1)
            self.assertEqual(rift.admin("DELETE", "/intercept/rules")[2], {"deleted": 1})
            # Restarted with the CA it handed out: leaves chain to the same certificate.
            self.assertEqual(rift.admin("DELETE", "/intercept")[0], 204)
            self.assertEqual(rift.admin("DELETE", "/intercept")[0], 204)
            self.assertEqual(rift.admin("GET", "/intercept")[0], 404)
            with open(ca) as f:
                status, _, body = rift.admin("POST", "/intercept", {"caCertPem": f.read()})
            self.assertEqual(status, 400)
            self.assertIn("both", json.dumps(body))

    def test_bad_rules_and_settings_are_refused_with_the_reason(self):
        with self.start() as rift:
            for rule, words in (({"action": {"serve": {}, "forward": {"port": 1}}}, "'action'"),
                                ({"action": {"forward": {"port": 0}}}, "forward.port"),
                                ({"host": "bad host", "action": {"serve": {}}}, "not a host"),
                                ({"action": {"serve": {"statusCode": 99}}}, "statusCode"),
                                ({"predicates": [{"nope": {}}], "action": {"serve": {}}},
                                 "rule 0")):
                status, _, body = rift.admin("POST", "/intercept/rules", rule)
                self.assertEqual(status, 400, (rule, body))
                self.assertIn(words, json.dumps(body))
            status, _, body = rift.admin("POST", "/intercept/rules", "not json")
            self.assertEqual(status, 400)
            self.assertEqual(rift.admin("GET", "/intercept/rules")[2], [])

    def test_hostile_tunnels_do_not_stop_the_proxy(self):
        with self.start() as rift:
            port = self.proxy_port(rift)
            self.add_rules(rift, {"action": {"serve": {"body": "still here"}}})
            ca = self.ca_file(rift)
            # A tunnel that never starts its handshake, held open throughout.
            silent = socket.create_connection(("127.0.0.1", port))
            silent.sendall(b"CONNECT silent.example:443 HTTP/1.1\r\nHost: silent.example:443\r\n\r\n")
            self.assertTrue(silent.recv(100).startswith(b"HTTP/1.1 200"))
            # Not TLS at all after the CONNECT: the handshake fails and the tunnel closes.
            garbage = socket.create_connection(("127.0.0.1", port), timeout=5)
            garbage.sendall(b"CONNECT junk.example:443 HTTP/1.1\r\n\r\n")
            self.assertTrue(garbage.recv(100).startswith(b"HTTP/1.1 200"))
            garbage.sendall(b"GET / HTTP/1.1\r\nHost: junk.example\r\n\r\n")
            while garbage.recv(100):
                pass  # at most an alert, then the close (a timeout here fails the test)
            garbage.close()
            # An SNI no certificate can name: the handshake fails with an alert.
            out = subprocess.run(
                ["openssl", "s_client", "-proxy", f"127.0.0.1:{port}", "-connect",
                 "flags.vendor.example:443", "-servername", "bad!host"],
                input="", capture_output=True, text=True, timeout=20)
            self.assertIn("unrecognized name", out.stdout + out.stderr)
            # A CONNECT without a host, and one with early bytes: 400.
            self.assertTrue(raw(port, b"CONNECT :443 HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.1 400"))
            self.assertTrue(raw(port, b"CONNECT a.example:443 HTTP/1.1\r\n\r\n\x16\x03\x01")
                            .startswith(b"HTTP/1.1 400"))
            code, body, err = curl(port, "https://flags.vendor.example/", cacert=ca)
            self.assertEqual((code, body), (200, "still here"), err)
            silent.close()

    def test_config_block_and_flags(self):
        rift = Rift()
        path = os.path.join(rift.dir, "config.json")
        with open(path, "w") as f:
            json.dump({"imposters": [], "intercept": {
                "port": free_port(), "rules": [{"host": "cfg.example",
                                                "action": {"serve": {"body": "from config"}}}]}}, f)
        rift.args += ["--configfile", path]
        with rift:
            port = self.proxy_port(rift)
            code, body, err = curl(port, "https://cfg.example/", cacert=self.ca_file(rift))
            self.assertEqual((code, body), (200, "from config"), err)
        # Both the block and the flags: refused at start, saying why.
        out = subprocess.run([os.path.abspath(rift.binary), "start", "--port", str(free_port()),
                              "--configfile", path, "--intercept-port", "0", "--nologfile"],
                             capture_output=True, text=True, timeout=20, cwd=rift.dir)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("use one", out.stdout + out.stderr)

    def test_a_given_ca_from_files(self):
        folder = Rift().dir
        key, cert = os.path.join(folder, "ca.key"), os.path.join(folder, "ca.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                        "-out", cert, "-days", "30", "-subj", "/CN=Team CA",
                        "-addext", "basicConstraints=critical,CA:TRUE",
                        "-addext", "keyUsage=critical,keyCertSign"],
                       check=True, capture_output=True)
        with self.start("--intercept-ca-cert", cert, "--intercept-ca-key", key) as rift:
            port = self.proxy_port(rift)
            self.add_rules(rift, {"action": {"serve": {"body": "team ca"}}})
            self.assertEqual(curl(port, "https://x.example/", cacert=cert)[:2], (200, "team ca"))
            _, _, pem = fetch(rift, "/intercept/ca.pem")
            self.assertIn(b"BEGIN CERTIFICATE", pem)


if __name__ == "__main__":
    unittest.main()
