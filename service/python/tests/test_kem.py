"""falcon_accel.kem: ML-KEM (FIPS 203) bindings."""
import hashlib

import pytest

import falcon_accel as fa
from falcon_accel import kem

# NIST ACVP ML-KEM-keyGen-FIPS203 tcId 26 (ML-KEM-768, ACVP-Server commit
# 65370b86): seed d || z, SHA-256 of the expected ek and dk (computed from
# the ACVP JSON; the same case as tests/cli/kem.sh).
ACVP_SEED = bytes.fromhex(
    "E34A701C4C87582F42264EE422D3C684D97611F2523EFE0C998AF05056D693DC"
    "A85768F3486BD32A01BF9A8F21EA938E648EAE4E5448C34C3EB88820B159EEDD")
ACVP_EK_SHA256 = "7799c9d8eef172aa78c073514f2f039c240de8c5cb61bca82ba0bc46041ce279"
ACVP_DK_SHA256 = "104b3444c3de2b81143788d27e17648f45c80f617f906156db2258da96dead40"

SIZES = {512: (800, 1632, 768), 768: (1184, 2400, 1088),
         1024: (1568, 3168, 1568)}


def test_acvp_keygen_vector():
    ek, dk = kem.keygen(768, seed=ACVP_SEED)
    assert hashlib.sha256(ek).hexdigest() == ACVP_EK_SHA256
    assert hashlib.sha256(dk).hexdigest() == ACVP_DK_SHA256


@pytest.mark.parametrize("level", kem.LEVELS)
def test_round_trip(level):
    ek, dk = kem.keygen(level)
    assert (len(ek), len(dk)) == SIZES[level][:2]
    assert kem.encaps_key_size(level) == len(ek)
    ct, ss = kem.encaps(ek)
    assert len(ct) == SIZES[level][2] == kem.ciphertext_size(level)
    assert len(ss) == 32
    assert kem.decaps(dk, ct) == ss
    # implicit rejection: a modified ciphertext gives another secret
    bad = bytes([ct[0] ^ 1]) + ct[1:]
    assert kem.decaps(dk, bad) != ss
    kem.check_encaps_key(ek)
    kem.check_decaps_key(dk)


@pytest.mark.parametrize("level", kem.LEVELS)
def test_deterministic_and_backends(level):
    seed = bytes(range(64))
    m = bytes(range(100, 132))
    ref = None
    for be in fa.backends():
        if not be.available or be.name == "rtl":
            continue
        ek, dk = kem.keygen(level, seed=seed, backend=be)
        ct, ss = kem.encaps(ek, m=m, backend=be)
        out = (ek, dk, ct, ss, kem.decaps(dk, ct, backend=be.name))
        assert out[4] == ss
        if ref is None:
            ref = out
        assert out == ref, be.name


def test_input_checks():
    ek, dk = kem.keygen(512, seed=bytes(64))
    ct, _ = kem.encaps(ek)
    unreduced = b"\xff\xff" + ek[2:]
    with pytest.raises(fa.FalconError) as e:
        kem.encaps(unreduced)
    assert e.value.name == "COEFF_RANGE"
    with pytest.raises(fa.FalconError) as e:
        kem.check_encaps_key(unreduced)
    assert e.value.name == "COEFF_RANGE"
    badhash = bytearray(dk)
    badhash[-64] ^= 1
    with pytest.raises(fa.FalconError) as e:
        kem.decaps(bytes(badhash), ct)
    assert e.value.name == "KEY"
    with pytest.raises(fa.FalconError) as e:
        kem.decaps(dk, ct[:-1])
    assert e.value.name == "LENGTH"
    with pytest.raises(fa.FalconError) as e:
        kem.encaps(ek[:-1])
    assert e.value.name == "LENGTH"
    with pytest.raises(fa.FalconError) as e:
        kem.keygen(1000)
    assert e.value.name == "BADARG"
    with pytest.raises(fa.FalconError) as e:
        kem.keygen(768, seed=bytes(63))
    assert e.value.name == "LENGTH"
    with pytest.raises(fa.FalconError):
        kem.encaps(ek, m=bytes(31))
