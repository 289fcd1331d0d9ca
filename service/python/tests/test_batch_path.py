"""The service's batch path: one parser of a batch body (C, BatchFront),
the strict Python fallback for the bodies it leaves (each with its
reason), one key registry shared by the key store and the parser, one
bound on the key ids of a request (FA_PY_BATCH_MAX_KEYS, read from
fa_py.h) enforced at the bound and one past it."""
import asyncio
import base64
import json
import re
from pathlib import Path

import pytest

import falcon_accel as fa
from falcon_accel import _cdef
from falcon_accel.broker import (BATCH_MAX_KEYS, FALLBACK_REASONS, OP_SIGN,
                                 OP_VERIFY, BatchFront, Broker, PackedItems)
from falcon_accel.keystore import KeyRegistry, KeyStore
from falcon_accel.server import RunningServer

TOKEN = "test-token-0123456789abcdef"


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def run(front, broker, op, obj):
    """The parser's answer (None: left to the fallback)."""
    body = json.dumps(obj).encode()

    async def go():
        return await broker.run_json_batch(front, op, body, 30.0)
    return asyncio.run(go())


# Small keys (degree 4): 65 of them are made in a moment.
KEYS = [fa.keygen(2, seed=b"batch path %d" % i)
        for i in range(BATCH_MAX_KEYS + 1)]
IDS = ["%032x" % (i + 1) for i in range(BATCH_MAX_KEYS + 1)]


def test_the_bound_is_defined_once_in_the_header():
    """BATCH_MAX_KEYS is fa_py.h's FA_PY_BATCH_MAX_KEYS (the C front's
    scratch is sized by it), and no other key bound is left in the
    package or its C sources."""
    text = _cdef.find_header("fa_py.h").read_text()
    m = re.search(r"#define FA_PY_BATCH_MAX_KEYS (\d+)", text)
    assert m and int(m.group(1)) == BATCH_MAX_KEYS == 64
    pkg = Path(fa.__file__).resolve().parent
    src = pkg.parent / "src"
    for p in list(pkg.glob("*.py")) + list(src.glob("*.c")):
        t = p.read_text()
        assert "MAX_KEYS_FAST" not in t and "FRONT_MAX_KEYS" not in t, p
    assert set(FALLBACK_REASONS.values()) == {
        "form", "items", "keys", "base64", "format", "key", "size"}


@pytest.mark.parametrize("op", [OP_SIGN, OP_VERIFY])
def test_key_bound_at_and_past_the_limit(op):
    """A body naming BATCH_MAX_KEYS distinct key ids is answered by the
    C parser; one more key id leaves it to the fallback (reason "keys")
    with nothing submitted, for BatchFront and PackedItems.from_json
    alike."""
    front = BatchFront(BATCH_MAX_KEYS + 1)
    for kid, k in zip(IDS, KEYS):
        front.add_key(kid, k.public_key, k.secret_key)
    sigs = [fa.sign(k.secret_key, b"m %d" % i, "padded")
            for i, k in enumerate(KEYS)]

    def body(n):
        if op == OP_SIGN:
            return {"format": "padded", "items": [
                {"key_id": IDS[i], "message": b64(b"m %d" % i)}
                for i in range(n)]}
        return {"items": [{"key_id": IDS[i], "message": b64(b"m %d" % i),
                           "signature": b64(sigs[i])} for i in range(n)]}

    with Broker(threads=2) as broker:
        out = run(front, broker, op, body(BATCH_MAX_KEYS))
        assert out is not None and front.last_fallback is None
        got = json.loads(out)
        if op == OP_SIGN:
            assert len(got["signatures"]) == BATCH_MAX_KEYS
            assert all(fa.verify(KEYS[i].public_key, b"m %d" % i,
                                 base64.b64decode(s))
                       for i, s in enumerate(got["signatures"]))
        else:
            assert got == {"results": [True] * BATCH_MAX_KEYS,
                           "valid": BATCH_MAX_KEYS}
        before = broker.metrics()["jobs_submitted"]
        assert run(front, broker, op, body(BATCH_MAX_KEYS + 1)) is None
        assert front.last_fallback == "keys"
        assert broker.metrics()["jobs_submitted"] == before
    lookup = dict(zip(IDS, (k.public_key for k in KEYS))).get
    for n, ok in ((BATCH_MAX_KEYS, True), (BATCH_MAX_KEYS + 1, False)):
        got = PackedItems.from_json(op, json.dumps(body(n)).encode(), lookup,
                                    BATCH_MAX_KEYS + 1)
        assert (got is not None) == ok, n
        if ok:
            assert got[0].n == n
            assert list(got[0].field_lengths(0)) == \
                [len(k.public_key) for k in KEYS[:n]]


def test_key_bound_through_the_service(tmp_path):
    """Over HTTP both sides of the bound are answered, the same way:
    past it by the strict Python fallback."""
    with RunningServer(tmp_path / "keys", TOKEN, threads=2) as srv:
        store = srv.service.keys
        recs = [store.add(k.secret_key) for k in KEYS]
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=60)
        hdr = {"Content-Type": "application/json",
               "Authorization": f"Bearer {TOKEN}"}
        for n in (BATCH_MAX_KEYS, BATCH_MAX_KEYS + 1):
            items = [{"key_id": r.key_id, "message": b64(b"s%d" % i)}
                     for i, r in enumerate(recs[:n])]
            conn.request("POST", "/v1/sign/batch",
                         json.dumps({"items": items}), hdr)
            r = conn.getresponse()
            out = json.loads(r.read())
            assert r.status == 200, out
            assert srv.service.front.last_fallback == \
                (None if n == BATCH_MAX_KEYS else "keys")
            vitems = [dict(it, signature=s)
                      for it, s in zip(items, out["signatures"])]
            vitems[-1]["message"] = b64(b"changed")
            conn.request("POST", "/v1/verify/batch",
                         json.dumps({"items": vitems}), hdr)
            r = conn.getresponse()
            assert r.status == 200
            assert json.loads(r.read()) == {
                "results": [True] * (n - 1) + [False], "valid": n - 1}
        conn.close()


def test_fallback_reasons():
    """Each body the parser leaves, with the reason it gives; nothing is
    submitted for any of them."""
    k = KEYS[0]
    fk = fa.keygen(9, seed=bytes(32), scheme="fn-dsa")
    reg = KeyRegistry()
    reg.put(IDS[0], "falcon", k.public_key, k.secret_key)
    reg.put(IDS[1], "fn-dsa", fk.public_key, fk.secret_key)
    reg.put(IDS[2], "falcon", KEYS[2].public_key)        # no private key
    front = BatchFront(4, reg)
    sig = fa.sign(k.secret_key, b"m")
    item = {"key_id": IDS[0], "message": b64(b"m"), "signature": b64(sig)}
    cases = [
        (OP_VERIFY, {"items": [item], "extra": 1}, "form"),
        (OP_VERIFY, {"items": [dict(item, message="a\\u0041==")]}, "form"),
        (OP_VERIFY, {"items": [item] * 5}, "items"),
        (OP_VERIFY, {"items": [dict(item, message="a===")]}, "base64"),
        (OP_VERIFY, {"items": [item], "format": "Any"}, "format"),
        (OP_SIGN, {"items": [{"key_id": IDS[0], "message": "aGk="}],
                   "format": "any"}, "format"),
        (OP_VERIFY, {"items": [dict(item, key_id="f" * 32)]}, "key"),
        (OP_VERIFY, {"items": [dict(item, key_id=IDS[1])]}, "key"),
        (OP_SIGN, {"items": [{"key_id": IDS[2], "message": "aGk="}]},
         "key"),
        (OP_VERIFY, {"items": [dict(item, signature=b64(bytes(41)))]},
         "size"),
    ]
    with Broker(threads=1) as broker:
        assert run(front, broker, OP_VERIFY, {"items": [item]}) == \
            b'{"results":[true],"valid":1}'
        for op, obj, why in cases:
            assert run(front, broker, op, obj) is None, obj
            assert front.last_fallback == why, (obj, front.last_fallback)
        assert broker.metrics()["jobs_submitted"] == 1


def test_one_registry_for_the_store_and_the_parser(tmp_path):
    """A key the store creates, imports or loads is in its registry, and
    the parser on that registry serves it (falcon keys) or leaves it to
    the fallback (fn-dsa keys); the registry checks what it records and
    names the culprit."""
    reg = KeyRegistry()
    store = KeyStore(tmp_path / "k", reg)
    front = BatchFront(8, reg)
    r3 = store.create(9)
    fn = store.create(9, "fn-dsa")
    assert len(reg) == 2 and reg.count("falcon") == 1 and len(front) == 1
    assert r3.key_id in front and fn.key_id not in front
    got = reg.get(fn.key_id)
    assert got == fn and got.scheme == "fn-dsa" and got.logn == 9
    # A store on the same directory with a registry of its own loads the
    # keys from the files into it.
    other = KeyStore(tmp_path / "k")
    assert len(other.registry) == 0
    assert other.get(fn.key_id) == fn and other.get(r3.key_id) == r3
    assert len(other.registry) == 2
    # DER keys are recorded in their raw encoding.
    from falcon_accel import pki
    kp = fa.keygen(9, seed=b"der import")
    rec = store.add(pki.encode_private_key(kp.secret_key, "der"))
    assert reg.get(rec.key_id).secret_key == kp.secret_key
    assert (tmp_path / "k" / f"{rec.key_id}.key").read_bytes() == \
        kp.secret_key
    bad = [
        (("x" * 65, "falcon", kp.public_key), "BADARG"),          # long id
        (("", "falcon", kp.public_key), "BADARG"),
        (("id", "ml-dsa", kp.public_key), "BADARG"),              # scheme
        (("id", "falcon", kp.secret_key), "HEADER"),              # not pk
        (("id", "falcon", kp.public_key[:-1]), "LENGTH"),
        (("id", "fn-dsa", fa.keygen(1).public_key), "HEADER"),    # logn 1
        (("id", "falcon", kp.public_key, kp.secret_key[:-1]), "LENGTH"),
    ]
    for args, name in bad:
        with pytest.raises(fa.FalconError) as e:
            reg.put(*args)
        assert e.value.name == name, (args[:2], e.value)
        assert f"key {args[0]}" in str(e.value), e.value
    assert "id" not in reg and len(reg) == 3
