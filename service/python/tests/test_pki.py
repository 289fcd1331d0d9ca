"""falcon_accel.pki: PKCS#8 / SubjectPublicKeyInfo in DER and PEM through
the library's strict codec, both schemes, and every key-taking function of
the package accepting them."""
import pytest

import falcon_accel as fa
from falcon_accel import pki
from falcon_accel._errors import FA_ERR_SCHEME

# The OIDs' DER (include/falcon_accel_oids.h, data/oids.json).
OID_FALCON512 = bytes([0x06, 0x05, 0x2B, 0xCE, 0x0F, 0x03, 0x0B])


@pytest.fixture(scope="module", params=["falcon", "fn-dsa"])
def keys(request):
    scheme = request.param
    return scheme, fa.keygen(9, seed=bytes(range(32)), scheme=scheme)


def test_round_trips_byte_stable(keys):
    scheme, kp = keys
    for fmt in pki.FORMATS:
        spki = pki.encode_public_key(kp.public_key, fmt, scheme=scheme)
        p8 = pki.encode_private_key(kp.secret_key, fmt, scheme=scheme)
        assert pki.decode_public_key(spki) == (kp.public_key, scheme)
        assert pki.decode_private_key(p8) == (kp.secret_key, scheme)
        assert pki.encode_public_key(pki.decode_public_key(spki)[0], fmt, scheme=scheme) == spki
        assert pki.encode_private_key(pki.decode_private_key(p8)[0], fmt, scheme=scheme) == p8
    pem = pki.encode_public_key(kp.public_key, "pem", scheme=scheme)
    assert pem.startswith(b"-----BEGIN PUBLIC KEY-----\n")
    assert pem.endswith(b"-----END PUBLIC KEY-----\n")


def test_layout_round3_spki():
    kp = fa.keygen(9, seed=b"layout")
    der = pki.encode_public_key(kp.public_key, "der")
    # SEQUENCE { SEQUENCE { OID }, BIT STRING (0 unused bits) pk }
    assert der[0] == 0x30 and der[4:6] == b"\x30\x07" and der[6:13] == OID_FALCON512
    assert der[13] == 0x03 and der[17] == 0x00 and der[18:] == kp.public_key


def test_sign_verify_with_encoded_keys(keys):
    scheme, kp = keys
    for fmt in pki.FORMATS:
        sk = pki.encode_private_key(kp.secret_key, fmt, scheme=scheme)
        pk = pki.encode_public_key(kp.public_key, fmt, scheme=scheme)
        sig = fa.sign(sk, b"pki message", scheme=scheme)
        assert fa.verify(pk, b"pki message", sig, scheme=scheme)
        assert fa.verify(kp.public_key, b"pki message", sig, scheme=scheme)
        assert not fa.verify(pk, b"other message", sig, scheme=scheme)
        assert fa.public_key(sk, scheme=scheme) == kp.public_key
    if scheme == "falcon":
        p8 = pki.encode_private_key(kp.secret_key, scheme=scheme)
        sig = fa.sign(fa.expand(p8), b"m")
        assert fa.verify(fa.prepare(pki.encode_public_key(kp.public_key)), b"m", sig)


def test_scheme_of_an_encoded_key_must_match(keys):
    scheme, kp = keys
    other = "fn-dsa" if scheme == "falcon" else "falcon"
    pem = pki.encode_private_key(kp.secret_key, scheme=scheme)
    with pytest.raises(fa.FalconError) as e:
        fa.sign(pem, b"m", scheme=other)
    assert e.value.code == FA_ERR_SCHEME and scheme in str(e.value)


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d + b"\x00", "trailing"),                       # bytes after the SEQUENCE
    (lambda d: d[:-1], ""),                                     # truncated
    (lambda d: b"\x30\x83\x00" + d[2:], ""),                    # a wrong (long-form) length
    (lambda d: d[:6] + b"\x06\x05\x2B\xCE\x0F\x03\x7F" + d[13:], "algorithm"),  # unknown OID
])
def test_non_canonical_der_refused(mutate, words):
    kp = fa.keygen(9, seed=b"strict")
    der = pki.encode_public_key(kp.public_key, "der")
    with pytest.raises(fa.FalconError) as e:
        pki.decode_public_key(mutate(der))
    assert words in str(e.value).lower()
    assert "byte" in str(e.value)


def test_pem_strict():
    kp = fa.keygen(9, seed=b"pem")
    pem = pki.encode_private_key(kp.secret_key)
    with pytest.raises(fa.FalconError) as e:
        pki.decode_private_key(pem.replace(b"\n", b"\r\n"))
    assert "line" in str(e.value)
    with pytest.raises(fa.FalconError) as e:
        pki.decode_private_key(pki.encode_public_key(kp.public_key))
    assert "PUBLIC KEY" in str(e.value)
    with pytest.raises(fa.FalconError):
        pki.encode_public_key(kp.public_key, "raw")
