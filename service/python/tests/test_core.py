"""Bindings: sizes, keys, signing and verification, errors, backends,
batches. References: the Falcon specification's sizes, the NIST KAT
vectors (when shared/kat is present), the single-call API for batches."""
import os
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import falcon_accel as fa
from conftest import keypair, shared_dir

FORMATS = ["compressed", "padded", "ct"]


def test_sizes_match_the_specification():
    # Falcon-512 / Falcon-1024 (spec v1.2, table 3.3) and the CT format.
    assert fa.public_key_size(9) == 897 and fa.public_key_size(10) == 1793
    assert fa.private_key_size(9) == 1281 and fa.private_key_size(10) == 2305
    assert fa.signature_size(9, "padded") == 666
    assert fa.signature_size(10, "padded") == 1280
    assert fa.signature_size(9, "ct") == 809
    assert fa.signature_size(10, "ct") == 1577
    with pytest.raises(fa.FalconError) as e:
        fa.public_key_size(11)
    assert e.value.code == -5


def test_keygen_deterministic_and_consistent():
    a = fa.keygen(9, seed=b"same")
    b = fa.keygen(9, seed=b"same")
    c = fa.keygen(9, seed=b"other")
    assert a == b and a.secret_key != c.secret_key
    assert len(a.public_key) == 897 and len(a.secret_key) == 1281
    assert a.public_key[0] == 0x09 and a.secret_key[0] == 0x59
    assert fa.get_logn(a.public_key) == 9 == a.logn
    assert fa.public_key(a.secret_key) == a.public_key
    fresh1, fresh2 = fa.keygen(4), fa.keygen(4)
    assert fresh1.secret_key != fresh2.secret_key


def _kat_entries(path, count):
    out, cur = [], {}
    for line in path.read_text().splitlines():
        if " = " in line:
            k, v = line.split(" = ", 1)
            cur[k] = v
            if k == "sm":
                out.append(cur)
                cur = {}
                if len(out) == count:
                    break
    return out


@pytest.mark.parametrize("name,logn", [("falcon512-KAT.rsp", 9),
                                       ("falcon1024-KAT.rsp", 10)])
def test_nist_kat_signatures_verify(name, logn):
    # The repository's first records (tests/kat), else the full files.
    repo_kat = Path(__file__).resolve().parents[3] / "tests" / "kat"
    path = repo_kat / name.replace("-KAT.rsp", "-KAT.first3.rsp")
    if not path.exists():
        path = shared_dir() / "kat" / name
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"KAT records missing ({path}) under CI")
        pytest.skip("KAT files not present")
    for e in _kat_entries(path, 3):
        pk, sk = bytes.fromhex(e["pk"]), bytes.fromhex(e["sk"])
        msg, sm = bytes.fromhex(e["msg"]), bytes.fromhex(e["sm"])
        assert fa.public_key(sk) == pk
        # sm = sig length (2 bytes), nonce (40), message, 0x20+logn, s2.
        nonce = sm[2:42]
        esig = sm[42 + len(msg):]
        assert esig[0] == 0x20 + logn
        sig = bytes([0x30 + logn]) + nonce + esig[1:]
        assert fa.verify(pk, msg, sig)
        assert fa.verify(pk, msg, sig, "compressed")
        assert not fa.verify(pk, msg + b"x", sig)
        # A compressed signature read as padded is malformed: raises.
        with pytest.raises(fa.FalconError):
            fa.verify(pk, msg, sig, "padded")
        assert fa.verify_status(pk, msg, sig, "padded") < 0


@settings(max_examples=25, deadline=None)
@given(msg=st.binary(max_size=300), fmt=st.sampled_from(FORMATS),
       logn=st.sampled_from([3, 5, 9]), flip=st.integers(0, 10**6))
def test_sign_verify_roundtrip(msg, fmt, logn, flip):
    kp = keypair(logn)
    sig = fa.sign(kp.secret_key, msg, fmt)
    if fmt != "compressed":
        assert len(sig) == fa.signature_size(logn, fmt)
    assert len(sig) <= fa.signature_max_size(logn)
    assert fa.verify(kp.public_key, msg, sig)
    assert fa.verify(kp.public_key, msg, sig, fmt)
    # Any altered message or signature byte is rejected.
    if msg:
        bad = bytearray(msg)
        bad[flip % len(msg)] ^= 1 << (flip % 8)
        assert not fa.verify(kp.public_key, bytes(bad), sig)
    badsig = bytearray(sig)
    badsig[41 + flip % (len(sig) - 41)] ^= 1 << (flip % 8)
    # Rejected: False when it still decodes, FalconError when it no
    # longer does (then with the decoding error's code).
    code = fa.verify_status(kp.public_key, msg, bytes(badsig))
    assert code != 0
    if code == -4:
        assert fa.verify(kp.public_key, msg, bytes(badsig)) is False
    else:
        with pytest.raises(fa.FalconError) as e:
            fa.verify(kp.public_key, msg, bytes(badsig))
        assert e.value.code == code
    assert not fa.verify(keypair(logn, 1).public_key, msg, sig)


@settings(max_examples=10, deadline=None)
@given(msg=st.binary(max_size=64), seed=st.binary(min_size=1, max_size=48),
       fmt=st.sampled_from(FORMATS))
def test_seeded_signing_is_deterministic_and_tree_equals_batch(msg, seed,
                                                                fmt):
    kp = keypair(9)
    ek = fa.expand(kp.secret_key)
    s1 = fa.sign(kp.secret_key, msg, fmt, seed=seed)
    assert s1 == fa.sign(kp.secret_key, msg, fmt, seed=seed)
    s2 = fa.sign(ek, msg, fmt, seed=seed)
    assert fa.verify(kp.public_key, msg, s2)
    # Batch items with seeds give the single calls' signatures.
    out = fa.sign_batch([(kp.secret_key, msg), (ek, msg)], fmt,
                        seeds=[seed, seed])
    assert out == [s1, s2]


def test_prepared_and_expanded_keys():
    kp = keypair(9)
    pp = fa.prepare(kp.public_key)
    ek = fa.expand(kp.secret_key)
    assert pp.logn == 9 and ek.logn == 9
    assert ek.size == fa.expanded_key_size(9)
    sig = fa.sign(ek, b"tree")
    assert fa.verify(pp, b"tree", sig) and not fa.verify(pp, b"tref", sig)
    with pytest.raises(fa.FalconError):
        fa.prepare(b"\x09" + b"\xff" * 896)   # coefficients >= q


def test_errors_carry_c_codes():
    kp = keypair(9)
    with pytest.raises(fa.FalconError) as e:
        fa.sign(kp.secret_key, b"m", "any")
    assert e.value.code == -5 and e.value.name == "BADARG"
    with pytest.raises(fa.FalconError) as e:
        fa.sign(b"\x5c" + kp.secret_key[1:], b"m")
    assert e.value.code == -7     # header: degree 12
    with pytest.raises(fa.FalconError) as e:
        fa.backend("no-such-backend")
    assert e.value.code == -12
    with pytest.raises(fa.FalconError):
        fa.sig_format("fancy")
    assert fa.verify_status(kp.public_key, b"m", b"") == -3
    assert fa.verify_status(kp.public_key, b"m", b"\x39" + bytes(60)) < 0
    # Malformed signatures and keys raise; False only for "does not
    # verify".
    for pk, sig in ((kp.public_key, b"\x00" * 700),
                    (kp.public_key, b""),
                    (kp.public_key, b"\x39" + bytes(60)),
                    (kp.public_key[:-1], fa.sign(kp.secret_key, b"m")),
                    (kp.secret_key, fa.sign(kp.secret_key, b"m"))):
        with pytest.raises(fa.FalconError) as e:
            fa.verify(pk, b"m", sig)
        assert e.value.code == fa.verify_status(pk, b"m", sig) < 0
        assert e.value.code != -4
    assert fa.verify(kp.public_key, b"m", fa.sign(kp.secret_key, b"m"))
    assert fa.verify(kp.public_key, b"n", fa.sign(kp.secret_key, b"m")) \
        is False
    assert "signature" in fa.strerror(-4).lower()


def test_backends_are_bit_identical():
    kp = keypair(9)
    avail = [b for b in fa.backends() if b.available]
    assert any(b.name == "portable" for b in avail)
    assert fa.default_backend().available
    ref = fa.sign(kp.secret_key, b"be", "ct", seed=b"s",
                  backend="portable")
    for b in avail:
        assert fa.keygen(6, seed=b"k", backend=b) == \
            fa.keygen(6, seed=b"k", backend="portable")
        assert fa.sign(kp.secret_key, b"be", "ct", seed=b"s",
                       backend=b) == ref
        assert fa.verify(kp.public_key, b"be", ref, backend=b)


def test_batches_equal_single_calls():
    keys = [keypair(9, i) for i in range(3)] + [keypair(5)]
    items = [(keys[i % 4].secret_key, b"batch %d" % i) for i in range(30)]
    seeds = [b"seed %d" % i for i in range(30)]
    with fa.Pool(2) as pool:
        assert pool.threads == 2
        sigs = fa.sign_batch(items, "padded", pool, seeds=seeds)
        for (sk, m), s, sd in zip(items, sigs, seeds):
            assert s == fa.sign(sk, m, "padded", seed=sd)
        triples = [(keys[i % 4].public_key, items[i][1], sigs[i])
                   for i in range(30)]
        triples[3] = (triples[3][0], b"changed", triples[3][2])
        triples[7] = (keys[0].public_key, triples[7][1], triples[7][2])
        triples[11] = (triples[11][0], triples[11][1], triples[11][2][:-1])
        got = fa.verify_batch_status(triples, pool=pool)
        assert got == [fa.verify_status(*t) for t in triples]
        assert got.count(0) == 27 and got[3] == -4
        # Malformed items (7: a key of another degree, 11: truncated) make
        # the boolean form raise, with every item's code; without them,
        # booleans.
        with pytest.raises(fa.BatchError) as e:
            fa.verify_batch(triples, pool=pool)
        assert e.value.errors == got and e.value.code == got[7] < 0
        assert got[7] != -4 and got[11] not in (0, -4)
        ok = [t for i, t in enumerate(triples) if i not in (7, 11)]
        assert fa.verify_batch(ok, pool=pool) == \
            [g == 0 for i, g in enumerate(got) if i not in (7, 11)]
    # Default pool, and a failing item.
    with pytest.raises(fa.BatchError) as e:
        fa.sign_batch([(keys[0].secret_key, b"ok"),
                       (b"\x5f" + keys[0].secret_key[1:], b"bad")])
    assert e.value.errors[0] == 0 and e.value.errors[1] < 0
    assert fa.sign_batch([]) == [] and fa.verify_batch([]) == []


def test_batch_releases_the_gil():
    kp = keypair(9)
    pp = fa.prepare(kp.public_key)
    sig = fa.sign(kp.secret_key, b"gil")
    items = [(pp, b"gil", sig)] * 4000
    with fa.Pool(1) as pool:
        fa.verify_batch(items[:10], pool=pool)
        done = threading.Event()
        result = []

        def work():
            result.append(fa.verify_batch(items, pool=pool))
            done.set()

        # Calibrate: loop iterations per second with nothing else running.
        ticks, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < 0.05:
            done.is_set()
            ticks += 1
        rate = ticks / (time.perf_counter() - t0)
        t = threading.Thread(target=work)
        ticks = 0
        start = time.perf_counter()
        t.start()
        while not done.is_set():
            ticks += 1
        t.join()
        elapsed = time.perf_counter() - start
    assert all(result[0])
    # The main thread kept running Python code while the batch ran in C:
    # with the GIL held it would only run while the items are built.
    assert ticks > 0.3 * rate * elapsed, (ticks, rate, elapsed)
