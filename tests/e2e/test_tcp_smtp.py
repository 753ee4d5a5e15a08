"""tcp and smtp imposters over real sockets (docs/tcp.md, docs/smtp.md): every tier serves tcp
stubs, a config mixing all four protocols loads through --configfile, PUT /imposters and
--datadir and serves, and hostile input on the new protocols gets an answer or a clean close."""
import base64
import json
import os
import shutil
import smtplib
import socket
import ssl
import subprocess
import tempfile
import time
import unittest

from every_tier import EveryTier
from harness import RIFT, Rift, free_port, request


def exchange(port, data, read_s=0.3, sock=None):
    """Writes `data` on a tcp connection and returns what arrives until `read_s` pass quietly."""
    own = sock is None
    sock = sock or socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        sock.sendall(data)
        sock.settimeout(read_s)
        got = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                return got
            if not chunk:
                return got
            got += chunk
    finally:
        if own:
            sock.close()


def tcp_imposter(port, mode="text"):
    stubs = [{"predicates": [{"equals": {"data": f"req-{i}\n"}}],
              "responses": [{"is": {"data": f"resp-{i}\n"}}]} for i in range(40)]
    stubs.append({"predicates": [{"startsWith": {"data": "PING"}}],
                  "responses": [{"is": {"data": "PONG\r\n"}}]})
    stubs.append({"predicates": [{"contains": {"data": "needle"}}],
                  "responses": [{"is": {"data": "found"}}]})
    imposter = {"protocol": "tcp", "mode": mode, "recordRequests": True, "stubs": stubs}
    if port is not None:
        imposter["port"] = port
    return imposter


def send_mail(port, subject="hello", body="Hi there.\n"):
    message = (f"From: Ann <ann@example.com>\r\nTo: Bob <bob@example.com>\r\n"
               f"Subject: {subject}\r\n\r\n{body}")
    with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
        client.sendmail("ann@example.com", ["bob@example.com"], message)


def mixed(ports):
    """One imposter of each protocol on `ports` (http, https, tcp, smtp)."""
    return [
        {"protocol": "http", "port": ports[0], "stubs": [{"responses": [{"is": {"body": "web"}}]}]},
        {"protocol": "https", "port": ports[1],
         "stubs": [{"responses": [{"is": {"body": "secure"}}]}]},
        tcp_imposter(ports[2]),
        {"protocol": "smtp", "port": ports[3], "name": "mail", "recordRequests": True},
    ]


class TcpEveryTier(EveryTier, unittest.TestCase):
    def imposter(self, port):
        return tcp_imposter(port)

    def check(self, port):
        self.assertEqual(exchange(port, b"req-39\n"), b"resp-39\n")
        self.assertEqual(exchange(port, b"PING me"), b"PONG\r\n")
        self.assertEqual(exchange(port, b"a needle here"), b"found")
        self.assertEqual(exchange(port, b"req-40\n"), b"")  # no stub: nothing written


class MixedProtocols(unittest.TestCase):
    def serves_all(self, ports, server):
        status, _, body = request(ports[0], "GET", "/")
        self.assertEqual((status, body), (200, b"web"))
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        with socket.create_connection(("127.0.0.1", ports[1]), timeout=5) as raw_sock:
            with context.wrap_socket(raw_sock) as tls:
                tls.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                reply = b""
                while chunk := tls.recv(65536):
                    reply += chunk
        self.assertIn(b"\r\nsecure\r\n", reply)
        self.assertEqual(exchange(ports[2], b"req-7\n"), b"resp-7\n")
        send_mail(ports[3], subject="mixed")
        status, _, smtp = server.admin("GET", f"/imposters/{ports[3]}")
        self.assertEqual(status, 200)
        self.assertEqual(smtp["numberOfRequests"], 1)
        self.assertEqual(smtp["requests"][0]["subject"], "mixed")
        self.assertEqual(smtp["requests"][0]["envelopeTo"], ["bob@example.com"])

    def test_configfile_put_and_datadir(self):
        folder = tempfile.mkdtemp(prefix="rift-mixed-")
        try:
            ports = [free_port() for _ in range(4)]
            config = os.path.join(folder, "imposters.json")
            with open(config, "w") as f:
                json.dump({"imposters": mixed(ports)}, f)
            with Rift("--configfile", config) as rift:
                self.serves_all(ports, rift)

            data = os.path.join(folder, "data")
            with Rift("--datadir", data) as rift:
                status, _, body = rift.admin("PUT", "/imposters", {"imposters": mixed(ports)})
                self.assertEqual(status, 200, body)
                self.serves_all(ports, rift)
                _, _, saved = rift.admin("GET", "/imposters?replayable=true")
            self.assertEqual(sorted(os.listdir(data)), sorted(str(p) for p in ports))
            savefile = os.path.join(folder, "saved.json")
            with Rift("--datadir", data) as rift:  # replayed from what was saved
                self.serves_all(ports, rift)
                _, _, again = rift.admin("GET", "/imposters?replayable=true")
                self.assertEqual(again, saved)
                tcp = next(i for i in again["imposters"] if i["protocol"] == "tcp")
                self.assertEqual(tcp["mode"], "text")
                subprocess.run([os.path.abspath(RIFT), "save", "--port", str(rift.port),
                                "--savefile", savefile], check=True, timeout=30)
            with Rift("--configfile", savefile) as rift:  # `rift save`'s file loads as it was
                self.serves_all(ports, rift)
                _, _, loaded = rift.admin("GET", "/imposters?replayable=true")
                self.assertEqual(loaded, saved)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


class NotThroughTheGateway(unittest.TestCase):
    def test_the_gateway_refuses_imposters_that_speak_no_http(self):
        with Rift() as rift:
            for imposter in (tcp_imposter(None), {"protocol": "smtp"}):
                port = rift.create(imposter)["port"]
                status, _, body = request(rift.port, "GET", f"/__rift/{port}/x")
                self.assertEqual(status, 404)
                self.assertIn(b"does not speak HTTP", body)
                _, _, state = rift.admin("GET", f"/imposters/{port}")
                self.assertEqual(state["numberOfRequests"], 0)


class HostileInput(unittest.TestCase):
    def test_tcp_garbage_binary_and_bad_base64(self):
        with Rift() as rift:
            text = rift.create(tcp_imposter(None))["port"]
            binary = rift.create({
                "protocol": "tcp", "mode": "binary",
                "stubs": [{"predicates": [{"equals": {"data": "not base64!"}}],
                           "responses": [{"is": {"data": "%%% also not base64"}}]},
                          {"predicates": [{"startsWith": {"data": "AAEC"}}],
                           "responses": [{"is": {"data": "/w=="}}]}]})["port"]
            garbage = bytes(range(256)) * 64
            self.assertEqual(exchange(text, garbage), b"")
            self.assertEqual(exchange(binary, b"\x00\x01\x02\x03"), b"\xff")
            # Node decodes base64 leniently (characters outside the alphabet skipped, a dangling
            # one dropped): "not base64!" is the bytes of "notbase6", and the reply
            # "%%% also not base64" those of "alsonotbase6".
            self.assertEqual(exchange(binary, base64.b64decode("notbase6")),
                             base64.b64decode("alsonotbase6"))
            with socket.create_connection(("127.0.0.1", text), timeout=5) as sock:
                sock.sendall(garbage)
                sock.shutdown(socket.SHUT_WR)  # half-closed mid-request
            self.assertEqual(exchange(text, b"req-1\n"), b"resp-1\n")  # still serving

    def test_smtp_session_that_never_finishes_and_huge_data(self):
        with Rift("--maxBodyBytes", "65536") as rift:
            port = rift.create({"protocol": "smtp", "recordRequests": True})["port"]
            # A session left in the middle of DATA, then dropped.
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.recv(1024)
                for line in (b"EHLO x\r\n", b"MAIL FROM:<a@b>\r\n", b"RCPT TO:<c@d>\r\n",
                             b"DATA\r\n", b"Subject: never ends\r\n\r\npartial"):
                    sock.sendall(line)
                    time.sleep(0.05)
            # Binary garbage as commands.
            with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
                sock.recv(1024)
                sock.sendall(bytes(range(256)) * 8 + b"\r\n")
                sock.settimeout(2)
                self.assertTrue(sock.recv(1024))
            # A DATA section past the limit is refused, and the server goes on.
            with self.assertRaises(smtplib.SMTPDataError) as refused:
                send_mail(port, body="x" * 100000 + "\n")
            self.assertEqual(refused.exception.smtp_code, 552)
            send_mail(port, subject="after")
            _, _, body = rift.admin("GET", f"/imposters/{port}")
            self.assertEqual([r["subject"] for r in body["requests"]], ["after"])


if __name__ == "__main__":
    unittest.main()
