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
from falcon_accel.server import RunningServer, openapi_path

TOKEN = "test-token-0123456789abcdef"


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


def test_health_openapi_and_routes(server):
    c = Client(server.port)
    st, out = c.call("GET", "/health")
    assert st == 200 and out["status"] == "ok" and out["threads"] == 2
    st, doc = c.call("GET", "/openapi.json")
    assert st == 200
    assert doc == json.loads(openapi_path().read_text())
    # Every route of the server is documented, and nothing else.
    documented = {(m.upper(), p) for p, ops in doc["paths"].items()
                  for m in ops}
    served = {(m, "/" + "/".join("{key_id}" if a == "*" else a for a in pat))
              for m, pat, _ in server.service.routes}
    assert documented == served


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
]


@pytest.mark.parametrize("method,path,body,status,code", BAD_REQUESTS)
def test_bad_requests_get_4xx_and_service_survives(server, method, path,
                                                   body, status, code):
    c = Client(server.port)
    st, r, data = c.raw(method, path, body)
    assert st == status, data
    err = json.loads(data)["error"]
    assert err["code"] == code and err["message"]
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


# --- the C base64 packing helper behind the batch fast path -------------

from hypothesis import given, settings, strategies as st  # noqa: E402
import array  # noqa: E402
import binascii  # noqa: E402

from falcon_accel._ffi import ffi, lib  # noqa: E402
from falcon_accel.broker import SIZE_T  # noqa: E402


def pack(key: bytes, fields):
    """Run fa_py_pack_b64_items for one item per field string."""
    n = len(fields)
    blob = "".join(fields).encode("ascii")
    out = bytearray(len(key) * n + len(blob) // 4 * 3 + 1)
    lens = array.array(SIZE_T, bytes(ffi.sizeof("size_t") * 2 * n))
    r = lib.fa_py_pack_b64_items(
        key, ffi.new("size_t[]", [len(key)]), 1,
        ffi.new("uint32_t[]", [0] * n), blob, len(blob),
        ffi.new("size_t[]", [len(f) for f in fields]), 1, n,
        ffi.from_buffer(out), len(out), ffi.from_buffer("size_t[]", lens))
    if r < 0:
        return None
    res, pos = [], 0
    for i in range(n):
        assert bytes(out[pos:pos + lens[2 * i]]) == key
        pos += lens[2 * i]
        res.append(bytes(out[pos:pos + lens[2 * i + 1]]))
        pos += lens[2 * i + 1]
    assert pos == r
    return res


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=70), min_size=1, max_size=6))
def test_c_base64_decodes_what_python_encodes(blobs):
    assert pack(b"K" * 5, [b64(b) for b in blobs]) == blobs


@pytest.mark.skipif(sys.version_info < (3, 11), reason="strict_mode")
@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="AQgw+/=9a \n-_", max_size=12))
def test_c_base64_accepts_only_what_strict_python_accepts(s):
    got = pack(b"", [s])
    try:
        ref = binascii.a2b_base64(s, strict_mode=True)
    except (binascii.Error, ValueError):
        ref = None
    if got is not None:
        assert ref is not None and got[0] == ref, (s, got, ref)
