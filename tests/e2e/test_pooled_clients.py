"""Keep-alive by default is safe with pooled clients: Node's http.Agent, Python's
requests.Session and Java's HttpClient each reuse connections to an imposter that is deleted
and recreated between their requests, and never see an error (docs/mountebank-compatibility.md).
"""
import os
import shutil
import subprocess
import unittest

import requests

from harness import Rift

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pooled")
ROUNDS = 25


def imposter(port, round_):
    return {"port": port, "protocol": "http",
            "stubs": [{"responses": [{"is": {"body": f"round {round_}"}}]}]}


class PooledClientsTest(unittest.TestCase):
    def run_client(self, command):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"responses": [{"is": {"body": "round 0"}}]}]})["port"]
            result = subprocess.run(command + [str(rift.port), str(port), str(ROUNDS)],
                                    capture_output=True, text=True, timeout=240, cwd=HERE)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertIn(f"ok {ROUNDS} rounds", result.stdout)

    def test_node_http_agent_with_keep_alive(self):
        self.run_client([shutil.which("node"), "agent.js"])

    def test_java_http_client(self):
        java_home = os.environ.get("JAVA_HOME")
        java = os.path.join(java_home, "bin", "java") if java_home else shutil.which("java")
        self.run_client([java, "PooledClient.java"])

    def test_python_requests_session(self):
        with Rift() as rift:
            port = rift.create({"protocol": "http", "stubs": [
                {"responses": [{"is": {"body": "round 0"}}]}]})["port"]
            session = requests.Session()
            admin = f"http://127.0.0.1:{rift.port}/imposters"
            for round_ in range(ROUNDS):
                for _ in range(3):
                    answer = session.get(f"http://127.0.0.1:{port}/", timeout=10)
                    self.assertEqual((answer.status_code, answer.text), (200, f"round {round_}"))
                    self.assertNotIn("close", answer.headers.get("Connection", ""))  # kept alive
                requests.delete(f"{admin}/{port}", timeout=10)
                created = requests.post(admin, json=imposter(port, round_ + 1), timeout=10)
                self.assertEqual(created.status_code, 201, created.text)
            session.close()


if __name__ == "__main__":
    unittest.main()
