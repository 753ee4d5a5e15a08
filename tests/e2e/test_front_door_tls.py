"""TLS on the front door over real sockets with real clients (docs/front-door.md#tls): one
HTTPS listener presenting, per SNI, the certificate that names the host (exact before wildcard,
the default for the rest or for no SNI), h2 by ALPN, certificates from flags, from the config
file's `frontDoorTls` block, swapped by PUT /front-door/certificates and by POST /admin/reload;
what cannot be served is refused with the reason, and the old certificates keep serving."""
import json
import os
import socket
import subprocess
import unittest

from harness import Rift, free_port

SITES = {"fallback": ["fallback.test"], "a": ["a.test", "www.a.test"], "b": ["*.b.test"]}


def make_certificate(folder, name, dns_names):
    """A self-signed certificate (its own trust anchor, so curl --cacert proves which one came)."""
    cert, key = os.path.join(folder, f"{name}.pem"), os.path.join(folder, f"{name}.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", cert, "-days",
                    "2", "-subj", f"/CN={name}", "-addext",
                    "subjectAltName=" + ",".join("DNS:" + n for n in dns_names)],
                   check=True, capture_output=True)
    return cert, key


def read(path):
    with open(path) as f:
        return f.read()


def curl(port, host, path="/", cacert=None, *args):
    """GET https://host:port/path with host resolved to loopback; (status, body, http version)."""
    cmd = ["curl", "-sS", "--max-time", "10", "--resolve", f"{host}:{port}:127.0.0.1",
           "-w", "\n%{http_code} %{http_version}", *args]
    cmd += ["--cacert", cacert] if cacert else ["-k"]
    out = subprocess.run(cmd + [f"https://{host}:{port}{path}"], capture_output=True, text=True,
                         timeout=20)
    body, _, tail = out.stdout.rpartition("\n")
    code, _, version = tail.partition(" ")
    return int(code or 0), body, version, out.stderr


def presented(port, server_name):
    """The subject of the certificate the front door presents for `server_name` (None: no SNI)."""
    sni = ["-servername", server_name] if server_name else ["-noservername"]
    out = subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{port}", *sni],
                         input="", capture_output=True, text=True, timeout=20)
    for line in out.stdout.splitlines():
        if line.startswith("subject="):
            return line.split("=", 1)[1].replace(" ", "")
    return out.stdout + out.stderr


class FrontDoorTlsTest(unittest.TestCase):
    def setUp(self):
        self.rift = Rift()
        self.folder = self.rift.dir
        self.certs = {name: make_certificate(self.folder, name, names)
                      for name, names in SITES.items()}
        self.imposters = [free_port(), free_port()]

    def config(self, tls, name="config.json"):
        a, b = self.imposters
        document = {
            "imposters": [
                {"protocol": "http", "port": a, "stubs": [{"responses": [{"is": {"body": "a"}}]}]},
                {"protocol": "http", "port": b, "stubs": [{"responses": [{"is": {"body": "b"}}]}]}],
            "routes": [{"id": "a", "match": {"host": "*.a.test"}, "target": {"port": a}},
                       {"id": "a-apex", "match": {"host": "a.test"}, "target": {"port": a}},
                       {"id": "b", "match": {"host": "*.b.test"}, "target": {"port": b}}]}
        if tls is not None:
            document["frontDoorTls"] = tls
        path = os.path.join(self.folder, name)
        with open(path, "w") as f:
            json.dump(document, f)
        return path

    def block(self):
        return {"certificates": [{"certPath": cert, "keyPath": key}
                                 for cert, key in self.certs.values()]}

    def start(self, tls, *args):
        front = free_port()
        self.rift.args += ["--configfile", self.config(tls), "--front-door",
                           f"127.0.0.1:{front}", *args]
        return self.rift, front

    def test_each_host_gets_its_certificate_and_its_route(self):
        rift, front = self.start(self.block())
        with rift:
            a_cert, b_cert = self.certs["a"][0], self.certs["b"][0]
            self.assertEqual(curl(front, "a.test", cacert=a_cert)[:3], (200, "a", "2"))
            self.assertEqual(curl(front, "www.a.test", cacert=a_cert)[:2], (200, "a"))
            self.assertEqual(curl(front, "api.b.test", cacert=b_cert)[:2], (200, "b"))
            self.assertEqual(curl(front, "api.b.test", "/", b_cert, "--http1.1")[:3],
                             (200, "b", "1.1"))
            # Verified against the wrong anchor, the right certificate fails: the choice is real.
            self.assertNotEqual(curl(front, "api.b.test", cacert=a_cert)[0], 200)
            self.assertEqual(presented(front, "x.b.test"), "CN=b")
            # A wildcard covers one label; the rest, and no SNI at all, get the default.
            self.assertEqual(presented(front, "y.x.b.test"), "CN=fallback")
            self.assertEqual(presented(front, "unknown.test"), "CN=fallback")
            self.assertEqual(presented(front, None), "CN=fallback")
            # Routing still goes by Host: the default certificate, then a no-route 404.
            status, body, _, _ = curl(front, "unknown.test")
            self.assertEqual(status, 404, body)
            # A client that speaks plain HTTP to the TLS port is dropped; the rest carry on.
            with socket.create_connection(("127.0.0.1", front), timeout=5) as sock:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: a.test\r\n\r\n")
                sock.recv(4096)
            self.assertEqual(curl(front, "a.test", cacert=a_cert)[:2], (200, "a"))

            status, _, body = rift.admin("GET", "/front-door/certificates")
            self.assertEqual(status, 200, body)
            listed = body["certificates"]
            self.assertEqual([c["subject"] for c in listed], ["CN=fallback", "CN=a", "CN=b"])
            self.assertEqual(listed[1]["hosts"], ["a.test", "www.a.test"])
            self.assertEqual(listed[1]["namesFrom"], "certificate")
            self.assertEqual([c["default"] for c in listed], [True, False, False])
            self.assertEqual(listed[0]["source"], self.certs["fallback"][0])
            self.assertNotIn("key", json.dumps(body).lower().replace("keypath", ""))

    def test_put_swaps_certificates_and_refuses_bad_ones_whole(self):
        rift, front = self.start(self.block())
        renewed_cert, renewed_key = make_certificate(self.folder, "renewed", ["a.test"])
        with rift:
            body = {"certificates": [{"cert": read(renewed_cert), "key": read(renewed_key)},
                                     {"certPath": self.certs["b"][0],
                                      "keyPath": self.certs["b"][1], "default": True}]}
            status, _, answer = rift.admin("PUT", "/front-door/certificates", body)
            self.assertEqual(status, 200, answer)
            self.assertEqual(answer["certificates"][0]["source"], "inline")
            self.assertEqual(curl(front, "a.test", cacert=renewed_cert)[:2], (200, "a"))
            self.assertEqual(presented(front, "unknown.test"), "CN=b")

            mismatched = {"certificates": [{"certPath": self.certs["a"][0],
                                            "keyPath": self.certs["b"][1]}]}
            status, _, answer = rift.admin("PUT", "/front-door/certificates", mismatched)
            self.assertEqual(status, 400, answer)
            self.assertEqual(answer["errors"][0]["code"], "bad data")
            self.assertIn("certificates[0]: ", answer["errors"][0]["message"])
            self.assertIn("key values mismatch", answer["errors"][0]["message"])
            for bad, reason in (({"certificates": []}, "at least one certificate"),
                                ({"certificates": [{"certPath": "/nonexistent.pem",
                                                    "keyPath": "/x"}]},
                                 "cannot read /nonexistent.pem"),
                                ([1], "must be an object")):
                status, _, answer = rift.admin("PUT", "/front-door/certificates", bad)
                self.assertEqual(status, 400, answer)
                self.assertIn(reason, answer["errors"][0]["message"])
            # Nothing refused changed what is served.
            self.assertEqual(curl(front, "a.test", cacert=renewed_cert)[:2], (200, "a"))

    def test_reload_reads_the_block_again(self):
        rift, front = self.start(self.block())
        with rift:
            self.assertEqual(presented(front, "a.test"), "CN=a")
            renewed = make_certificate(self.folder, "renewed", ["a.test"])
            tls = {"certificates": [{"certPath": renewed[0], "keyPath": renewed[1]}]}
            self.config(tls)
            status, _, answer = rift.admin("POST", "/admin/reload")
            self.assertEqual(status, 200, answer)
            self.assertEqual(presented(front, "a.test"), "CN=renewed")
            # A block that cannot be served fails the reload and changes nothing.
            self.config({"certificates": [{"certPath": renewed[0], "keyPath": renewed[0]}]})
            status, _, answer = rift.admin("POST", "/admin/reload")
            self.assertEqual(status, 500, answer)
            self.assertIn("frontDoorTls: certificates[0]", answer["errors"][0]["message"])
            self.assertEqual(presented(front, "a.test"), "CN=renewed")

    def test_one_certificate_from_flags(self):
        cert, key = self.certs["a"]
        rift, front = self.start(None, "--front-door-cert", cert, "--front-door-key", key)
        with rift:
            self.assertEqual(curl(front, "a.test", cacert=cert)[:2], (200, "a"))
            self.assertEqual(presented(front, "b.b.test"), "CN=a")
            status, _, body = rift.admin("GET", "/front-door/certificates")
            self.assertEqual((status, body["certificates"][0]["source"]), (200, cert))

    def test_a_plain_front_door_has_no_certificates(self):
        rift, front = self.start(None)
        with rift:
            status, _, body = rift.admin("GET", "/front-door/certificates")
            self.assertEqual(status, 404, body)
            self.assertIn("serves plain HTTP", body["errors"][0]["message"])
            status, _, body = rift.admin("PUT", "/front-door/certificates", self.block())
            self.assertEqual(status, 404, body)

    def refused_start(self, *args):
        out = subprocess.run([os.path.abspath(self.rift.binary), "start", "--port",
                              str(free_port()), "--nologfile", *args],
                             capture_output=True, text=True, timeout=20, cwd=self.folder)
        self.assertNotEqual(out.returncode, 0, out.stdout)
        return out.stdout + out.stderr

    def test_start_refuses_what_it_cannot_serve(self):
        cert, key = self.certs["a"]
        front = ["--front-door", f"127.0.0.1:{free_port()}"]
        self.assertIn("use one", self.refused_start(
            "--configfile", self.config(self.block()), *front, "--front-door-cert", cert,
            "--front-door-key", key))
        self.assertIn("give both or neither",
                      self.refused_start(*front, "--front-door-cert", cert))
        self.assertIn("need --frontDoor",
                      self.refused_start("--front-door-cert", cert, "--front-door-key", key))
        twice = {"certificates": [{"certPath": cert, "keyPath": key},
                                  {"certPath": cert, "keyPath": key}]}
        self.assertIn("host 'a.test' is already claimed by certificates[0]",
                      self.refused_start("--configfile", self.config(twice), *front))


if __name__ == "__main__":
    unittest.main()
