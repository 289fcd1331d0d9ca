"""Standard key encodings: PKCS#8 private keys and X.509
SubjectPublicKeyInfo public keys, DER or PEM, for round-3 Falcon and FN-DSA,
through the library's strict codec (include/falcon_accel_pki.h; OIDs in
include/falcon_accel_oids.h, from data/oids.json; README "Falcon in the
PKI").

    from falcon_accel import pki
    kp = fa.keygen(9)
    pem = pki.encode_private_key(kp.secret_key)            # PKCS#8 PEM
    sk, scheme = pki.decode_private_key(pem)               # raw, "falcon"
    spki = pki.encode_public_key(kp.public_key, fmt="der")

The scheme of a raw key is the caller's to give (round-3 and FN-DSA public
keys have the same size and header byte): ``scheme="fn-dsa"``. Decoding
gives it back from the OID. Every key-taking function of the package
(sign, verify, public_key, expand, prepare) also accepts DER and PEM keys;
their scheme must be the call's. A non-canonical encoding raises
FalconError naming the element and the byte offset (DER) or line (PEM).
"""
from __future__ import annotations

from typing import Tuple, Union

from cffi import FFI

from . import _cdef, _ffi
from .core import FalconError, public_key as _public_key, scheme_name
from ._errors import FA_ERR_BADARG

# Generated from include/falcon_accel_oids.h and include/falcon_accel_pki.h
# (see _cdef.py).
CDEF = _cdef.cdef_text(_cdef.PKI_HEADERS)

_pffi = FFI()
_pffi.cdef(CDEF)
_plib = _pffi.dlopen(_ffi._find_library())

FORMATS = ("pem", "der")
_PEM_PRIVATE, _PEM_PUBLIC = 1, 2
_FMT_RAW, _FMT_DER, _FMT_PEM = 0, 1, 2

BytesLike = Union[bytes, bytearray, memoryview]


def _fail(code: int, what: str, err=None) -> FalconError:
    msg = _pffi.string(_plib.fa_pki_strerror(code)).decode()
    if err is not None and err.what != _pffi.NULL:
        msg += " at %s (%s %d)" % (_pffi.string(err.what).decode(),
                                  "line" if what.endswith("PEM") else "byte",
                                  err.offset)
    return FalconError(code, "%s: %s" % (what, msg))


def _alg(key: bytes, scheme: str) -> int:
    if len(key) == 0:
        raise FalconError(FA_ERR_BADARG, "key: empty")
    alg = _plib.fa_pki_alg(key[0] & 0x0F, 1 if scheme_name(scheme) == "fn-dsa" else 0)
    if alg < 0:
        raise FalconError(FA_ERR_BADARG, "key: no standard encoding for logn %d"
                          % (key[0] & 0x0F))
    return alg


def _call(fn, size: int, *args) -> bytes:
    out = _pffi.new("uint8_t[]", size)
    n = _pffi.new("size_t *")
    r = fn(out, size, n, *args)
    if r != 0:
        raise _fail(r, "encode")
    return bytes(_pffi.buffer(out, n[0]))


def _pem(der: bytes, label: int) -> bytes:
    return _call(_plib.fa_pki_pem_encode, _plib.fa_pki_pem_size(label, len(der)),
                 label, der, len(der))


def _fmt(fmt: str) -> str:
    if fmt not in FORMATS:
        raise FalconError(FA_ERR_BADARG, "fmt must be 'pem' or 'der', not %r" % (fmt,))
    return fmt


def encode_public_key(pk: BytesLike, fmt: str = "pem", scheme: str = "falcon") -> bytes:
    """SubjectPublicKeyInfo of a raw public key, PEM ("PUBLIC KEY") or DER."""
    pk = bytes(pk)
    alg = _alg(pk, scheme)
    der = _call(_plib.fa_pki_encode_spki, _plib.fa_pki_spki_size(alg), alg, pk, len(pk))
    return _pem(der, _PEM_PUBLIC) if _fmt(fmt) == "pem" else der


def encode_private_key(sk: BytesLike, fmt: str = "pem", scheme: str = "falcon") -> bytes:
    """PKCS#8 PrivateKeyInfo of a raw private key, PEM ("PRIVATE KEY") or
    DER. Round 3 stores the public key after the private one (oqs-provider's
    layout); it is computed here."""
    sk = bytes(sk)
    alg = _alg(sk, scheme)
    pk = _public_key(sk, scheme=scheme)
    der = _call(_plib.fa_pki_encode_pkcs8, _plib.fa_pki_pkcs8_size(alg), alg,
                sk, len(sk), pk, len(pk))
    return _pem(der, _PEM_PRIVATE) if _fmt(fmt) == "pem" else der


def _der_of(data: bytes, label: int, what: str) -> bytes:
    """The DER inside data (PEM of the given label, or DER itself)."""
    kind = _plib.fa_pki_detect(data, len(data))
    if kind == _FMT_DER:
        return data
    if kind != _FMT_PEM:
        raise FalconError(FA_ERR_BADARG, "%s: neither PEM nor DER" % what)
    der = _pffi.new("uint8_t[]", max(len(data), 1))
    n = _pffi.new("size_t *")
    got = _pffi.new("int *")
    err = _pffi.new("fa_pki_error *")
    r = _plib.fa_pki_pem_decode(data, len(data), got, der, len(data), n, err)
    if r != 0:
        raise _fail(r, what + " PEM", err)
    if got[0] != label:
        raise FalconError(FA_ERR_BADARG, "%s: a PEM %s, not a %s" % (
            what, "PRIVATE KEY" if got[0] == _PEM_PRIVATE else "PUBLIC KEY",
            "PRIVATE KEY" if label == _PEM_PRIVATE else "PUBLIC KEY"))
    return bytes(_pffi.buffer(der, n[0]))


def _scheme_of(alg: int) -> str:
    return "fn-dsa" if _plib.fa_pki_alg_fndsa(alg) else "falcon"


def decode_public_key(data: BytesLike) -> Tuple[bytes, str]:
    """(raw public key, scheme) of a SubjectPublicKeyInfo, PEM or DER."""
    der = _der_of(bytes(data), _PEM_PUBLIC, "public key")
    alg = _pffi.new("int *")
    p = _pffi.new("const uint8_t **")
    n = _pffi.new("size_t *")
    err = _pffi.new("fa_pki_error *")
    r = _plib.fa_pki_decode_spki(der, len(der), alg, p, n, err)
    if r != 0:
        raise _fail(r, "public key DER", err)
    return bytes(_pffi.buffer(p[0], n[0])), _scheme_of(alg[0])


def decode_private_key(data: BytesLike) -> Tuple[bytes, str]:
    """(raw private key, scheme) of a PKCS#8 PrivateKeyInfo, PEM or DER."""
    der = _der_of(bytes(data), _PEM_PRIVATE, "private key")
    alg = _pffi.new("int *")
    sp = _pffi.new("const uint8_t **")
    sn = _pffi.new("size_t *")
    pp = _pffi.new("const uint8_t **")
    pn = _pffi.new("size_t *")
    err = _pffi.new("fa_pki_error *")
    r = _plib.fa_pki_decode_pkcs8(der, len(der), alg, sp, sn, pp, pn, err)
    if r != 0:
        raise _fail(r, "private key DER", err)
    sk = bytes(_pffi.buffer(sp[0], sn[0]))
    scheme = _scheme_of(alg[0])
    if pn[0] and bytes(_pffi.buffer(pp[0], pn[0])) != _public_key(sk, scheme=scheme):
        raise FalconError(FA_ERR_BADARG, "private key: the stored public key "
                          "is not the private key's")
    return sk, scheme


def raw_key(data: BytesLike, scheme: str, private: bool) -> bytes:
    """A key as the package's functions take it: DER or PEM decoded (its
    scheme must be `scheme`), raw returned as it is."""
    b = bytes(data)
    if _plib.fa_pki_detect(b, len(b)) == _FMT_RAW:
        return data
    raw, got = decode_private_key(b) if private else decode_public_key(b)
    if got != scheme_name(scheme):
        from ._errors import FA_ERR_SCHEME
        raise FalconError(FA_ERR_SCHEME, "%s key: its OID says %s, the call "
                          "says scheme=%r" % ("private" if private else "public",
                                              got, scheme))
    return raw
