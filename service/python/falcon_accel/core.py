"""Key generation, signing, verification, formats, backends and batches.

Keys and signatures are ``bytes`` in the encodings of the Falcon
specification (round 3): public key header ``0x00 + logn``, private key
``0x50 + logn``, signature formats compressed / padded / constant-time
(``SigFormat``). Every failure of the C library is raised as
``FalconError`` (or a subclass) carrying the C error code; verification
returns ``False`` only for a well-formed signature that does not verify;
a malformed key or signature (a decoding error) raises ``FalconError``,
in single calls, batches and the broker alike. The ``*_status`` variants
return every item's C code instead.

FN-DSA (as the fn-dsa 0.4.0 crate implements it, README "FN-DSA") is
``scheme="fn-dsa"`` of keygen, public_key, sign, verify and verify_status
(round 3, ``scheme="falcon"``, stays the default): contexts, pre-hash,
external mu (``compute_mu``), seeds of 32 (keys) and 40 (signatures)
bytes; one signature format (fixed size).
"""
from __future__ import annotations

import enum
import threading
from dataclasses import dataclass
from typing import Iterable, List, Optional, Sequence, Tuple, Union

from ._ffi import ffi, lib

BytesLike = Union[bytes, bytearray, memoryview]

# ---------------------------------------------------------------------------
# Errors

from ._errors import (ERROR_NAMES, FA_ERR_BACKEND, FA_ERR_BADARG,  # noqa: F401
                      FA_ERR_BADSIG, FA_ERR_BUSY, FA_ERR_CANCELLED,
                      FA_ERR_DEADLINE, FA_ERR_FORMAT, FA_ERR_INTERNAL,
                      FA_ERR_LENGTH, FA_ERR_SCHEME, FA_OK)


class FalconError(Exception):
    """An error reported by the C library; ``code`` is its FA_ERR_* value
    (negative), ``name`` the code's name without the FA_ERR_ prefix."""

    def __init__(self, code: int, message: Optional[str] = None):
        self.code = int(code)
        self.name = ERROR_NAMES.get(self.code, "UNKNOWN")
        text = ffi.string(lib.fa_strerror(self.code)).decode()
        super().__init__(f"{message + ': ' if message else ''}{text} "
                         f"(FA_ERR_{self.name}, {self.code})")


class BusyError(FalconError):
    """The broker's queue is full (FA_ERR_BUSY): retry later."""


class DeadlineError(FalconError):
    """A job passed its deadline before it ran (FA_ERR_DEADLINE)."""


class CancelledError(FalconError):
    """A job was cancelled (FA_ERR_CANCELLED)."""


class BatchError(FalconError):
    """Some items of a batch failed; ``errors`` holds every item's code
    (0 for success); ``code`` is the first failure's."""

    def __init__(self, errors: Sequence[int], message: str = "batch",
                 ok=lambda e: e == FA_OK):
        self.errors = list(errors)
        first = next(e for e in self.errors if not ok(e))
        failed = sum(1 for e in self.errors if not ok(e))
        super().__init__(first, f"{message}: {failed} of "
                         f"{len(self.errors)} items failed, first")


_ERROR_CLASSES = {FA_ERR_BUSY: BusyError, FA_ERR_DEADLINE: DeadlineError,
                  FA_ERR_CANCELLED: CancelledError}


def error_for(code: int, message: Optional[str] = None) -> FalconError:
    return _ERROR_CLASSES.get(code, FalconError)(code, message)


def _check(code: int, message: Optional[str] = None) -> None:
    if code != FA_OK:
        raise error_for(code, message)


def strerror(code: int) -> str:
    return ffi.string(lib.fa_strerror(code)).decode()


# ---------------------------------------------------------------------------
# Formats and sizes

class SigFormat(enum.IntEnum):
    ANY = 0           # verification only: format from the header
    COMPRESSED = 1
    PADDED = 2
    CT = 3


FormatLike = Union[SigFormat, int, str]


def sig_format(fmt: FormatLike, verify: bool = False) -> SigFormat:
    """A SigFormat from an enum, int or name ("compressed", "padded",
    "ct", and "any" for verification)."""
    try:
        if isinstance(fmt, str):
            f = SigFormat[fmt.strip().upper()]
        else:
            f = SigFormat(int(fmt))
    except (KeyError, ValueError):
        raise FalconError(FA_ERR_BADARG, f"unknown signature format {fmt!r}")
    if f == SigFormat.ANY and not verify:
        raise FalconError(FA_ERR_BADARG, "signing needs a concrete format")
    return f


def _size(what: int, logn: int) -> int:
    if not 1 <= int(logn) <= 10:
        raise FalconError(FA_ERR_BADARG, f"logn {logn} not in 1..10")
    return int(lib.fa_py_size(what, int(logn)))


def public_key_size(logn: int, scheme: str = "falcon") -> int:
    if scheme_name(scheme) == FNDSA:
        return _fndsa_size(7, logn)
    return _size(0, logn)


def private_key_size(logn: int, scheme: str = "falcon") -> int:
    if scheme_name(scheme) == FNDSA:
        return _fndsa_size(8, logn)
    return _size(1, logn)


def expanded_key_size(logn: int) -> int:
    return _size(5, logn)


def signature_size(logn: int, fmt: FormatLike = SigFormat.COMPRESSED,
                   scheme: str = "falcon") -> int:
    """Exact size for the padded and CT formats, the maximum for
    compressed; FN-DSA: its one (fixed) size."""
    if scheme_name(scheme) == FNDSA:
        _fndsa_format(fmt, False)
        return _fndsa_size(9, logn)
    f = sig_format(fmt)
    return _size({SigFormat.COMPRESSED: 2, SigFormat.PADDED: 3,
                  SigFormat.CT: 4}[f], logn)


def signature_max_size(logn: int) -> int:
    return _size(6, logn)


def get_logn(obj: BytesLike) -> int:
    """Degree (logn) of an encoded key or signature, from its header."""
    r = lib.fa_get_logn(ffi.from_buffer(obj), len(obj)) if len(obj) else FA_ERR_FORMAT
    if r < 0:
        raise error_for(r, "header")
    return int(r)


# ---------------------------------------------------------------------------
# Backends

@dataclass(frozen=True)
class Backend:
    """A kernel backend of the C library (``portable`` always exists)."""
    name: str
    available: bool
    _ptr: object = None

    def __repr__(self) -> str:
        return f"Backend({self.name!r}, available={self.available})"


def _wrap_backend(ptr) -> Backend:
    return Backend(ffi.string(lib.fa_backend_name(ptr)).decode(),
                   bool(lib.fa_backend_available(ptr)), ptr)


def backends() -> List[Backend]:
    """Every registered backend, available on this machine or not."""
    return [_wrap_backend(lib.fa_backend_at(i))
            for i in range(lib.fa_backend_count())]


def default_backend() -> Backend:
    """$FALCON_ACCEL_BACKEND if set and available, else the fastest."""
    return _wrap_backend(lib.fa_backend_default())


def backend(name: str) -> Backend:
    """The backend called `name`; FalconError(FA_ERR_BACKEND) if unknown
    or unavailable here."""
    ptr = lib.fa_backend_find(name.encode())
    if ptr == ffi.NULL:
        raise FalconError(FA_ERR_BACKEND, f"backend {name!r}")
    return _wrap_backend(ptr)


BackendLike = Union[Backend, str, None]


def _be(be: BackendLike):
    if be is None:
        return ffi.NULL
    if isinstance(be, str):
        be = backend(be)
    if not isinstance(be, Backend) or be._ptr is None:
        raise FalconError(FA_ERR_BADARG, f"not a backend: {be!r}")
    return be._ptr


# ---------------------------------------------------------------------------
# Keys

@dataclass(frozen=True)
class KeyPair:
    secret_key: bytes
    public_key: bytes

    @property
    def logn(self) -> int:
        return get_logn(self.public_key)


def _key(data, scheme: str, private: bool):
    """A key in DER or PEM (PKCS#8, SubjectPublicKeyInfo: falcon_accel.pki)
    decoded to the raw encoding, its scheme checked against the call's;
    anything else (raw keys, ExpandedKey, PreparedPublicKey) as it is."""
    if (isinstance(data, (bytes, bytearray, memoryview)) and len(data) > 0
            and (data[0] == 0x30 or bytes(data[:11]) == b"-----BEGIN ")):
        from . import pki
        return pki.raw_key(data, scheme, private)
    return data


def _buf(data: BytesLike):
    """(pointer, length) for a bytes-like (NULL for empty)."""
    if len(data) == 0:
        return ffi.NULL, 0
    return ffi.from_buffer(data), len(data)


def keygen(logn: int = 9, seed: Optional[BytesLike] = None,
           backend: BackendLike = None, scheme: str = "falcon") -> KeyPair:
    """New key pair of degree 2^logn (9: Falcon-512, 10: Falcon-1024).
    With `seed`, deterministic (tests); otherwise from the OS. FN-DSA
    (``scheme="fn-dsa"``, logn 2..10): `seed` is the 32-byte seed fn-dsa's
    key generator draws (the key is the crate's for that seed)."""
    if scheme_name(scheme) == FNDSA:
        return _fndsa_keygen(logn, seed, backend)
    sk = ffi.new("uint8_t[]", private_key_size(logn))
    pk = ffi.new("uint8_t[]", public_key_size(logn))
    sp, sl = (ffi.NULL, 0) if seed is None else (ffi.from_buffer(seed),
                                                  len(seed))
    if seed is not None and sl == 0:
        sp = ffi.new("uint8_t[1]")
    _check(lib.fa_keygen_alloc(_be(backend), int(logn), sp, sl, sk, len(sk),
                               pk, len(pk)), "keygen")
    return KeyPair(bytes(ffi.buffer(sk)), bytes(ffi.buffer(pk)))


def public_key(secret_key: BytesLike, scheme: str = "falcon") -> bytes:
    """The public key of an encoded private key (raw, DER or PEM)."""
    secret_key = _key(secret_key, scheme, True)
    if scheme_name(scheme) == FNDSA:
        return _fndsa_public_key(secret_key)
    logn = get_logn(secret_key)
    pk = ffi.new("uint8_t[]", public_key_size(logn))
    p, n = _buf(secret_key)
    _check(lib.fa_make_public_alloc(pk, len(pk), p, n), "public key")
    return bytes(ffi.buffer(pk))


class ExpandedKey:
    """An expanded private key (LDL tree) for fast repeated signing. The
    C-allocated buffer is wiped when the object is freed."""

    __slots__ = ("_ptr", "logn", "size", "__weakref__")

    def __init__(self, secret_key: BytesLike, backend: BackendLike = None):
        secret_key = _key(secret_key, "falcon", True)
        out = ffi.new("void **")
        out_len = ffi.new("size_t *")
        p, n = _buf(secret_key)
        _check(lib.fa_expand_privkey_alloc(_be(backend), out, out_len, p, n),
               "expand")
        size = int(out_len[0])
        self._ptr = ffi.gc(out[0], lambda q: lib.fa_free_secret(q, size),
                           size=size)
        self.size = size
        self.logn = get_logn(secret_key)

    def __repr__(self) -> str:
        return f"ExpandedKey(logn={self.logn})"


def expand(secret_key: BytesLike, backend: BackendLike = None) -> ExpandedKey:
    return ExpandedKey(secret_key, backend)


class PreparedPublicKey:
    """A public key decoded to NTT form, reused across verifications."""

    __slots__ = ("_pp", "logn", "public_key")

    def __init__(self, pk: BytesLike, backend: BackendLike = None):
        pk = _key(pk, "falcon", False)
        self._pp = ffi.new("fa_prepared_pubkey *")
        p, n = _buf(pk)
        _check(lib.fa_pubkey_prepare(_be(backend), self._pp, p, n),
               "public key")
        self.logn = int(self._pp.logn)
        self.public_key = bytes(pk)


def prepare(pk: BytesLike, backend: BackendLike = None) -> PreparedPublicKey:
    return PreparedPublicKey(pk, backend)


SecretKeyLike = Union[BytesLike, ExpandedKey]
PublicKeyLike = Union[BytesLike, PreparedPublicKey]


# ---------------------------------------------------------------------------
# Single calls

def _seed(seed: Optional[BytesLike]):
    if seed is None:
        return ffi.NULL, 0
    if len(seed) == 0:
        return ffi.new("uint8_t[1]"), 0
    return ffi.from_buffer(seed), len(seed)


def _logn_of_secret(key: SecretKeyLike) -> int:
    return key.logn if isinstance(key, ExpandedKey) else get_logn(key)


def sign(key: SecretKeyLike, message: BytesLike,
         format: FormatLike = SigFormat.COMPRESSED,
         seed: Optional[BytesLike] = None,
         backend: BackendLike = None, *, scheme: str = "falcon",
         context: Optional[BytesLike] = None, prehash: Optional[str] = None,
         hashed: bool = False, external_mu: bool = False) -> bytes:
    """Sign `message` with an encoded private key or an ExpandedKey. With
    `seed`, the signature is deterministic (tests, KATs).

    ``scheme="fn-dsa"``: FN-DSA with an encoded FN-DSA private key, a
    `context` of 0..255 bytes, `prehash` ("sha256", "sha384", "sha512",
    "sha3-256") for HashFN-DSA, where `message` is hashed here, or is the
    hash already when `hashed`; `external_mu`: `message` is mu (64 bytes,
    compute_mu). `seed`: 40 bytes (fn-dsa's signing randomness; None: from
    the OS). The one FN-DSA signature format is fixed-size (`format`
    "padded", or left at its default). context, prehash, hashed and
    external_mu are FN-DSA's only. A private key may be raw, or PKCS#8
    DER or PEM of the same scheme (falcon_accel.pki)."""
    key = _key(key, scheme, True)
    if scheme_name(scheme) == FNDSA:
        return _fndsa_sign(key, message, format, seed, backend, context,
                           prehash, hashed, external_mu)
    _round3_only(context, prehash, hashed, external_mu)
    f = sig_format(format)
    sig = ffi.new("uint8_t[]", signature_max_size(_logn_of_secret(key)))
    sig_len = ffi.new("size_t *", len(sig))
    sp, sl = _seed(seed)
    mp, ml = _buf(message)
    if isinstance(key, ExpandedKey):
        r = lib.fa_sign_tree_alloc(_be(backend), sp, sl, sig, sig_len, int(f),
                                   key._ptr, mp, ml)
    else:
        kp, kl = _buf(key)
        r = lib.fa_sign_alloc(_be(backend), sp, sl, sig, sig_len, int(f),
                              kp, kl, mp, ml)
        if r != FA_OK and _is_fndsa_secret(key):
            raise error_for(r, f"sign: secret key: {len(key)} bytes, an "
                               "FN-DSA private key (pass scheme='fn-dsa')")
    _check(r, "sign")
    return bytes(ffi.buffer(sig, sig_len[0]))


def verify_status(public_key: PublicKeyLike, message: BytesLike,
                  signature: BytesLike, format: FormatLike = SigFormat.ANY,
                  backend: BackendLike = None, *, scheme: str = "falcon",
                  context: Optional[BytesLike] = None,
                  prehash: Optional[str] = None, hashed: bool = False,
                  external_mu: bool = False) -> int:
    """The C result: 0 (valid), FA_ERR_BADSIG, or a decoding error code
    (FN-DSA: FA_ERR_SCHEME for a round-3 key or signature). The FN-DSA
    options are sign's. The public key may be raw, or SubjectPublicKeyInfo
    DER or PEM of the same scheme (falcon_accel.pki)."""
    public_key = _key(public_key, scheme, False)
    if scheme_name(scheme) == FNDSA:
        return _fndsa_verify_status(public_key, message, signature, format,
                                    backend, context, prehash, hashed,
                                    external_mu)
    _round3_only(context, prehash, hashed, external_mu)
    f = sig_format(format, verify=True)
    mp, ml = _buf(message)
    gp, gl = _buf(signature)
    if gl == 0:
        return FA_ERR_FORMAT
    if isinstance(public_key, PreparedPublicKey):
        item = ffi.new("fa_verify_item *")
        item.sig, item.sig_len, item.pp = gp, gl, public_key._pp
        item.msg, item.msg_len = mp, ml
        r = lib.fa_verify_batch(ffi.NULL, _be(backend), int(f), item, 1)
        return FA_OK if r == 0 else int(item.err) if r > 0 else int(r)
    kp, kl = _buf(public_key)
    return int(lib.fa_verify_alloc(_be(backend), gp, gl, int(f), kp, kl,
                                   mp, ml))


def verify(public_key: PublicKeyLike, message: BytesLike, signature: BytesLike,
           format: FormatLike = SigFormat.ANY,
           backend: BackendLike = None, *, scheme: str = "falcon",
           context: Optional[BytesLike] = None,
           prehash: Optional[str] = None, hashed: bool = False,
           external_mu: bool = False) -> bool:
    """True if `signature` is a valid signature of `message`, False if it
    is well formed but does not verify. A malformed public key or
    signature (wrong header, length, padding, coefficient...) or a bad
    argument raises FalconError with the C code (verify_status returns
    it instead). FN-DSA: ``scheme="fn-dsa"`` and the options of sign; a
    round-3 key or signature raises FalconError (FA_ERR_SCHEME) naming
    which."""
    code = verify_status(public_key, message, signature, format, backend,
                         scheme=scheme, context=context, prehash=prehash,
                         hashed=hashed, external_mu=external_mu)
    if code == FA_ERR_SCHEME and scheme_name(scheme) == FNDSA:
        raise error_for(code, "verify (fn-dsa): "
                        + _fndsa_scheme_culprit(public_key, signature))
    return _verdict(code, "verify")


def _verdict(code: int, what: str) -> bool:
    """True for FA_OK, False for FA_ERR_BADSIG, FalconError otherwise."""
    if code == FA_OK:
        return True
    if code == FA_ERR_BADSIG:
        return False
    raise error_for(code, what)


def verdicts(codes: Sequence[int], what: str = "verify") -> List[bool]:
    """Per-item C results as booleans (True: valid, False: does not
    verify); BatchError (``errors``: every item's code) if any item is
    malformed or failed otherwise."""
    if any(c != FA_OK and c != FA_ERR_BADSIG for c in codes):
        raise BatchError(codes, what, lambda c: c in (FA_OK, FA_ERR_BADSIG))
    return [c == FA_OK for c in codes]


# ---------------------------------------------------------------------------
# FN-DSA (fn-dsa 0.4.0; include/falcon_accel.h, fa_fndsa_*)

FALCON = "falcon"
FNDSA = "fn-dsa"
SCHEMES = (FALCON, FNDSA)
# Pre-hash functions by name (FA_FNDSA_PH_*).
PREHASHES = {"sha256": 1, "sha384": 2, "sha512": 3, "sha3-256": 4}
FNDSA_CONTEXT_MAX = 255
FNDSA_KEYGEN_SEED_SIZE = 32
FNDSA_SIGN_SEED_SIZE = 40
FNDSA_MU_SIZE = 64


def scheme_name(scheme: str) -> str:
    """`scheme` checked: "falcon" (round 3) or "fn-dsa"."""
    if isinstance(scheme, str) and scheme in SCHEMES:
        return scheme
    raise FalconError(FA_ERR_BADARG,
                      f"scheme: {scheme!r} is not one of falcon, fn-dsa")


def prehash_size(prehash: str) -> int:
    """Length of the hash named `prehash` (one of PREHASHES)."""
    ph = PREHASHES.get(prehash) if isinstance(prehash, str) else None
    if ph is None:
        raise FalconError(FA_ERR_BADARG, f"prehash: {prehash!r} is not one "
                          f"of {', '.join(PREHASHES)}")
    return int(lib.fa_fndsa_ph_size(ph))


def _fndsa_size(what: int, logn: int) -> int:
    if not isinstance(logn, int) or not 2 <= logn <= 10:
        raise FalconError(FA_ERR_BADARG, f"logn {logn} not in 2..10 (FN-DSA)")
    return int(lib.fa_py_size(what, logn))


def _round3_only(context, prehash, hashed, external_mu) -> None:
    for name, v in (("context", context), ("prehash", prehash),
                    ("hashed", hashed), ("external_mu", external_mu)):
        if v is not None and v is not False:
            raise FalconError(FA_ERR_BADARG, f"{name}: FN-DSA only "
                              "(scheme='fn-dsa')")


def _fndsa_format(fmt: FormatLike, verify: bool) -> None:
    """FN-DSA has one signature format, fixed-size and zero padded:
    "padded", or the argument's default (compressed / any)."""
    f = sig_format(fmt, verify)
    if f not in (SigFormat.PADDED,
                 SigFormat.ANY if verify else SigFormat.COMPRESSED):
        raise FalconError(FA_ERR_BADARG, f"format: {f.name.lower()}: FN-DSA "
                          "signatures have one format (padded)")


def _fndsa_logn(obj: BytesLike) -> int:
    """logn of an FN-DSA object's header, for buffer sizes (10 when the
    header is not one: the C call then reports it)."""
    logn = obj[0] & 0x0F if len(obj) else 0
    return logn if 2 <= logn <= 10 else 10


def _is_fndsa_secret(key) -> bool:
    return (not isinstance(key, ExpandedKey) and len(key) > 0
            and key[0] & 0xF0 == 0x50 and 2 <= key[0] & 0x0F <= 10
            and len(key) == _fndsa_size(8, key[0] & 0x0F))


def _wipe(buf) -> None:
    """Zero a buffer of ffi.new (an array, or the object a pointer
    points to)."""
    t = ffi.typeof(buf)
    n = ffi.sizeof(t.item) if t.kind == "pointer" else ffi.sizeof(buf)
    ffi.memmove(buf, bytes(n), n)


def _system_rng():
    rng = ffi.new("fa_shake256_ctx *")
    _check(lib.fa_shake256_init_prng_from_system(rng), "OS random source")
    return rng


def _fixed(value: Optional[BytesLike], size: int, what: str):
    """A pointer to exactly `size` bytes, or NULL for None."""
    if value is None:
        return ffi.NULL
    if len(value) != size:
        raise FalconError(FA_ERR_BADARG, f"{what}: {len(value)} bytes, "
                          f"FN-DSA takes {size}")
    return ffi.from_buffer(value)


def _fndsa_input(message: BytesLike, context: Optional[BytesLike],
                 prehash: Optional[str], hashed: bool,
                 external_mu: bool) -> Tuple[bytes, int, BytesLike]:
    """(context, FA_FNDSA_PH_*, message or hash) for the C calls, with
    the message hashed here for a pre-hash unless `hashed`."""
    ctx = b"" if context is None else bytes(context)
    if len(ctx) > FNDSA_CONTEXT_MAX:
        raise FalconError(FA_ERR_BADARG, f"context: {len(ctx)} bytes, more "
                          f"than {FNDSA_CONTEXT_MAX}")
    if external_mu:
        for name, v in (("context", context), ("prehash", prehash),
                        ("hashed", hashed)):
            if v is not None and v is not False:
                raise FalconError(FA_ERR_BADARG, f"{name}: not with "
                                  "external_mu (mu covers them)")
        if len(message) != FNDSA_MU_SIZE:
            raise FalconError(FA_ERR_LENGTH, f"message: {len(message)} "
                              f"bytes, an external mu is {FNDSA_MU_SIZE}")
        return ctx, 0, message
    if prehash is None:
        if hashed:
            raise FalconError(FA_ERR_BADARG, "hashed: needs prehash")
        return ctx, 0, message
    size = prehash_size(prehash)
    ph = PREHASHES[prehash]
    if hashed:
        if len(message) != size:
            raise FalconError(FA_ERR_LENGTH, f"message: {len(message)} "
                              f"bytes, not a {prehash} hash ({size} bytes)")
        return ctx, ph, message
    out = ffi.new("uint8_t[]", size)
    mp, ml = _buf(message)
    _check(lib.fa_fndsa_prehash(out, ph, mp, ml), "prehash")
    return ctx, ph, bytes(ffi.buffer(out))


def _fndsa_keygen(logn: int, seed: Optional[BytesLike],
                  backend: BackendLike) -> KeyPair:
    sk = ffi.new("uint8_t[]", _fndsa_size(8, logn))
    pk = ffi.new("uint8_t[]", _fndsa_size(7, logn))
    tmp = ffi.new("uint8_t[]", _fndsa_size(10, logn))
    sp = _fixed(seed, FNDSA_KEYGEN_SEED_SIZE, "seed")
    try:
        if seed is None:
            rng = _system_rng()
            r = lib.fa_fndsa_keygen(_be(backend), rng, logn, sk, len(sk),
                                    pk, len(pk), tmp, len(tmp))
            _wipe(rng)
        else:
            r = lib.fa_fndsa_keygen_seed(_be(backend), sp, logn, sk, len(sk),
                                         pk, len(pk), tmp, len(tmp))
        _check(r, "keygen (fn-dsa)")
        return KeyPair(bytes(ffi.buffer(sk)), bytes(ffi.buffer(pk)))
    finally:
        _wipe(tmp)
        _wipe(sk)


def _round3_key_message(key: BytesLike) -> str:
    return (f"secret key: a round-3 Falcon private key ({len(key)} bytes), "
            "not an FN-DSA key (scheme='falcon' signs with it)")


def _fndsa_public_key(secret_key: BytesLike) -> bytes:
    logn = _fndsa_logn(secret_key)
    pk = ffi.new("uint8_t[]", _fndsa_size(7, logn))
    tmp = ffi.new("uint8_t[]", _fndsa_size(11, logn))
    kp, kl = _buf(secret_key)
    try:
        r = lib.fa_fndsa_make_public(pk, len(pk), kp, kl, tmp, len(tmp))
    finally:
        _wipe(tmp)
    if r == FA_ERR_SCHEME:
        raise error_for(r, "public key (fn-dsa): "
                        + _round3_key_message(secret_key))
    _check(r, "public key (fn-dsa)")
    return bytes(ffi.buffer(pk))


def _fndsa_sign(key, message, format, seed, backend, context, prehash,
                hashed, external_mu) -> bytes:
    if isinstance(key, ExpandedKey):
        raise FalconError(FA_ERR_BADARG, "sign (fn-dsa): an ExpandedKey is "
                          "round 3's; pass the encoded FN-DSA private key")
    _fndsa_format(format, False)
    ctx, ph, msg = _fndsa_input(message, context, prehash, hashed,
                                external_mu)
    sp = _fixed(seed, FNDSA_SIGN_SEED_SIZE, "seed")
    logn = _fndsa_logn(key)
    sig = ffi.new("uint8_t[]", _fndsa_size(9, logn))
    tmp = ffi.new("uint8_t[]", _fndsa_size(11, logn))
    kp, kl = _buf(key)
    cp, cl = _buf(ctx)
    mp, ml = _buf(msg)
    be = _be(backend)
    rng = _system_rng() if seed is None else ffi.NULL
    try:
        if external_mu:
            r = lib.fa_fndsa_sign_mu(be, rng, sp, sig, len(sig), kp, kl,
                                     ffi.from_buffer(msg), tmp, len(tmp))
        elif seed is None:
            r = lib.fa_fndsa_sign(be, rng, sig, len(sig), kp, kl, cp, cl,
                                  ph, mp, ml, tmp, len(tmp))
        else:
            r = lib.fa_fndsa_sign_seed(be, sp, sig, len(sig), kp, kl, cp,
                                       cl, ph, mp, ml, tmp, len(tmp))
    finally:
        _wipe(tmp)
        if rng != ffi.NULL:
            _wipe(rng)
    if r == FA_ERR_SCHEME:
        raise error_for(r, "sign (fn-dsa): " + _round3_key_message(key))
    _check(r, "sign (fn-dsa)")
    return bytes(ffi.buffer(sig))


def _fndsa_verify_status(public_key, message, signature, format, backend,
                         context, prehash, hashed, external_mu) -> int:
    if isinstance(public_key, PreparedPublicKey):
        raise FalconError(FA_ERR_BADARG, "verify (fn-dsa): a "
                          "PreparedPublicKey is round 3's; pass the encoded "
                          "FN-DSA public key")
    _fndsa_format(format, True)
    ctx, ph, msg = _fndsa_input(message, context, prehash, hashed,
                                external_mu)
    gp, gl = _buf(signature)
    if gl == 0:
        return FA_ERR_FORMAT
    kp, kl = _buf(public_key)
    cp, cl = _buf(ctx)
    mp, ml = _buf(msg)
    tmp = ffi.new("uint8_t[]", _fndsa_size(12, _fndsa_logn(public_key)))
    if external_mu:
        return int(lib.fa_fndsa_verify_mu(_be(backend), gp, gl, kp, kl,
                                          ffi.from_buffer(msg), tmp,
                                          len(tmp)))
    return int(lib.fa_fndsa_verify(_be(backend), gp, gl, kp, kl, cp, cl, ph,
                                   mp, ml, tmp, len(tmp)))


def _fndsa_scheme_culprit(public_key: BytesLike, signature: BytesLike) -> str:
    """Which of a key and a signature FN-DSA refused as round 3's
    (FA_ERR_SCHEME): the key if it alone is refused, else the
    signature."""
    mu = ffi.new("uint8_t[64]")
    kp, kl = _buf(public_key)
    if lib.fa_fndsa_compute_mu(mu, kp, kl, ffi.NULL, 0, 0, ffi.NULL, 0) \
            == FA_ERR_SCHEME:
        return "public key: a round-3 Falcon public key, not an FN-DSA key"
    return (f"signature: a round-3 Falcon signature ({len(signature)} "
            "bytes), not an FN-DSA signature")


def compute_mu(public_key: BytesLike, message: BytesLike, *,
               context: Optional[BytesLike] = None,
               prehash: Optional[str] = None, hashed: bool = False) -> bytes:
    """FN-DSA's message representative mu (64 bytes) for a public key, a
    context and a message (or its pre-hash), as sign and verify compute
    it: what ``external_mu=True`` signs and verifies."""
    ctx, ph, msg = _fndsa_input(message, context, prehash, hashed, False)
    mu = ffi.new("uint8_t[64]")
    kp, kl = _buf(public_key)
    cp, cl = _buf(ctx)
    mp, ml = _buf(msg)
    r = lib.fa_fndsa_compute_mu(mu, kp, kl, cp, cl, ph, mp, ml)
    if r == FA_ERR_SCHEME:
        raise error_for(r, "compute_mu (fn-dsa): public key: a round-3 "
                        "Falcon public key, not an FN-DSA key")
    _check(r, "compute_mu (fn-dsa): public key")
    return bytes(ffi.buffer(mu))


# ---------------------------------------------------------------------------
# Batches

class Pool:
    """A C worker pool (one thread per CPU by default) for sign_batch /
    verify_batch. Usable from many Python threads at once."""

    def __init__(self, threads: int = 0):
        ptr = lib.fa_pool_new(int(threads))
        if ptr == ffi.NULL:
            raise FalconError(FA_ERR_INTERNAL, "pool")
        self._ptr = ffi.gc(ptr, lib.fa_pool_free)

    @property
    def threads(self) -> int:
        return int(lib.fa_pool_size(self._ptr))

    def close(self) -> None:
        if self._ptr is not None:
            ffi.release(self._ptr)
            self._ptr = None

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_default_pool: Optional[Pool] = None
_default_pool_lock = threading.Lock()


def default_pool() -> Pool:
    """A process-wide Pool with one thread per CPU, created on first use."""
    global _default_pool
    with _default_pool_lock:
        if _default_pool is None:
            _default_pool = Pool()
        return _default_pool


def cpu_count() -> int:
    return int(lib.fa_cpu_count())


def sign_batch(items: Iterable[Tuple[SecretKeyLike, BytesLike]],
               format: FormatLike = SigFormat.COMPRESSED,
               pool: Optional[Pool] = None,
               seeds: Optional[Sequence[BytesLike]] = None,
               backend: BackendLike = None) -> List[bytes]:
    """Sign many (key, message) pairs on the pool (the default pool when
    None), with the GIL released. Raises BatchError if any item fails."""
    f = sig_format(format)
    items = list(items)
    n = len(items)
    if n == 0:
        return []
    if seeds is not None and len(seeds) != n:
        raise FalconError(FA_ERR_BADARG, "one seed per item")
    arr = ffi.new("fa_sign_item[]", n)
    keep = []
    sigbufs = []
    for i, (key, msg) in enumerate(items):
        it = arr[i]
        if isinstance(key, ExpandedKey):
            it.expanded_key = key._ptr
            logn = key.logn
        else:
            kp, kl = _buf(key)
            it.sk, it.sk_len = kp, kl
            keep.append(kp)
            # A bad header is reported by the C call, per item.
            logn = key[0] & 0x0F if len(key) and 1 <= key[0] & 0x0F <= 10 \
                else 10
        mp, ml = _buf(msg)
        it.msg, it.msg_len = mp, ml
        keep.append(mp)
        sb = ffi.new("uint8_t[]", signature_max_size(logn))
        sigbufs.append(sb)
        it.sig, it.sig_len = sb, len(sb)
        if seeds is not None:
            sp, sl = _seed(seeds[i])
            it.seed, it.seed_len = sp, sl
            keep.append(sp)
    p = (pool or default_pool())._ptr
    r = lib.fa_sign_batch(p, _be(backend), int(f), arr, n)
    if r < 0:
        raise FalconError(r, "sign_batch")
    if r > 0:
        raise BatchError([int(arr[i].err) for i in range(n)], "sign_batch")
    return [bytes(ffi.buffer(sigbufs[i], arr[i].sig_len)) for i in range(n)]


def verify_batch_status(items: Iterable[Tuple[PublicKeyLike, BytesLike,
                                              BytesLike]],
                        format: FormatLike = SigFormat.ANY,
                        pool: Optional[Pool] = None,
                        backend: BackendLike = None) -> List[int]:
    """Verify many (public key, message, signature) triples on the pool;
    each item's C result (0, FA_ERR_BADSIG or a decoding error)."""
    f = sig_format(format, verify=True)
    items = list(items)
    n = len(items)
    if n == 0:
        return []
    arr = ffi.new("fa_verify_item[]", n)
    keep = []
    for i, (pk, msg, sig) in enumerate(items):
        it = arr[i]
        if isinstance(pk, PreparedPublicKey):
            it.pp = pk._pp
        else:
            kp, kl = _buf(pk)
            it.pk, it.pk_len = kp, kl
            keep.append(kp)
        mp, ml = _buf(msg)
        gp, gl = _buf(sig)
        if gl == 0:
            gp = ffi.new("uint8_t[1]")
        it.msg, it.msg_len, it.sig, it.sig_len = mp, ml, gp, gl
        keep.append(mp)
        keep.append(gp)
    p = (pool or default_pool())._ptr
    r = lib.fa_verify_batch(p, _be(backend), int(f), arr, n)
    if r < 0:
        raise FalconError(r, "verify_batch")
    return [int(arr[i].err) for i in range(n)]


def verify_batch(items: Iterable[Tuple[PublicKeyLike, BytesLike, BytesLike]],
                 format: FormatLike = SigFormat.ANY,
                 pool: Optional[Pool] = None,
                 backend: BackendLike = None) -> List[bool]:
    """Like verify_batch_status, as booleans (True = valid, False = does
    not verify), as verify() for each item: BatchError (``errors``: every
    item's code) if an item is malformed."""
    return verdicts(verify_batch_status(items, format, pool, backend),
                    "verify_batch")
