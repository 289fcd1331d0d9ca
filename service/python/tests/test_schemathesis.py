"""schemathesis (4.x) against the HTTP service: every check, on every
operation of openapi.json, in every phase (examples, coverage, fuzzing;
stateful in its own test), against a server on 127.0.0.1 (ephemeral port).

Bounded and reproducible: a fixed seed, a fixed number of examples per
operation, derandomized generation, no example database. A failure names
the check (ST2xx), the operation and a curl command that reproduces it.
"""
import http.client
import json
import os

import hypothesis
import pytest

try:
    import schemathesis
    from schemathesis.config import SchemathesisConfig
except ImportError:  # the `test` extra of service/python/pyproject.toml brings it
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("schemathesis is not installed (pip install "
                "'./python[test]')", allow_module_level=True)

from conftest import keypair
from falcon_accel.keystore import key_id_of, write_atomic
from falcon_accel.server import RunningServer, openapi_path

TOKEN = "test-token-0123456789abcdef"
SEED = 27
MAX_EXAMPLES = 100         # fuzzing phase, per operation
STATEFUL_EXAMPLES = 100    # stateful phase: scenarios...
STATEFUL_STEPS = 10        # ...of at most this many calls
# A key stored before the server starts: the sign operation's path names
# it, so signing is exercised for real (other operations get generated
# key ids, mostly unknown: 404).
KEY = keypair(9)
KEY_ID = key_id_of(KEY.public_key)

# schemathesis' default statuses for the two data checks, as of 4.32.
POSITIVE_OK = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
NEGATIVE_OK = ["400", "401", "403", "404", "405", "406", "409", "415",
               "422", "428", "429", "5xx"]

CONFIG = {
    "seed": SEED,
    "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True,
                   "database": "none"},
    # Hypothesis' timing of data generation, which a loaded machine fails:
    # a property of the test machine, not of the API.
    "suppress-health-check": ["too_slow"],
    "auth": {"openapi": {"bearer": {"bearer": TOKEN}}},
    "phases": {"enabled": True,
               "stateful": {"max-steps": STATEFUL_STEPS,
                            "generation": {
                                "max-examples": STATEFUL_EXAMPLES}}},
    "checks": {
        # All of them, max_response_time (off unless given a limit)
        # included: no request may take 10 s.
        "enabled": True,
        "max_response_time": 10.0,
        # A batch over the item limit (openapi.json: maxItems, the
        # service's default --max-items) or a body over --max-body is
        # refused with 413 Content Too Large, as openapi.json documents
        # for these operations; schemathesis' default list of rejection
        # statuses does not have 413.
        "negative_data_rejection": {"expected-statuses": NEGATIVE_OK
                                    + ["413"]},
    },
    "operations": [
        # Signing takes the fields of the key's scheme only, which the
        # request cannot show: a context or a prehash on this (falcon)
        # key, or on a created fn-dsa key a format other than padded or a
        # message that is not a hash of the prehash's size, get 400 naming
        # the field (test_server_fndsa.test_fields_a_scheme_does_not_take_
        # are_400), so 400 is an accepted answer to schema-valid requests.
        {"include-operation-id": "sign",
         "parameters": {"path.key_id": KEY_ID},
         "checks": {"positive_data_acceptance": {
             "expected-statuses": POSITIVE_OK + ["400"]}}},
        # Verification checks what OpenAPI cannot express: that a public
        # key is an encoded Falcon key (header byte and a size that
        # depends on the degree) and that a signature's size is possible
        # for the key's degree (and the scheme's fields, as signing);
        # schema-valid requests that fail these get 400
        # (test_server.test_wrong_sizes_and_fields), so 400 is an
        # accepted answer to them. The check still holds for everything
        # else there, and in full for the other operations.
        {"include-operation-id": ["verify", "verifyBatch"],
         "checks": {"positive_data_acceptance": {
             "expected-statuses": POSITIVE_OK + ["400"]}}},
    ],
}

# The packaged openapi.json, which the server serves (checked below): the
# schema is needed when the tests are collected, before the server (and
# its port) exists; the requests go to the server's URL. (Loading it from
# a fixture, schemathesis.pytest.from_fixture, fails on pytest 9.2:
# schemathesis 4.32 sets the private Function._nodeid pytest dropped.)
schema = schemathesis.openapi.from_path(
    openapi_path(), config=SchemathesisConfig.from_dict(CONFIG))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    keys = tmp_path_factory.mktemp("schemathesis") / "keys"
    keys.mkdir(mode=0o700)
    write_atomic(keys / f"{KEY_ID}.pub", KEY.public_key, 0o644)
    write_atomic(keys / f"{KEY_ID}.key", KEY.secret_key, 0o600)
    # Default limits (--max-items is openapi.json's maxItems).
    with RunningServer(keys, TOKEN, threads=2) as srv:
        yield srv


def test_served_schema_is_the_tested_one(server):
    st, body = get(server, "/openapi.json")
    doc = json.loads(openapi_path().read_text())
    assert st == 200 and json.loads(body) == doc
    # The server's limits are the documented ones.
    schemas = doc["components"]["schemas"]
    for batch in ("SignBatchRequest", "VerifyBatchRequest"):
        items = schemas[batch]["properties"]["items"]
        assert items["maxItems"] == server.service.max_items


def get(server, path):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


@schema.parametrize()
def test_api(case, server):
    case.call_and_validate(base_url=server.url)
    # The service keeps serving whatever it was sent.
    assert get(server, "/health")[0] == 200


APIWorkflow = schema.as_state_machine()


def test_stateful(server):
    """Links inferred from the schema (a created key's id into the key and
    sign operations): create, read and sign with keys, all checks on
    every response."""
    class Workflow(APIWorkflow):
        def get_call_kwargs(self, case):
            return {"base_url": server.url}

    # The configured settings (seed, examples, steps, derandomized); the
    # health checks of generation off, as schemathesis' own stateful
    # runner has them.
    settings = hypothesis.settings(
        schema.config.get_hypothesis_settings(phase="stateful"),
        suppress_health_check=list(hypothesis.HealthCheck))
    Workflow.run(settings=settings)
    assert get(server, "/health")[0] == 200
