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
                      FA_OK)


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


def public_key_size(logn: int) -> int:
    return _size(0, logn)


def private_key_size(logn: int) -> int:
    return _size(1, logn)


def expanded_key_size(logn: int) -> int:
    return _size(5, logn)


def signature_size(logn: int, fmt: FormatLike = SigFormat.COMPRESSED) -> int:
    """Exact size for the padded and CT formats, the maximum for
    compressed."""
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


def _buf(data: BytesLike):
    """(pointer, length) for a bytes-like (NULL for empty)."""
    if len(data) == 0:
        return ffi.NULL, 0
    return ffi.from_buffer(data), len(data)


def keygen(logn: int = 9, seed: Optional[BytesLike] = None,
           backend: BackendLike = None) -> KeyPair:
    """New key pair of degree 2^logn (9: Falcon-512, 10: Falcon-1024).
    With `seed`, deterministic (tests); otherwise from the OS."""
    sk = ffi.new("uint8_t[]", private_key_size(logn))
    pk = ffi.new("uint8_t[]", public_key_size(logn))
    sp, sl = (ffi.NULL, 0) if seed is None else (ffi.from_buffer(seed),
                                                  len(seed))
    if seed is not None and sl == 0:
        sp = ffi.new("uint8_t[1]")
    _check(lib.fa_keygen_alloc(_be(backend), int(logn), sp, sl, sk, len(sk),
                               pk, len(pk)), "keygen")
    return KeyPair(bytes(ffi.buffer(sk)), bytes(ffi.buffer(pk)))


def public_key(secret_key: BytesLike) -> bytes:
    """The public key of an encoded private key."""
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
         backend: BackendLike = None) -> bytes:
    """Sign `message` with an encoded private key or an ExpandedKey. With
    `seed`, the signature is deterministic (tests, KATs)."""
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
    _check(r, "sign")
    return bytes(ffi.buffer(sig, sig_len[0]))


def verify_status(public_key: PublicKeyLike, message: BytesLike,
                  signature: BytesLike, format: FormatLike = SigFormat.ANY,
                  backend: BackendLike = None) -> int:
    """The C result: 0 (valid), FA_ERR_BADSIG, or a decoding error code."""
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
           backend: BackendLike = None) -> bool:
    """True if `signature` is a valid signature of `message`, False if it
    is well formed but does not verify. A malformed public key or
    signature (wrong header, length, padding, coefficient...) or a bad
    argument raises FalconError with the C code (verify_status returns
    it instead)."""
    return _verdict(verify_status(public_key, message, signature, format,
                                  backend), "verify")


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
