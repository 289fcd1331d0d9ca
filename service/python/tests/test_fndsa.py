"""FN-DSA (fn-dsa 0.4.0) in the package: scheme="fn-dsa" of keygen, sign,
verify, checked against the crate's vectors (tests/fndsa/vectors.txt, see
its README), and the errors that name their culprit."""
import hashlib
import os
from pathlib import Path

import pytest

import falcon_accel as fa
from falcon_accel import _errors

REPO = Path(__file__).resolve().parents[3]
FN = "fn-dsa"


def vectors():
    """The records of tests/fndsa/vectors.txt as dicts (bytes fields,
    '=' resolved to the key of the line above); a skip outside a
    checkout, a failure under CI."""
    path = REPO / "tests" / "fndsa" / "vectors.txt"
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} missing under CI")
        pytest.skip(f"{path} not present (not a checkout)")
    out, last = [], {}
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split(" ")
        assert len(f) == 9, line[:80]
        rec = {"logn": int(f[0]), "mode": f[1]}
        for name, v in zip(("kseed", "sseed", "ctx", "msg", "pk", "sk",
                            "sig"), f[2:]):
            rec[name] = (last[name] if v == "=" else
                         b"" if v == "-" else bytes.fromhex(v))
        last = rec
        out.append(rec)
    return out


VECTORS = None


def all_vectors():
    global VECTORS
    if VECTORS is None:
        VECTORS = vectors()
    return VECTORS


def sign_args(rec):
    """(message, options) of a record's signature, the package hashing
    the pre-hash modes."""
    mode = rec["mode"]
    if mode == "extmu":
        return fa.compute_mu(rec["pk"], rec["msg"], context=rec["ctx"]), \
            {"external_mu": True}
    opts = {"context": rec["ctx"]}
    if mode in ("sha256", "sha512"):
        opts["prehash"] = mode
    return rec["msg"], opts


def test_vector_file_shape():
    recs = all_vectors()
    assert len(recs) == 100
    assert {r["mode"] for r in recs} == {"pure", "ctx", "sha256", "sha512",
                                         "extmu"}
    assert {(r["logn"], r["kseed"]) for r in recs} and \
        len({r["kseed"] for r in recs}) == 20


def test_keys_from_seed_equal_the_crates():
    keys = {(r["logn"], r["kseed"]): r for r in all_vectors()}
    assert len(keys) == 20
    for (logn, kseed), r in keys.items():
        kp = fa.keygen(logn, seed=kseed, scheme=FN)
        assert kp.secret_key == r["sk"] and kp.public_key == r["pk"], logn
        assert fa.public_key(r["sk"], scheme=FN) == r["pk"]
        assert len(r["sk"]) == fa.private_key_size(logn, scheme=FN)
        assert len(r["pk"]) == fa.public_key_size(logn, scheme=FN)


def test_signatures_from_seed_equal_the_crates_and_verify():
    for r in all_vectors():
        msg, opts = sign_args(r)
        sig = fa.sign(r["sk"], msg, seed=r["sseed"], scheme=FN, **opts)
        assert sig == r["sig"], (r["logn"], r["mode"])
        assert len(sig) == fa.signature_size(r["logn"], scheme=FN)
        assert fa.verify(r["pk"], msg, sig, scheme=FN, **opts)
        assert fa.verify_status(r["pk"], msg, sig, scheme=FN, **opts) == 0


def test_prehash_given_as_the_hash():
    for r in all_vectors():
        if r["mode"] not in ("sha256", "sha512"):
            continue
        h = hashlib.new(r["mode"], r["msg"]).digest()
        opts = {"context": r["ctx"], "prehash": r["mode"], "hashed": True}
        assert fa.sign(r["sk"], h, seed=r["sseed"], scheme=FN,
                       **opts) == r["sig"]
        assert fa.verify(r["pk"], h, r["sig"], scheme=FN, **opts)
        assert not fa.verify(r["pk"], h[:-1] + bytes([h[-1] ^ 1]),
                             r["sig"], scheme=FN, **opts)


def test_external_mu_is_the_crates_mu():
    """compute_mu is SHAKE256(SHAKE256(pk) || 0 || len(ctx) || ctx || M)
    (README of tests/fndsa), computed here independently."""
    for r in all_vectors():
        if r["mode"] != "extmu":
            continue
        hpk = hashlib.shake_256(r["pk"]).digest(64)
        mu = hashlib.shake_256(hpk + bytes([0, len(r["ctx"])]) + r["ctx"]
                               + r["msg"]).digest(64)
        assert fa.compute_mu(r["pk"], r["msg"], context=r["ctx"]) == mu
        # The same signature verifies as a message with its context.
        assert fa.verify(r["pk"], r["msg"], r["sig"], scheme=FN,
                         context=r["ctx"])


def flip(b: bytes, i: int) -> bytes:
    return b[:i] + bytes([b[i] ^ 1]) + b[i + 1:]


def test_tampered_signatures_rejected():
    for r in all_vectors():
        msg, opts = sign_args(r)
        sig, pk = r["sig"], r["pk"]
        assert not fa.verify(pk, msg, flip(sig, 5), scheme=FN, **opts)
        assert fa.verify_status(pk, msg, flip(sig, 60), scheme=FN,
                                **opts) != 0
        assert not fa.verify(pk, flip(msg, 0), sig, scheme=FN, **opts) \
            if msg else True
        if not opts.get("external_mu"):
            other = dict(opts, context=flip(r["ctx"], 0) if r["ctx"]
                         else b"x")
            assert not fa.verify(pk, msg, sig, scheme=FN, **other)
            assert not fa.verify(pk, msg + b"x", sig, scheme=FN, **opts)
        # Round 3 does not take FN-DSA signatures as its own.
        assert fa.verify_status(pk, msg, sig) != 0


def test_random_keys_and_signatures():
    """From the OS random source: fresh keys, fresh signatures, all
    modes, at a test degree, 512 and 1024."""
    for logn in (4, 9, 10):
        a, b = fa.keygen(logn, scheme=FN), fa.keygen(logn, scheme=FN)
        assert a.secret_key != b.secret_key and a.logn == logn
        assert fa.public_key(a.secret_key, scheme=FN) == a.public_key
        for opts in ({}, {"context": b"c" * 255}, {"prehash": "sha256"},
                     {"prehash": "sha384", "context": b"x"},
                     {"prehash": "sha512"}, {"prehash": "sha3-256"}):
            s1 = fa.sign(a.secret_key, b"msg", scheme=FN, **opts)
            s2 = fa.sign(a.secret_key, b"msg", "padded", scheme=FN, **opts)
            assert s1 != s2 and len(s1) == len(s2)
            for s in (s1, s2):
                assert fa.verify(a.public_key, b"msg", s, scheme=FN, **opts)
                assert fa.verify(a.public_key, b"msg", s, "padded",
                                 scheme=FN, **opts)
                assert not fa.verify(b.public_key, b"msg", s, scheme=FN,
                                     **opts)
        mu = fa.compute_mu(a.public_key, b"m", context=b"c")
        s = fa.sign(a.secret_key, mu, scheme=FN, external_mu=True)
        assert fa.verify(a.public_key, b"m", s, scheme=FN, context=b"c")
        assert fa.verify(a.public_key, mu, s, scheme=FN, external_mu=True)


def code_of(excinfo) -> int:
    return excinfo.value.code


def test_errors_name_the_culprit():
    r3 = fa.keygen(9, seed=b"round 3 key")
    fn = fa.keygen(9, seed=bytes(32), scheme=FN)
    sig3 = fa.sign(r3.secret_key, b"m", "padded")
    sigfn = fa.sign(fn.secret_key, b"m", scheme=FN)
    # A round-3 object given to FN-DSA: FA_ERR_SCHEME, naming it.
    with pytest.raises(fa.FalconError) as e:
        fa.sign(r3.secret_key, b"m", scheme=FN)
    assert e.value.code == _errors.FA_ERR_SCHEME and e.value.name == "SCHEME"
    assert "secret key: a round-3 Falcon private key" in str(e.value)
    with pytest.raises(fa.FalconError) as e:
        fa.public_key(r3.secret_key, scheme=FN)
    assert e.value.code == _errors.FA_ERR_SCHEME
    assert "round-3 Falcon private key" in str(e.value)
    with pytest.raises(fa.FalconError) as e:
        fa.verify(r3.public_key, b"m", sigfn, scheme=FN)
    assert e.value.code == _errors.FA_ERR_SCHEME
    assert "public key: a round-3 Falcon public key" in str(e.value)
    with pytest.raises(fa.FalconError) as e:
        fa.verify(fn.public_key, b"m", sig3, scheme=FN)
    assert e.value.code == _errors.FA_ERR_SCHEME
    assert "signature: a round-3 Falcon signature" in str(e.value)
    assert fa.verify_status(fn.public_key, b"m", sig3, scheme=FN) == \
        _errors.FA_ERR_SCHEME
    with pytest.raises(fa.FalconError) as e:
        fa.compute_mu(r3.public_key, b"m")
    assert e.value.code == _errors.FA_ERR_SCHEME
    # An FN-DSA key given to round 3 (the default scheme).
    with pytest.raises(fa.FalconError) as e:
        fa.sign(fn.secret_key, b"m")
    assert "FN-DSA private key (pass scheme='fn-dsa')" in str(e.value)
    bad = [
        (lambda: fa.sign(fn.secret_key, b"m", scheme=FN,
                         context=bytes(256)), "context: 256 bytes"),
        (lambda: fa.verify(fn.public_key, b"m", sigfn, scheme=FN,
                           context=bytes(256)), "context: 256 bytes"),
        (lambda: fa.sign(fn.secret_key, b"m", scheme=FN, prehash="md5"),
         "prehash: 'md5'"),
        (lambda: fa.sign(fn.secret_key, b"m" * 31, scheme=FN,
                         prehash="sha256", hashed=True),
         "message: 31 bytes, not a sha256 hash"),
        (lambda: fa.sign(fn.secret_key, b"m", scheme=FN, hashed=True),
         "hashed: needs prehash"),
        (lambda: fa.sign(fn.secret_key, b"m", scheme=FN, external_mu=True),
         "message: 1 bytes, an external mu is 64"),
        (lambda: fa.sign(fn.secret_key, bytes(64), scheme=FN,
                         external_mu=True, context=b"c"),
         "context: not with external_mu"),
        (lambda: fa.sign(fn.secret_key, b"m", seed=bytes(32), scheme=FN),
         "seed: 32 bytes, FN-DSA takes 40"),
        (lambda: fa.keygen(9, seed=bytes(40), scheme=FN),
         "seed: 40 bytes, FN-DSA takes 32"),
        (lambda: fa.keygen(1, scheme=FN), "logn 1 not in 2..10"),
        (lambda: fa.sign(fn.secret_key, b"m", "ct", scheme=FN),
         "format: ct: FN-DSA signatures have one format"),
        (lambda: fa.verify(fn.public_key, b"m", sigfn, "compressed",
                           scheme=FN), "format: compressed"),
        (lambda: fa.keygen(9, scheme="fndsa"), "scheme: 'fndsa'"),
        (lambda: fa.sign(r3.secret_key, b"m", context=b"c"),
         "context: FN-DSA only"),
        (lambda: fa.verify(r3.public_key, b"m", sig3, prehash="sha256"),
         "prehash: FN-DSA only"),
        (lambda: fa.sign(fa.expand(r3.secret_key), b"m", scheme=FN),
         "ExpandedKey is round 3's"),
        (lambda: fa.verify(fa.prepare(r3.public_key), b"m", sigfn,
                           scheme=FN), "PreparedPublicKey is round 3's"),
    ]
    for call, text in bad:
        with pytest.raises(fa.FalconError) as e:
            call()
        assert text in str(e.value), (text, str(e.value))
        assert e.value.code in (_errors.FA_ERR_BADARG, _errors.FA_ERR_LENGTH)
    # Malformed FN-DSA objects: the decoding error, as round 3's.
    with pytest.raises(fa.FalconError) as e:
        fa.verify(fn.public_key[:-1], b"m", sigfn, scheme=FN)
    assert fa.verify_status(fn.public_key, b"m", sigfn[:-1], scheme=FN) < 0
    assert fa.verify_status(fn.public_key, b"m", b"", scheme=FN) == \
        _errors.FA_ERR_FORMAT


def test_round3_defaults_unchanged():
    kp = fa.keygen(9, seed=b"defaults")
    assert kp == fa.keygen(9, seed=b"defaults", scheme="falcon")
    assert len(kp.secret_key) == fa.private_key_size(9) == 1281
    sig = fa.sign(kp.secret_key, b"m", seed=b"s")
    assert sig == fa.sign(kp.secret_key, b"m", "compressed", seed=b"s",
                          scheme="falcon")
    assert sig[0] == 0x39 and fa.verify(kp.public_key, b"m", sig)
    assert fa.signature_size(9, "padded") == 666
    assert fa.SCHEMES == ("falcon", "fn-dsa")


# --- the broker: items of either scheme, FN-DSA on its Python fallback ----

import asyncio  # noqa: E402
import threading  # noqa: E402

from falcon_accel.broker import SignItem, VerifyItem  # noqa: E402


def test_broker_items_of_both_schemes():
    r3 = fa.keygen(9, seed=b"broker r3")
    fn = fa.keygen(9, seed=bytes(range(32)), scheme=FN)
    h = hashlib.sha256(b"m3").digest()
    items = [SignItem(r3.secret_key, b"m0"),
             SignItem(fn.secret_key, b"m1", FN, b"ctx"),
             (r3.secret_key, b"m2"),
             SignItem(fn.secret_key, b"m3", FN, None, "sha256"),
             SignItem(fn.secret_key, h, FN, b"c", "sha256", True)]
    with fa.Broker(threads=2) as b:
        for sigs in (b.sign_items(items),
                     asyncio.run(b.sign_items_async(items, "padded"))):
            assert fa.verify(r3.public_key, b"m0", sigs[0])
            assert fa.verify(fn.public_key, b"m1", sigs[1], scheme=FN,
                             context=b"ctx")
            assert fa.verify(r3.public_key, b"m2", sigs[2])
            assert fa.verify(fn.public_key, b"m3", sigs[3], scheme=FN,
                             prehash="sha256")
            assert fa.verify(fn.public_key, b"m3", sigs[4], scheme=FN,
                             prehash="sha256", context=b"c")
        v = [VerifyItem(r3.public_key, b"m0", sigs[0]),
             VerifyItem(fn.public_key, b"m1", sigs[1], FN, b"ctx"),
             VerifyItem(r3.public_key, b"mX", sigs[2]),
             VerifyItem(fn.public_key, h, sigs[3], FN, None, "sha256", True),
             VerifyItem(r3.public_key, b"m1", sigs[1], FN, b"ctx"),
             VerifyItem(fn.public_key, b"m1", sigs[1], FN, b"ctX"),
             VerifyItem(fn.public_key, b"m2", sigs[2], FN)]
        want = [0, 0, -4, 0, _errors.FA_ERR_SCHEME, -4,
                _errors.FA_ERR_SCHEME]
        assert b.verify_items_status(v) == want
        assert asyncio.run(b.verify_items_status_async(v)) == want
        # Round-3 items alone take the C broker's path, as before.
        before = b.metrics()["jobs_submitted"]
        assert b.verify_items_status(v[:1] + v[2:3]) == [0, -4]
        assert b.metrics()["jobs_submitted"] == before + 1
        # A round-3 key given as FN-DSA: that item's code.
        with pytest.raises(fa.BatchError) as e:
            b.sign_items([SignItem(fn.secret_key, b"a", FN),
                          SignItem(r3.secret_key, b"b", FN)])
        assert e.value.errors == [0, _errors.FA_ERR_SCHEME]
        # Arguments refused before anything runs.
        for call, text in (
                (lambda: b.sign_items([SignItem(r3.secret_key, b"m",
                                                context=b"c")]),
                 "context: FN-DSA only"),
                (lambda: b.sign_items([SignItem(fn.secret_key, b"m", FN)],
                                      "ct"), "format: ct"),
                (lambda: b.verify_items_status(
                    [VerifyItem(fn.public_key, b"m", sigs[1], "fn_dsa")]),
                 "scheme: 'fn_dsa'")):
            with pytest.raises(fa.FalconError) as e:
                call()
            assert text in str(e.value)


def test_broker_fallback_busy_deadline_cancel_and_close():
    """The fallback's bounds, with its only thread held by a gate (an
    item of the fallback's own that waits), so that nothing depends on
    timing."""
    fn = fa.keygen(9, seed=bytes(32), scheme=FN)
    item = SignItem(fn.secret_key, b"m", FN)
    with fa.Broker(threads=1, queue_capacity=40) as b:
        with pytest.raises(fa.BusyError):
            b.sign_items([item] * 41)
        gate = threading.Event()
        held = b._fallback.submit(lambda: gate.wait(60), [()] * 30, None)
        # 30 items pending: 11 more pass the capacity.
        with pytest.raises(fa.BusyError):
            b.sign_items([item] * 11)
        # Queued behind the gate past its deadline.
        threading.Timer(0.2, gate.set).start()
        with pytest.raises(fa.DeadlineError):
            b.sign_items([item], timeout=0.05)
        assert all(f.result() == (0, True) for f in held)

        async def cancelled():
            gate.clear()
            b._fallback.submit(lambda: gate.wait(60), [()], None)
            task = asyncio.ensure_future(b.sign_items_async([item] * 5))
            await asyncio.sleep(0.05)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            gate.set()
            return await b.sign_items_async([item] * 3, timeout=60.0)
        sigs = asyncio.run(cancelled())
        assert all(fa.verify(fn.public_key, b"m", s, scheme=FN)
                   for s in sigs)
        assert b._fallback.pending == 0
        # Closing: items not started get FA_ERR_CANCELLED.
        gate.clear()
        b._fallback.submit(lambda: gate.wait(60), [()], None)
        rest = b._fallback.submit(lambda: None, [()] * 3, None)
        threading.Timer(0.2, gate.set).start()
    assert [f.result()[0] for f in rest] == [fa.core.FA_ERR_CANCELLED] * 3
    with pytest.raises(fa.FalconError):
        b.sign_items([item])
