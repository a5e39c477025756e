"""schemathesis hooks for fuzzing a running Huddle: every case is signed in.

The account is made for this run with an address the fuzzer cannot guess; the stateful phase can
still learn it from responses and slow its sign-ins with wrong passwords (failures make the next
sign-in from the same address wait). The
stateful phase also calls POST /v1/auth/logout, which revokes the token in use; signing in again
every few seconds keeps the rest of the run authenticated instead of answering 401 throughout. A
sign-in that is refused is reported with the server's answer, and the hook goes on with a fresh
account rather than failing every later case.
"""
import os
import re
import uuid

import requests
import schemathesis

BASE = os.environ.get("HUDDLE_URL", "http://127.0.0.1:8080")


def _new_account():
    email, password = f"fuzz-{uuid.uuid4().hex}@huddle.dev", uuid.uuid4().hex
    response = requests.post(
        f"{BASE}/v1/auth/register", json={"email": email, "password": password, "name": "Fuzz Player"}, timeout=30
    )
    response.raise_for_status()
    return email, password


ACCOUNT = _new_account()


@schemathesis.auth(refresh_interval=2)
class SignedIn:
    def get(self, case, context):
        global ACCOUNT
        email, password = ACCOUNT
        response = requests.post(f"{BASE}/v1/auth/login", json={"email": email, "password": password}, timeout=30)
        if response.status_code != 200:
            print(f"fuzz hook: sign-in refused with {response.status_code}: {response.text}; using a new account")
            ACCOUNT = _new_account()
            return self.get(case, context)
        return response.json()["accessToken"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


# A client makes one Idempotency-Key per logical write and sends it again only to retry that write.
# The generators reuse values ("0", "00") across different bodies, which the server rightly answers
# with 422 (the draft idempotency-key header RFC's rule). A key the schema allows is made fresh here;
# a key it forbids is left alone, so the server's refusal of it is still tested.
IDEMPOTENCY_KEY = "Idempotency-Key"
# The cursor pattern the document states: a made-up cursor of that shape still names no position
# (422); the server's answer to one is tested in TeamTests and MyGamesTests, so such cursors are dropped here.
WELL_FORMED_CURSOR = re.compile(r"[A-Za-z0-9_-]{1,1024}")


def _described_query_names(operation):
    """The query parameters the document names for `operation`; an object parameter is sent as its
    fields (OpenAPI's form style, exploded: `position` as `lat` and `lng`)."""
    names = set()
    for parameter in operation.query:
        schema = parameter.definition.get("schema", {})
        if schema.get("type") == "object" and "properties" in schema:
            names |= set(schema["properties"])
        else:
            names.add(parameter.name)
    return names


@schemathesis.hook
def before_call(context, case, kwargs):
    # OpenAPI cannot say that a query takes no parameters but those it names, so the generators count
    # any other as schema-valid; the server answers them 422 naming each (EdgeValueTests), so they
    # are dropped here rather than read as a refused valid request.
    if case.query:
        described = _described_query_names(case.operation)
        for name in [name for name in case.query if name not in described]:
            del case.query[name]
    key = (case.headers or {}).get(IDEMPOTENCY_KEY)
    if isinstance(key, str) and 1 <= len(key) <= 255:
        case.headers[IDEMPOTENCY_KEY] = str(uuid.uuid4())
    cursor = (case.query or {}).get("cursor")
    if isinstance(cursor, str) and WELL_FORMED_CURSOR.fullmatch(cursor):
        del case.query["cursor"]

