"""schemathesis hooks for fuzzing a running Huddle: every case is signed in.

The account is made for this run with an address the fuzzer cannot guess, so fuzzed sign-ins
(five failures lock an account) never lock it. The stateful phase calls POST /v1/auth/logout,
which revokes the token in use; signing in again every few seconds keeps the rest of the run
authenticated instead of answering 401 throughout.
"""
import os
import uuid

import requests
import schemathesis

BASE = os.environ.get("HUDDLE_URL", "http://127.0.0.1:8080")
EMAIL = f"fuzz-{uuid.uuid4().hex}@huddle.dev"
PASSWORD = uuid.uuid4().hex


def _register():
    response = requests.post(
        f"{BASE}/v1/auth/register", json={"email": EMAIL, "password": PASSWORD, "name": "Fuzz Player"}, timeout=10
    )
    response.raise_for_status()


_register()


@schemathesis.auth(refresh_interval=2)
class SignedIn:
    def get(self, case, context):
        response = requests.post(f"{BASE}/v1/auth/login", json={"email": EMAIL, "password": PASSWORD}, timeout=30)
        response.raise_for_status()
        return response.json()["accessToken"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
