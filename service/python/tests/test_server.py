"""The HTTP signing service on 127.0.0.1 (ephemeral port, stopped at the
end): endpoints, authentication, key files, errors, metrics, OpenAPI."""
import base64
import http.client
import json
import re
import stat
import sys
from pathlib import Path

import pytest

import falcon_accel as fa
from falcon_accel.server import (REQUEST_FIELDS, ROUTES,
                                 RunningServer, openapi_path)

TOKEN = "test-token-0123456789abcdef"
DOC = json.loads(openapi_path().read_text())


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


class Client:
    def __init__(self, port: int, token=None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.token = token

    def raw(self, method, path, body=b"", headers=None):
        h = {"Content-Type": "application/json"}
        if self.token:
            h["Authorization"] = f"Bearer {self.token}"
        h.update(headers or {})
        self.conn.request(method, path, body=body, headers=h)
        r = self.conn.getresponse()
        data = r.read()
        if r.getheader("Connection") == "close":
            self.conn.close()
        return r.status, r, data

    def call(self, method, path, obj=None, **kw):
        body = b"" if obj is None else json.dumps(obj).encode()
        status, r, data = self.raw(method, path, body, **kw)
        ctype = r.getheader("Content-Type", "")
        return status, (json.loads(data) if "json" in ctype else data)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("svc")
    with RunningServer(d / "keys", TOKEN, threads=2, max_body=200_000,
                       max_items=100) as srv:
        yield srv


@pytest.fixture(scope="module")
def key(server):
    st, out = Client(server.port, TOKEN).call("POST", "/v1/keys",
                                              {"logn": 9})
    assert st == 201, out
    return out


def _resolve(doc, schema):
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].split("/")[-1]]
    return schema


def conforms(doc, schema, value, where="$"):
    """A small JSON-schema check (type, required, properties, items,
    enum, allOf, $ref) of `value` against a schema of openapi.json."""
    schema = _resolve(doc, schema)
    for part in schema.get("allOf", []):
        conforms(doc, part, value, where)
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool,
             "integer": int, "number": (int, float)}
    t = schema.get("type")
    if t is not None:
        assert isinstance(value, kinds[t]), (where, t, value)
        if t in ("integer", "number"):
            assert not isinstance(value, bool), where
    if "enum" in schema:
        assert value in schema["enum"], (where, value)
    if isinstance(value, dict):
        for name in schema.get("required", []):
            assert name in value, (where, name)
        for name, sub in schema.get("properties", {}).items():
            if name in value:
                conforms(doc, sub, value[name], f"{where}.{name}")
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            conforms(doc, schema["items"], v, f"{where}[{i}]")


def response_schema(doc, method, path, status):
    op = doc["paths"][path][method.lower()]
    content = op["responses"][str(status)].get("content", {})
    return content.get("application/json", {}).get("schema")


def test_health_openapi_and_routes(server):
    c = Client(server.port)
    st, out = c.call("GET", "/health")
    assert st == 200 and out["status"] == "ok" and out["threads"] == 2
    st, doc = c.call("GET", "/openapi.json")
    assert st == 200
    assert doc == json.loads(openapi_path().read_text())
    conforms(doc, response_schema(doc, "GET", "/health", 200), out)
    # Every route of the application is documented, and nothing else,
    # with the same token requirement, request model and response model.
    documented = {(m.upper(), p) for p, ops in doc["paths"].items()
                  for m in ops}
    served = {(m, p) for m, p, *_ in ROUTES}
    assert documented == served
    app_routes = {(m, r.path.replace(":path", ""))
                  for r in server.service.starlette.routes for m in r.methods
                  if m != "HEAD"}
    assert app_routes == served
    for method, path, name, auth, req, resp in ROUTES:
        op = doc["paths"][path][method.lower()]
        assert bool(op.get("security")) == auth, path
        assert ("401" in op["responses"]) == auth, path
        body = op.get("requestBody", {}).get("content", {}).get(
            "application/json", {}).get("schema")
        assert (body or {}).get("$ref", "").split("/")[-1] == (req or ""), \
            path
        ok = "201" if name == "create_key" else "200"
        got = response_schema(doc, method, path, ok)
        assert (got or {}).get("$ref", "").split("/")[-1] == (resp or ""), \
            path
    # The request models' fields are the documented properties.
    schemas = doc["components"]["schemas"]
    flat = dict(schemas)
    flat["VerifyRequest"] = {
        "properties": {**schemas["VerifyItem"]["properties"],
                       **schemas["VerifyRequest"]["allOf"][1]["properties"]},
        "required": schemas["VerifyItem"]["required"]}
    flat["SignBatchItem"] = schemas["SignBatchRequest"]["properties"][
        "items"]["items"]
    for model, (fields, required) in REQUEST_FIELDS.items():
        assert set(flat[model]["properties"]) == fields, model
        assert set(flat[model].get("required", [])) == required, model


def test_key_creation_needs_the_token(server, key):
    st, out = Client(server.port).call("POST", "/v1/keys", {})
    assert st == 401 and out["error"]["code"] == "unauthorized"
    st, out = Client(server.port, "wrong-token-xxxxxxxx").call(
        "POST", "/v1/keys", {})
    assert st == 401
    pk = base64.b64decode(key["public_key"])
    assert len(pk) == 897 and key["logn"] == 9
    kdir = Path(server.service.keys.dir)
    mode = stat.S_IMODE((kdir / f"{key['key_id']}.key").stat().st_mode)
    assert mode == 0o600
    assert (kdir / f"{key['key_id']}.pub").read_bytes() == pk
    assert fa.public_key((kdir / f"{key['key_id']}.key").read_bytes()) == pk
    assert not list(kdir.glob(".*tmp"))       # no leftover temp files
    st, out = Client(server.port).call("GET", f"/v1/keys/{key['key_id']}")
    assert st == 200 and out["public_key"] == key["public_key"]


def test_sign_and_verify(server, key):
    c = Client(server.port, TOKEN)
    pk = base64.b64decode(key["public_key"])
    for fmt in ("compressed", "padded", "ct"):
        st, out = c.call("POST", f"/v1/keys/{key['key_id']}/sign",
                         {"message": b64(b"hello"), "format": fmt})
        assert st == 200, out
        sig = base64.b64decode(out["signature"])
        assert fa.verify(pk, b"hello", sig, fmt)
        st, out = Client(server.port).call("POST", "/v1/verify", {
            "public_key": b64(pk), "message": b64(b"hello"),
            "signature": b64(sig), "format": fmt})
        assert st == 200 and out == {"valid": True}
        conforms(DOC, {"$ref": "#/components/schemas/VerifyResponse"}, out)
        st, out = Client(server.port).call("POST", "/v1/verify", {
            "key_id": key["key_id"], "message": b64(b"hellO"),
            "signature": b64(sig)})
        assert st == 200 and out["valid"] is False
        assert out["reason"] == "badsig"
    st, out = Client(server.port).call(
        "POST", f"/v1/keys/{key['key_id']}/sign", {"message": b64(b"x")})
    assert st == 401


def test_batches(server, key):
    c = Client(server.port, TOKEN)
    msgs = [b"batch %d" % i for i in range(64)]
    st, out = c.call("POST", "/v1/sign/batch", {
        "format": "padded",
        "items": [{"key_id": key["key_id"], "message": b64(m)}
                  for m in msgs]})
    assert st == 200, out
    conforms(DOC, {"$ref": "#/components/schemas/SignBatchResponse"}, out)
    sigs = [base64.b64decode(s) for s in out["signatures"]]
    pk = base64.b64decode(key["public_key"])
    assert fa.verify_batch([(pk, m, s) for m, s in zip(msgs, sigs)]) \
        == [True] * 64
    items = [{"key_id": key["key_id"], "message": b64(m),
              "signature": b64(s)} for m, s in zip(msgs, sigs)]
    items[5]["message"] = b64(b"other")
    items[9] = {"public_key": b64(pk), "message": b64(msgs[9]),
                "signature": b64(sigs[8])}
    st, out = Client(server.port).call("POST", "/v1/verify/batch",
                                       {"items": items})
    assert st == 200
    assert out["results"] == [i not in (5, 9) for i in range(64)]
    assert out["valid"] == 62
    conforms(DOC, {"$ref": "#/components/schemas/VerifyBatchResponse"}, out)


BAD_REQUESTS = [
    # (method, path, body, expected status, error code)
    ("POST", "/v1/verify", b"{not json", 400, "bad_json"),
    ("POST", "/v1/verify", b"[1, 2]", 400, "bad_json"),
    ("POST", "/v1/verify", b'{"message": "aGk=", "signature": "aGk=",'
     b' "public_key": "aGk="}', 400, "bad_request"),
    ("POST", "/v1/verify", b'{"message": "***", "signature": "aGk=",'
     b' "key_id": "x"}', 404, "unknown_key"),
    ("POST", "/v1/verify/batch", b'{"items": []}', 400, "bad_request"),
    ("POST", "/v1/verify/batch", b'{"items": 7}', 400, "bad_request"),
    ("POST", "/v1/verify/batch",
     json.dumps({"items": [{}] * 101}).encode(), 413, "too_many_items"),
    ("GET", "/v1/keys/0123456789abcdef0123456789abcdef", b"", 404,
     "unknown_key"),
    ("GET", "/v1/keys/..%2F..%2Fetc%2Fpasswd", b"", 404, "unknown_key"),
    ("GET", "/nowhere", b"", 404, "not_found"),
    ("DELETE", "/v1/keys", b"", 405, "method_not_allowed"),
    ("POST", "/v1/verify", b"x" * 200_001, 413, "body_too_large"),
    # "format": null is not the default format (found by schemathesis).
    ("POST", "/v1/verify", b'{"message": "aGk=", "signature": "aGk=",'
     b' "key_id": "0123456789abcdef0123456789abcdef", "format": null}',
     400, "bad_request"),
    ("POST", "/v1/verify/batch", b'{"items": [{"message": "aGk=",'
     b' "signature": "aGk=", "key_id": "0123456789abcdef0123456789abcdef"'
     b'}], "format": null}', 400, "bad_request"),
]


@pytest.mark.parametrize("method,path,body,status,code", BAD_REQUESTS)
def test_bad_requests_get_4xx_and_service_survives(server, method, path,
                                                   body, status, code):
    c = Client(server.port)
    st, r, data = c.raw(method, path, body)
    assert st == status, data
    err = json.loads(data)["error"]
    assert err["code"] == code and err["message"]
    conforms(DOC, {"$ref": "#/components/schemas/Error"}, json.loads(data))
    st, out = Client(server.port).call("GET", "/health")
    assert st == 200


def test_wrong_sizes_and_fields(server, key):
    c = Client(server.port, TOKEN)
    pk = base64.b64decode(key["public_key"])
    sig = fa.sign(fa.keygen(9, seed=b"s").secret_key, b"m")
    cases = [
        {"public_key": b64(pk[:-1]), "message": b64(b"m"),
         "signature": b64(sig)},                         # short key
        {"public_key": b64(b"\x59" + pk[1:]), "message": b64(b"m"),
         "signature": b64(sig)},                         # private header
        {"key_id": key["key_id"], "message": b64(b"m"),
         "signature": b64(sig + bytes(900))},            # long signature
        {"key_id": key["key_id"], "message": b64(b"m"),
         "signature": b64(sig[:10])},                    # short signature
        {"key_id": key["key_id"], "message": 5, "signature": b64(sig)},
        {"key_id": key["key_id"], "message": b64(b"m"),
         "signature": b64(sig), "format": "fancy"},
    ]
    for body in cases:
        st, out = Client(server.port).call("POST", "/v1/verify", body)
        assert st == 400, (body, out)
        assert out["error"]["message"]
    st, out = c.call("POST", "/v1/keys", {"logn": 11})
    assert st == 400
    st, out = c.call("POST", "/v1/keys", {"logn": "9"})
    assert st == 400
    st, out = c.call("POST", f"/v1/keys/{key['key_id']}/sign",
                     {"message": b64(b"m"), "format": "any"})
    assert st == 400
    # Keep-alive connection still usable after errors.
    st, out = c.call("POST", f"/v1/keys/{key['key_id']}/sign",
                     {"message": "not base64!"})
    assert st == 400
    st, out = c.call("GET", "/health")
    assert st == 200


def test_metrics_prometheus_format(server, key):
    st, text = Client(server.port).call("GET", "/metrics")
    assert st == 200
    text = text.decode()
    line_re = re.compile(r'^[a-z_][a-z0-9_]*(\{[a-z_]+="[^"]*"'
                         r'(,[a-z_]+="[^"]*")*\})? -?[0-9.e+-]+$|^'
                         r'[a-z_]+_bucket\{le="\+Inf"\} [0-9]+$')
    for line in text.splitlines():
        if line.startswith("#"):
            assert re.match(r"^# (HELP|TYPE) [a-z_]+ .+$", line), line
        else:
            assert line_re.match(line), line
    for name in ("falcon_broker_queue_depth", "falcon_broker_batch_size_bucket",
                 "falcon_broker_job_latency_seconds",
                 "falcon_broker_backend_items_total",
                 "falcon_broker_rejected_busy_total",
                 "falcon_http_requests_total"):
        assert name in text
    assert 'falcon_broker_batch_size_bucket{le="+Inf"}' in text


def test_signing_disabled_without_token(tmp_path):
    with RunningServer(tmp_path / "k", None, threads=1) as srv:
        st, out = Client(srv.port, TOKEN).call("POST", "/v1/keys", {})
        assert st == 403
        st, out = Client(srv.port).call("GET", "/health")
        assert out["signing_enabled"] is False


def test_keys_persist_across_restarts(tmp_path):
    with RunningServer(tmp_path / "k", TOKEN, threads=1) as srv:
        st, out = Client(srv.port, TOKEN).call("POST", "/v1/keys",
                                               {"logn": 8})
        assert st == 201
    with RunningServer(tmp_path / "k", TOKEN, threads=1) as srv:
        c = Client(srv.port, TOKEN)
        st, again = c.call("GET", f"/v1/keys/{out['key_id']}")
        assert st == 200 and again["public_key"] == out["public_key"]
        st, s = c.call("POST", f"/v1/keys/{out['key_id']}/sign",
                       {"message": b64(b"persist")})
        assert st == 200
        assert fa.verify(base64.b64decode(out["public_key"]), b"persist",
                         base64.b64decode(s["signature"]))


# --- the C reader of batch bodies behind the fast path --------------------

from hypothesis import given, settings, strategies as st  # noqa: E402
import binascii  # noqa: E402

from falcon_accel.broker import OP_SIGN, OP_VERIFY, PackedItems  # noqa: E402

KEY_ID = "0123456789abcdef0123456789abcdef"


def pack(key: bytes, fields):
    """Messages decoded by the C reader from a sign-batch body with one
    item per base64 field string (None: refused)."""
    body = json.dumps({"items": [{"key_id": KEY_ID, "message": f}
                                 for f in fields]}).encode()
    got = PackedItems.from_json(OP_SIGN, body, {KEY_ID: key}.get, 100)
    if got is None:
        return None
    items, fmt = got
    assert fmt is None and items.n == len(fields)
    res, pos, data = [], 0, bytes(items.data)
    for i in range(items.n):
        kl, ml = items.lens[2 * i], items.lens[2 * i + 1]
        assert data[pos:pos + kl] == key
        res.append(data[pos + kl:pos + kl + ml])
        pos += kl + ml
    assert pos == len(data)
    return res


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=70), min_size=1, max_size=6))
def test_c_base64_decodes_what_python_encodes(blobs):
    assert pack(b"K" * 5, [b64(b) for b in blobs]) == blobs


@pytest.mark.skipif(sys.version_info < (3, 11), reason="strict_mode")
@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="AQgw+/=9a \n-_", max_size=12))
def test_c_base64_accepts_only_what_strict_python_accepts(s):
    got = pack(b"k", [s])
    try:
        ref = binascii.a2b_base64(s, strict_mode=True)
    except (binascii.Error, ValueError):
        ref = None
    if got is not None:
        assert ref is not None and got[0] == ref, (s, got, ref)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="strict_mode")
@settings(max_examples=400, deadline=None)
@given(st.binary(min_size=24, max_size=700), st.integers(min_value=0),
       st.sampled_from([chr(c) for c in range(0x20, 0x7F)]))
def test_c_base64_long_fields_with_one_character_changed(blob, where, ch):
    """Fields long enough for the vectorized decoder (32 characters per
    step): one character replaced anywhere, accepted exactly when strict
    Python accepts it, with the same bytes."""
    s = b64(blob)
    i = where % len(s)
    s = s[:i] + ch + s[i + 1:]
    got = pack(b"k", [s])
    try:
        ref = binascii.a2b_base64(s, strict_mode=True)
    except (binascii.Error, ValueError):
        ref = None
    if ch in '"\\':
        assert got is None                 # escaped in JSON: refused
    else:
        assert (got[0] if got is not None else None) == ref, (s, i, ch)


# Bodies built from pieces of valid and invalid JSON: whenever the C reader
# accepts one, Python's json module reads the same items from it.
_PIECES = ['{', '}', '[', ']', ',', ':', ' ', '\n', '"items"', '"format"',
           '"key_id"', '"message"', '"signature"', '"other"', '"ct"',
           f'"{KEY_ID}"', '"aGk="', '"AA=="', '"a\\u0041"', '1', 'null',
           '"\u00e9"']
_ITEM = ('{"key_id": "%s", "message": "aGk=", "signature": "AA=="}'
         % KEY_ID)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_PIECES + [_ITEM]), max_size=30),
       st.sampled_from([OP_SIGN, OP_VERIFY]))
def test_c_reader_agrees_with_json(pieces, op):
    body = "".join(pieces).encode()
    got = PackedItems.from_json(op, body, {KEY_ID: b"KEY"}.get, 8)
    if got is None:
        return
    obj = json.loads(body)
    assert set(obj) <= {"items", "format"}
    items, fmt = got
    assert fmt == obj.get("format")
    fields = ("key_id", "message", "signature")[:PackedItems.width(op)]
    assert len(obj["items"]) == items.n
    want = b"".join(b"KEY" if f == "key_id" else base64.b64decode(it[f])
                    for it in obj["items"] for f in fields)
    assert bytes(items.data) == want
    assert all(set(it) == set(fields) for it in obj["items"])


def test_c_reader_refuses_what_it_does_not_handle():
    item = {"key_id": KEY_ID, "message": "aGk=", "signature": "AA=="}
    ok = {"items": [item, item], "format": "ct"}
    lookup = {KEY_ID: b"K"}.get
    got = PackedItems.from_json(OP_VERIFY, json.dumps(ok).encode(), lookup,
                                8)
    assert got is not None and got[0].n == 2 and got[1] == "ct"
    for bad in (
            {"items": [item], "extra": 1},                  # unknown field
            {"items": [dict(item, public_key="AA==")]},     # inline key
            {"items": [dict(item, key_id="f" * 32)]},       # unknown key
            {"items": [dict(item, message="a\\u0041==")]},  # escape
            {"items": [dict(item, message="a===")]},        # bad base64
            {"items": []}, {"items": [item] * 9},           # count
            {"items": [item], "format": None}):
        body = json.dumps(bad).encode()
        assert PackedItems.from_json(OP_VERIFY, body, lookup, 8) is None, bad
    assert PackedItems.from_json(OP_VERIFY, b'{"items": [' +
                                 json.dumps(item).encode() + b']} x',
                                 lookup, 8) is None


# --- transport: TLS, connection limit, graceful shutdown ------------------

import os  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import ssl  # noqa: E402
import subprocess  # noqa: E402
import signal  # noqa: E402
import time  # noqa: E402


def test_tls(tmp_path):
    if shutil.which("openssl") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("openssl missing under CI")
        pytest.skip("openssl not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=IP:127.0.0.1", "-keyout", str(key),
                    "-out", str(cert)], check=True, capture_output=True)
    with RunningServer(tmp_path / "k", TOKEN, threads=1, tls_cert=str(cert),
                       tls_key=str(key)) as srv:
        assert srv.url.startswith("https://")
        ctx = ssl.create_default_context(cafile=str(cert))
        conn = http.client.HTTPSConnection("127.0.0.1", srv.port,
                                           context=ctx, timeout=30)
        conn.request("GET", "/health")
        r = conn.getresponse()
        assert r.status == 200 and json.loads(r.read())["status"] == "ok"
        # Plain HTTP on the TLS port gets no answer.
        with pytest.raises((http.client.HTTPException, ConnectionError,
                            socket.timeout, OSError)):
            plain = http.client.HTTPConnection("127.0.0.1", srv.port,
                                               timeout=10)
            plain.request("GET", "/health")
            assert plain.getresponse().status != 200
    from falcon_accel.server import main
    with pytest.raises(SystemExit):
        main(["--tls-cert", str(cert), "--port", "0"])   # key missing


def test_connection_limit(tmp_path):
    with RunningServer(tmp_path / "k", TOKEN, threads=1,
                       max_connections=2) as srv:
        held = [Client(srv.port) for _ in range(2)]
        for c in held:
            assert c.call("GET", "/health")[0] == 200
        # Two keep-alive connections are open: a third is refused with
        # the service's JSON error, and closed.
        for method, path, body in (("GET", "/health", b""),
                                   ("POST", "/v1/verify/batch", b"{}")):
            c = Client(srv.port)
            st, r, data = c.raw(method, path, body)
            assert st == 503, data
            assert r.getheader("Content-Type") == "application/json"
            assert r.getheader("Connection") == "close"
            err = json.loads(data)
            conforms(DOC, {"$ref": "#/components/schemas/Error"}, err)
            assert err["error"]["code"] == "too_many_connections"
            assert "2 open connections" in err["error"]["message"]
        # The held connections are still served.
        for c in held:
            assert c.call("GET", "/health")[0] == 200
        held[0].conn.close()
        for _ in range(200):
            st, _ = Client(srv.port).call("GET", "/health")
            if st == 200:
                break
            time.sleep(0.05)
        assert st == 200


def _metric(text: str, name: str) -> float:
    m = re.search(rf"^{name} ([0-9.e+-]+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


def test_sigterm_finishes_in_flight_requests(tmp_path):
    """SIGTERM while a request is in flight (its body half sent): the
    request completes, then the server exits 0 and stops listening."""
    (tmp_path / "token").write_text(TOKEN)
    port_file = tmp_path / "port"
    proc = subprocess.Popen(
        [sys.executable, "-m", "falcon_accel.server", "--port", "0",
         "--key-dir", str(tmp_path / "k"), "--token-file",
         str(tmp_path / "token"), "--threads", "1", "--port-file",
         str(port_file)], stderr=subprocess.PIPE)
    try:
        for _ in range(600):
            if port_file.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        port = int(port_file.read_text())
        c = Client(port, TOKEN)
        st, key = c.call("POST", "/v1/keys", {"logn": 9})
        assert st == 201
        body = json.dumps({"items": [{"key_id": key["key_id"],
                                      "message": b64(b"m%d" % i)}
                                     for i in range(8)]}).encode()
        s = socket.create_connection(("127.0.0.1", port), timeout=60)
        s.sendall(b"POST /v1/sign/batch HTTP/1.1\r\nHost: x\r\n"
                  b"Content-Type: application/json\r\n"
                  b"Authorization: Bearer " + TOKEN.encode() + b"\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body) + body[:10])
        # Wait until the server handles it (the /metrics request itself
        # is the other one in flight).
        for _ in range(600):
            st, text = Client(port).call("GET", "/metrics")
            if _metric(text.decode(),
                       "falcon_http_requests_in_flight") >= 2:
                break
            time.sleep(0.05)
        else:
            pytest.fail("request never reached the handler")
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        s.sendall(body[10:])
        resp = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            resp += chunk
        head, _, out = resp.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        sigs = json.loads(out)["signatures"]
        pk = base64.b64decode(key["public_key"])
        assert fa.verify_batch([(pk, b"m%d" % i, base64.b64decode(g))
                                for i, g in enumerate(sigs)]) == [True] * 8
        assert proc.wait(60) == 0
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_library_errors_of_stored_keys_are_5xx(tmp_path):
    """A stored private key the library refuses (FA_ERR_KEY) and signing
    that gave up (FA_ERR_SIGN_ATTEMPTS) are the service's fault: 500 with
    a code naming it; the service keeps serving."""
    from falcon_accel.server import _fa_error
    for code, name in ((-14, "bad_key_file"), (-17, "signing_gave_up")):
        e = _fa_error(fa.FalconError(code))
        assert (e.status, e.code, e.fa_code) == (500, name, code)
    with RunningServer(tmp_path / "k", TOKEN, threads=1) as srv:
        st, key = Client(srv.port, TOKEN).call("POST", "/v1/keys",
                                               {"logn": 9})
        assert st == 201
    # Another key's private key in place of this one's.
    other = fa.keygen(9, seed=b"other key")
    (tmp_path / "k" / f"{key['key_id']}.key").write_bytes(other.secret_key)
    with RunningServer(tmp_path / "k", TOKEN, threads=1) as srv:
        c = Client(srv.port, TOKEN)
        st, out = c.call("POST", f"/v1/keys/{key['key_id']}/sign",
                         {"message": b64(b"m")})
        assert st == 500 and out["error"]["code"] == "bad_key_file", out
        st, out = c.call("POST", "/v1/sign/batch", {"items": [
            {"key_id": key["key_id"], "message": b64(b"m")}]})
        assert st == 500 and out["error"]["code"] == "bad_key_file", out
        assert c.call("GET", "/health")[0] == 200


# --- the batch front: bodies of the usual form in C -----------------------

import asyncio  # noqa: E402

from falcon_accel.broker import BatchFront, Broker  # noqa: E402


def _front_run(front, broker, op, obj):
    """The front's answer to a body (None: left to the caller)."""
    body = json.dumps(obj).encode()

    async def run():
        return await broker.run_json_batch(front, op, body, 30.0)
    return asyncio.run(run())


def test_batch_front_answers_or_leaves_to_the_strict_fallback():
    """What the C front answers is exactly what the service's strict
    Python fallback answers; what it does not handle it leaves (None),
    submitting nothing."""
    ka, kb = fa.keygen(9, seed=b"front a"), fa.keygen(9, seed=b"front b")
    ida, idb = "a" * 32, "b" * 32
    front = BatchFront(16)
    front.add_key(ida, ka.public_key, ka.secret_key)
    front.add_key(idb, kb.public_key)        # no private key
    assert len(front) == 2 and ida in front and "c" * 32 not in front
    with Broker(threads=2) as broker:
        msgs = [b"front %d" % i for i in range(6)]
        out = _front_run(front, broker, OP_SIGN, {"items": [
            {"key_id": ida, "message": b64(m)} for m in msgs]})
        assert out.startswith(b'{"format":"compressed","signatures":["')
        sigs = [base64.b64decode(s) for s in json.loads(out)["signatures"]]
        assert fa.verify_batch([(ka.public_key, m, s)
                                for m, s in zip(msgs, sigs)]) == [True] * 6
        sig_b = fa.sign(kb.secret_key, b"b")
        # Keys alternating in runs (A A B A B B), one wrong key, one
        # wrong message.
        items = [(ida, msgs[0], sigs[0]), (ida, msgs[1], sigs[1]),
                 (idb, b"b", sig_b), (ida, msgs[2], sigs[2]),
                 (idb, b"b", sig_b), (idb, msgs[3], sigs[3]),
                 (ida, b"other", sigs[4])]
        body = {"format": "any", "items": [
            {"key_id": k, "message": b64(m), "signature": b64(s)}
            for k, m, s in items]}
        out = _front_run(front, broker, OP_VERIFY, body)
        want = [True, True, True, True, True, False, False]
        assert out == json.dumps({"results": want, "valid": 5},
                                 separators=(",", ":")).encode()
        before = broker.metrics()["jobs_submitted"]
        left = [
            dict(body, format="Any"),                  # not spelled exactly
            dict(body, extra=1),
            {"items": [dict(body["items"][0], key_id="c" * 32)]},
            {"items": [dict(body["items"][0], signature=b64(bytes(41)))]},
            {"items": [dict(body["items"][0],
                            signature=b64(bytes(fa.signature_max_size(9)
                                                + 1)))]},
            {"items": [dict(body["items"][0], message="a===")]},
            {"items": body["items"] * 3},              # over 16 items
        ]
        for obj in left:
            assert _front_run(front, broker, OP_VERIFY, obj) is None, obj
        # Signing with a key whose private key the front lacks.
        assert _front_run(front, broker, OP_SIGN, {"items": [
            {"key_id": idb, "message": "aGk="}]}) is None
        assert _front_run(front, broker, OP_SIGN, {"format": "any", "items": [
            {"key_id": ida, "message": "aGk="}]}) is None
        assert broker.metrics()["jobs_submitted"] == before
    with pytest.raises(fa.FalconError):
        front.add_key("d" * 32, ka.secret_key)     # not a public key


def test_batch_answers_equal_between_front_and_strict_fallback(server, key):
    """The same batch through the front ("format": "any") and through the
    strict Python fallback ("format": "Any", which only it accepts): the
    same bytes."""
    c = Client(server.port, TOKEN)
    msgs = [b"same %d" % i for i in range(5)]
    st, out = c.call("POST", "/v1/sign/batch", {"format": "Padded", "items": [
        {"key_id": key["key_id"], "message": b64(m)} for m in msgs]})
    assert st == 200 and out["format"] == "padded"
    items = [{"key_id": key["key_id"], "message": b64(m), "signature": s}
             for m, s in zip(msgs, out["signatures"])]
    items[3]["message"] = b64(b"changed")
    answers = []
    for fmt in ("any", "Any"):
        st, r, data = Client(server.port).raw(
            "POST", "/v1/verify/batch",
            json.dumps({"format": fmt, "items": items}).encode())
        assert st == 200 and r.getheader("Content-Type") == \
            "application/json"
        answers.append(data)
    assert answers[0] == answers[1]
    assert json.loads(answers[0]) == {
        "results": [True, True, True, False, True], "valid": 4}


def test_batch_front_deadline():
    """Through the front, a deadline passed in the queue raises
    DeadlineError as the tuple paths do (the service answers 504)."""
    k = fa.keygen(9, seed=b"front errors")
    front = BatchFront(64)
    front.add_key("a" * 32, k.public_key, k.secret_key)

    def body(n):
        return json.dumps({"items": [{"key_id": "a" * 32,
                                      "message": b64(b"m%d" % i)}
                                     for i in range(n)]}).encode()

    async def run():
        with Broker(threads=1) as b:
            first = asyncio.ensure_future(
                b.run_json_batch(front, OP_SIGN, body(60), 60.0))
            # The only worker is signing the first job's 60 items.
            for _ in range(2000):
                await asyncio.sleep(0.005)
                if b.metrics()["in_flight"] > 0:
                    break
            with pytest.raises(fa.DeadlineError):
                await b.run_json_batch(front, OP_SIGN, body(1), 1e-6)
            assert len(json.loads(await first)["signatures"]) == 60
    asyncio.run(run())
