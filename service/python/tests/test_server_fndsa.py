"""FN-DSA keys in the HTTP service: a scheme per key (created, imported,
stored, listed), context and pre-hash on sign and verify for fn-dsa keys
(400 naming the field for falcon keys), batches mixing both schemes, and
the service surviving bad input."""
import base64
import hashlib
import json
import signal
import subprocess
import sys
import time

import pytest

import falcon_accel as fa
from falcon_accel.keystore import KeyStore
from falcon_accel.server import RunningServer
from test_server import DOC, TOKEN, Client, b64, conforms

FN = "fn-dsa"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("svc-fndsa")
    with RunningServer(d / "keys", TOKEN, threads=2, max_items=100) as srv:
        yield srv


@pytest.fixture(scope="module")
def keys(server):
    c = Client(server.port, TOKEN)
    out = {}
    for name, body in (("fn", {"logn": 9, "scheme": FN}),
                       ("r3", {"logn": 9}),
                       ("fn10", {"scheme": FN, "logn": 10})):
        st, k = c.call("POST", "/v1/keys", body)
        assert st == 201, k
        conforms(DOC, {"$ref": "#/components/schemas/PublicKey"}, k)
        k["pk"] = base64.b64decode(k["public_key"])
        out[name] = k
    return out


def error(st, out, status, text):
    assert st == status, out
    conforms(DOC, {"$ref": "#/components/schemas/Error"}, out)
    assert text in out["error"]["message"], out


def test_keys_have_a_scheme(server, keys):
    fn, r3 = keys["fn"], keys["r3"]
    assert fn["scheme"] == FN and len(fn["pk"]) == 897
    assert r3["scheme"] == "falcon" and keys["fn10"]["logn"] == 10
    kdir = server.service.keys.dir
    assert (kdir / f"{fn['key_id']}.scheme").read_text() == "fn-dsa\n"
    assert (kdir / f"{r3['key_id']}.scheme").read_text() == "falcon\n"
    sk = (kdir / f"{fn['key_id']}.key").read_bytes()
    assert len(sk) == 1345 and fa.public_key(sk, scheme=FN) == fn["pk"]
    for k in (fn, r3):
        st, out = Client(server.port).call("GET", f"/v1/keys/{k['key_id']}")
        assert st == 200 and out["scheme"] == k["scheme"]
        assert out["public_key"] == k["public_key"]
    # Only round-3 keys go to the C batch front.
    assert r3["key_id"] in server.service.front
    assert fn["key_id"] not in server.service.front
    c = Client(server.port, TOKEN)
    error(*c.call("POST", "/v1/keys", {"scheme": FN, "logn": 1}), 400,
          "logn: integer in 2..10 for fn-dsa")
    error(*c.call("POST", "/v1/keys", {"scheme": "FN-DSA"}), 400,
          "scheme: 'FN-DSA' is not one of falcon, fn-dsa")
    error(*c.call("POST", "/v1/keys", {"scheme": None}), 400, "scheme:")


def test_sign_and_verify_with_context_and_prehash(server, keys):
    fn = keys["fn"]
    c, v = Client(server.port, TOKEN), Client(server.port)
    path = f"/v1/keys/{fn['key_id']}/sign"
    st, out = c.call("POST", path, {"message": b64(b"hello"),
                                    "context": b64(b"app")})
    assert st == 200 and out["format"] == "padded", out
    conforms(DOC, {"$ref": "#/components/schemas/SignResponse"}, out)
    sig = base64.b64decode(out["signature"])
    assert len(sig) == 666
    assert fa.verify(fn["pk"], b"hello", sig, scheme=FN, context=b"app")
    for body, valid in (
            ({"key_id": fn["key_id"], "context": b64(b"app")}, True),
            ({"key_id": fn["key_id"], "context": b64(b"apq")}, False),
            ({"key_id": fn["key_id"]}, False),
            ({"public_key": fn["public_key"], "scheme": FN,
              "context": b64(b"app")}, True),
            ({"key_id": fn["key_id"], "scheme": FN, "format": "padded",
              "context": b64(b"app")}, True)):
        body.update(message=b64(b"hello"), signature=b64(sig))
        st, out = v.call("POST", "/v1/verify", body)
        assert st == 200 and out["valid"] is valid, (body, out)
        conforms(DOC, {"$ref": "#/components/schemas/VerifyResponse"}, out)
        if not valid:
            assert out["reason"] == "badsig"
    # Pre-hash: the message field is the hash.
    for ph in ("sha256", "sha512"):
        h = hashlib.new(ph, b"big document").digest()
        st, out = c.call("POST", path, {"message": b64(h), "prehash": ph,
                                        "format": "padded"})
        assert st == 200, out
        sig = base64.b64decode(out["signature"])
        assert fa.verify(fn["pk"], b"big document", sig, scheme=FN,
                         prehash=ph)
        st, out = v.call("POST", "/v1/verify", {
            "key_id": fn["key_id"], "message": b64(h), "prehash": ph,
            "signature": b64(sig)})
        assert st == 200 and out == {"valid": True}
    # A round-3 signature given to an fn-dsa key.
    sig3 = fa.sign(fa.keygen(9, seed=b"x").secret_key, b"hello", "padded")
    st, out = v.call("POST", "/v1/verify", {
        "key_id": fn["key_id"], "message": b64(b"hello"),
        "signature": b64(sig3)})
    assert st == 200 and out == {"valid": False, "reason": "scheme"}


def test_fields_a_scheme_does_not_take_are_400(server, keys):
    fn, r3 = keys["fn"], keys["r3"]
    c, v = Client(server.port, TOKEN), Client(server.port)
    sig = fa.sign(fa.keygen(9, seed=b"y").secret_key, b"m")
    st, out = c.call("POST", f"/v1/keys/{fn['key_id']}/sign",
                     {"message": b64(b"m")})
    fsig = out["signature"]
    cases = [
        # (client, path, body, text naming the culprit)
        (c, f"/v1/keys/{r3['key_id']}/sign",
         {"message": b64(b"m"), "context": b64(b"c")}, "context: only for "
         "fn-dsa keys"),
        (c, f"/v1/keys/{r3['key_id']}/sign",
         {"message": b64(bytes(32)), "prehash": "sha256"},
         "prehash: only for fn-dsa keys"),
        (c, f"/v1/keys/{fn['key_id']}/sign",
         {"message": b64(b"m"), "format": "compressed"},
         "format: compressed: fn-dsa keys have one signature format"),
        (c, f"/v1/keys/{fn['key_id']}/sign",
         {"message": b64(b"m"), "context": b64(bytes(256))},
         "context: 256 bytes, more than 255"),
        (c, f"/v1/keys/{fn['key_id']}/sign",
         {"message": b64(b"m"), "context": "not base64"},
         "context: invalid base64"),
        (c, f"/v1/keys/{fn['key_id']}/sign",
         {"message": b64(bytes(31)), "prehash": "sha256"},
         "message: 31 bytes, not a sha256 hash"),
        (c, f"/v1/keys/{fn['key_id']}/sign",
         {"message": b64(bytes(32)), "prehash": "md5"},
         "prehash: 'md5' is not one of"),
        (c, "/v1/sign/batch", {"items": [
            {"key_id": fn["key_id"], "message": b64(b"m")},
            {"key_id": r3["key_id"], "message": b64(b"m"),
             "context": b64(b"c")}]}, "items[1].context: only for fn-dsa"),
        (c, "/v1/sign/batch", {"format": "ct", "items": [
            {"key_id": r3["key_id"], "message": b64(b"m")},
            {"key_id": fn["key_id"], "message": b64(b"m")}]},
         "format: ct: fn-dsa keys have one signature format"),
        (v, "/v1/verify", {"key_id": r3["key_id"], "message": b64(b"m"),
                           "signature": b64(sig), "context": b64(b"c")},
         "context: only for fn-dsa keys"),
        (v, "/v1/verify", {"key_id": fn["key_id"], "message": b64(b"m"),
                           "signature": fsig, "scheme": "falcon"},
         f"scheme: 'falcon', but key {fn['key_id']} is fn-dsa"),
        (v, "/v1/verify", {"key_id": fn["key_id"], "message": b64(b"m"),
                           "signature": fsig, "scheme": "fndsa"},
         "scheme: 'fndsa' is not one of"),
        (v, "/v1/verify", {"key_id": fn["key_id"], "message": b64(b"m"),
                           "signature": fsig, "format": "ct"},
         "format: ct: fn-dsa keys"),
        (v, "/v1/verify", {"key_id": fn["key_id"], "message": b64(b"m"),
                           "signature": b64(sig)},
         "signature: 6"),  # a compressed round-3 size, not 666
        (v, "/v1/verify", {"public_key": b64(b"\x01" + fn["pk"][1:]),
                           "scheme": FN, "message": b64(b"m"),
                           "signature": fsig},
         "public_key: not an encoded FN-DSA public key"),
        (v, "/v1/verify/batch", {"items": [
            {"key_id": r3["key_id"], "message": b64(b"m"),
             "signature": b64(sig)},
            {"public_key": b64(fn["pk"]), "scheme": FN,
             "message": b64(b"m"), "signature": fsig,
             "prehash": "sha512"}]},
         "items[1].message: 1 bytes, not a sha512 hash"),
    ]
    for client, path, body, text in cases:
        st, out = client.call("POST", path, body)
        if text == "signature: 6":
            assert st == 400 and "FN-DSA signatures of degree 512 are 666" \
                in out["error"]["message"], out
            continue
        error(st, out, 400, text)
    assert v.call("GET", "/health")[0] == 200


def test_batches_mixing_schemes(server, keys):
    fn, r3, fn10 = keys["fn"], keys["r3"], keys["fn10"]
    c = Client(server.port, TOKEN)
    items = []
    for i in range(12):
        k = (fn, r3, fn10)[i % 3]
        it = {"key_id": k["key_id"], "message": b64(b"batch %d" % i)}
        if k["scheme"] == FN and i % 2:
            it["context"] = b64(b"ctx %d" % i)
        items.append(it)
    st, out = c.call("POST", "/v1/sign/batch", {"items": items})
    assert st == 200 and out["format"] == "padded", out
    conforms(DOC, {"$ref": "#/components/schemas/SignBatchResponse"}, out)
    sigs = [base64.b64decode(s) for s in out["signatures"]]
    for i, (it, s) in enumerate(zip(items, sigs)):
        k = (fn, r3, fn10)[i % 3]
        ctx = base64.b64decode(it["context"]) if "context" in it else None
        if k["scheme"] == FN:
            assert fa.verify(k["pk"], b"batch %d" % i, s, scheme=FN,
                             context=ctx), i
        else:
            assert len(s) == 666 and fa.verify(k["pk"], b"batch %d" % i, s,
                                               "padded")
    vitems = [dict(it, signature=b64(s)) for it, s in zip(items, sigs)]
    vitems[4]["message"] = b64(b"changed")            # an fn-dsa item
    vitems[5]["message"] = b64(b"changed")            # a falcon item
    vitems[7] = {"public_key": fn["public_key"], "scheme": FN,
                 "message": b64(b"batch 6"), "signature": b64(sigs[6])}
    vitems[9] = {"key_id": fn["key_id"], "message": b64(b"batch 9"),
                 "signature": b64(sigs[9]), "context": b64(b"ctx 9")}
    st, out = Client(server.port).call("POST", "/v1/verify/batch",
                                       {"items": vitems})
    assert st == 200, out
    conforms(DOC, {"$ref": "#/components/schemas/VerifyBatchResponse"}, out)
    assert out["results"] == [i not in (4, 5) for i in range(12)]
    # A falcon-only batch keeps its default format, through the C front.
    st, out = c.call("POST", "/v1/sign/batch", {"items": [
        {"key_id": r3["key_id"], "message": b64(b"m")}]})
    assert st == 200 and out["format"] == "compressed"


def test_imported_and_reloaded_keys_keep_their_scheme(tmp_path):
    store = KeyStore(tmp_path / "k")
    fk = fa.keygen(9, seed=bytes(32), scheme=FN)
    rec = store.add(fk.secret_key, FN)
    assert rec.scheme == FN and rec.public_key == fk.public_key
    r3 = store.add(fa.keygen(8, seed=b"imported").secret_key)
    assert r3.scheme == "falcon" and r3.logn == 8
    with pytest.raises(fa.FalconError):
        store.add(fa.keygen(9, seed=b"r3").secret_key, FN)
    # A directory written before FN-DSA: no .scheme file means falcon.
    (tmp_path / "k" / f"{r3.key_id}.scheme").unlink()
    with RunningServer(tmp_path / "k", TOKEN, threads=1) as srv:
        c = Client(srv.port, TOKEN)
        for r in (rec, r3):
            st, out = c.call("GET", f"/v1/keys/{r.key_id}")
            assert st == 200 and out["scheme"] == r.scheme
        st, out = c.call("POST", f"/v1/keys/{rec.key_id}/sign",
                         {"message": b64(b"m"), "context": b64(b"c")})
        assert st == 200
        assert fa.verify(fk.public_key, b"m",
                         base64.b64decode(out["signature"]), scheme=FN,
                         context=b"c")
    # A .scheme file that does not match the key: the service's fault.
    (tmp_path / "k" / f"{r3.key_id}.scheme").write_text("fn-dsa\n")
    (tmp_path / "k" / f"{rec.key_id}.scheme").write_text("ml-dsa\n")
    with RunningServer(tmp_path / "k", TOKEN, threads=1) as srv:
        c = Client(srv.port, TOKEN)
        for r in (r3, rec):
            st, out = c.call("POST", f"/v1/keys/{r.key_id}/sign",
                             {"message": b64(b"m")})
            assert st == 500 and out["error"]["code"] == "bad_key_file", out
        assert c.call("GET", "/health")[0] == 200


def test_server_main_loads_fndsa_keys(tmp_path):
    """python -m falcon_accel.server with an fn-dsa key in its directory:
    it starts (round-3 keys alone are preloaded into the C broker) and
    signs with it."""
    rec = KeyStore(tmp_path / "k").create(9, FN)
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
        assert proc.poll() is None, proc.stderr.read().decode()
        c = Client(int(port_file.read_text()), TOKEN)
        st, out = c.call("POST", "/v1/sign/batch", {"items": [
            {"key_id": rec.key_id, "message": b64(b"m"),
             "prehash": "sha256"}]})
        assert st == 400 and "message: 1 bytes" in out["error"]["message"]
        h = hashlib.sha256(b"m").digest()
        st, out = c.call("POST", "/v1/sign/batch", {"items": [
            {"key_id": rec.key_id, "message": b64(h), "prehash": "sha256"}]})
        assert st == 200, out
        assert fa.verify(rec.public_key, b"m",
                         base64.b64decode(out["signatures"][0]), scheme=FN,
                         prehash="sha256")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_openapi_documents_the_scheme_fields():
    s = DOC["components"]["schemas"]
    assert s["CreateKeyRequest"]["properties"]["scheme"]["enum"] == \
        ["falcon", "fn-dsa"]
    assert "scheme" in s["PublicKey"]["required"]
    for model in (s["SignRequest"], s["VerifyItem"],
                  s["SignBatchRequest"]["properties"]["items"]["items"]):
        assert model["properties"]["context"]["format"] == "byte"
        assert set(model["properties"]["prehash"]["enum"]) == \
            set(fa.PREHASHES)
    assert json.dumps(DOC)   # (loaded by test_server from openapi.json)


def test_keys_are_listed_with_their_scheme(server, keys):
    st, out = Client(server.port).call("GET", "/v1/keys")
    assert st == 401
    st, out = Client(server.port, TOKEN).call("GET", "/v1/keys")
    assert st == 200, out
    conforms(DOC, {"$ref": "#/components/schemas/KeyList"}, out)
    listed = {k["key_id"]: k for k in out["keys"]}
    assert [k["key_id"] for k in out["keys"]] == sorted(listed)
    for k in keys.values():
        assert listed[k["key_id"]]["scheme"] == k["scheme"]
        assert listed[k["key_id"]]["public_key"] == k["public_key"]
