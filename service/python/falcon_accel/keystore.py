"""Key directory of the signing service.

Layout: ``<id>.key`` (encoded private key, mode 0600), ``<id>.pub``
(encoded public key, 0644) and ``<id>.scheme`` (the key's scheme, the line
``falcon`` or ``fn-dsa``, 0644; absent: falcon, as in directories written
before FN-DSA), where ``<id>`` is the first 32 hex digits of SHA-256 of
the public key. A key is imported by writing these files (``fn-dsa`` in
``<id>.scheme`` for an FN-DSA key) or with ``KeyStore.add``. Files are
written atomically: a temporary file in the same directory is written,
fsynced and renamed over the final name, then the directory is fsynced;
the private key is written last, so a crash leaves either no key or a
whole one. Ids are checked against ``[0-9a-f]{32}`` before any path is
built.

The keys in memory are in the key registry (``KeyRegistry``), the one
place that knows the service's keys: id, scheme, degree, encoded public
and private key. It is C (service/python/src/fa_py_keys.c): the store
records there every key it creates, imports or loads, and the batch
parser of the service (``falcon_accel.broker.BatchFront``) looks the key
ids of a request up there, with no second table in Python or in C.
"""
from __future__ import annotations

import hashlib
import os
import re
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from . import core
from ._ffi import ffi, lib

KEY_ID_RE = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class KeyRecord:
    key_id: str
    logn: int
    public_key: bytes
    secret_key: bytes
    scheme: str = core.FALCON


_SCHEME_CODES = {core.FALCON: 0, core.FNDSA: 1}   # FA_PY_SCHEME_*
_SCHEME_NAMES = {v: k for k, v in _SCHEME_CODES.items()}
_KEY_ROOM = 4096        # more than any encoded key


class KeyRegistry:
    """The key registry (C; fa_py.h): key id -> scheme, degree, encoded
    public key, encoded private key (or none). Thread-safe. A key id is
    1 to 64 characters of ASCII; ``put`` checks that the public key is
    one of the scheme (its header gives the degree) and that the private
    key has that degree's size, and raises FalconError otherwise."""

    def __init__(self):
        ptr = lib.fa_py_keys_new()
        if ptr == ffi.NULL:
            raise core.FalconError(core.FA_ERR_INTERNAL, "key registry")
        self._ptr = ffi.gc(ptr, lib.fa_py_keys_free)

    def put(self, key_id: str, scheme: str, public_key: bytes,
            secret_key: Optional[bytes] = None) -> None:
        """Record a key (again: replaced)."""
        if scheme not in _SCHEME_CODES:
            raise core.FalconError(core.FA_ERR_BADARG, f"key {key_id}: "
                                   f"scheme {scheme!r} is not one of "
                                   f"{', '.join(core.SCHEMES)}")
        kid = key_id.encode("ascii")
        sk = ffi.NULL if secret_key is None else ffi.from_buffer(secret_key)
        core._check(lib.fa_py_keys_put(
            self._ptr, kid, len(kid), _SCHEME_CODES[scheme],
            ffi.from_buffer(public_key), len(public_key), sk,
            0 if secret_key is None else len(secret_key)),
            f"key {key_id}")

    def get(self, key_id: str) -> Optional["KeyRecord"]:
        """The key, or None if the registry does not have it. A key
        recorded without its private key has secret_key b""."""
        try:
            kid = key_id.encode("ascii")
        except (UnicodeEncodeError, AttributeError):
            return None
        scheme, logn = ffi.new("int *"), ffi.new("unsigned *")
        pk, sk = ffi.new("uint8_t[]", _KEY_ROOM), \
            ffi.new("uint8_t[]", _KEY_ROOM)
        pk_len, sk_len = ffi.new("size_t *", _KEY_ROOM), \
            ffi.new("size_t *", _KEY_ROOM)
        r = lib.fa_py_keys_get(self._ptr, kid, len(kid), scheme, logn, pk,
                               pk_len, sk, sk_len)
        if r != core.FA_OK:
            return None
        try:
            return KeyRecord(key_id, int(logn[0]),
                             bytes(ffi.buffer(pk, pk_len[0])),
                             bytes(ffi.buffer(sk, sk_len[0])),
                             _SCHEME_NAMES[scheme[0]])
        finally:
            core._wipe(sk)

    def __contains__(self, key_id: str) -> bool:
        return self.get(key_id) is not None

    def count(self, scheme: Optional[str] = None) -> int:
        """Keys recorded, of `scheme` (None: all)."""
        return int(lib.fa_py_keys_count(
            self._ptr, -1 if scheme is None else _SCHEME_CODES[scheme]))

    def __len__(self) -> int:
        return self.count()


def key_id_of(public_key: bytes) -> str:
    return hashlib.sha256(public_key).hexdigest()[:32]


def write_atomic(path: Path, data: bytes, mode: int) -> None:
    """Write `data` to `path` atomically with permissions `mode`."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                 mode)
    try:
        os.fchmod(fd, mode)          # whatever the umask
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    os.close(fd)
    os.rename(tmp, path)
    dfd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


class KeyStore:
    """Thread-safe key directory; the keys it has created, imported or
    loaded are in its key registry (`registry`: the one given, or a new
    one)."""

    def __init__(self, directory: os.PathLike,
                 registry: Optional[KeyRegistry] = None):
        self.dir = Path(directory)
        self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.registry = registry if registry is not None else KeyRegistry()
        self._lock = threading.Lock()

    def create(self, logn: int = 9, scheme: str = core.FALCON) -> KeyRecord:
        """A new key pair of `scheme` ("falcon" or "fn-dsa"), stored."""
        kp = core.keygen(logn, scheme=scheme)
        return self._store(kp.secret_key, kp.public_key, scheme)

    def add(self, secret_key: bytes, scheme: str = core.FALCON) -> KeyRecord:
        """Import an encoded private key of `scheme` (checked: its public
        key is recomputed; FalconError if it is not a key of that
        scheme). A DER or PEM key (PKCS#8) is stored in its raw
        encoding."""
        pk = core.public_key(secret_key, scheme=scheme)
        return self._store(bytes(core._key(secret_key, scheme, True)), pk,
                           scheme)

    def _store(self, sk: bytes, pk: bytes, scheme: str) -> KeyRecord:
        kid = key_id_of(pk)
        write_atomic(self.dir / f"{kid}.scheme", f"{scheme}\n".encode(),
                     0o644)
        write_atomic(self.dir / f"{kid}.pub", pk, 0o644)
        write_atomic(self.dir / f"{kid}.key", sk, 0o600)
        rec = KeyRecord(kid, core.get_logn(pk), pk, sk, scheme)
        with self._lock:
            self.registry.put(kid, scheme, pk, sk)
        return rec

    def get(self, key_id: str) -> Optional[KeyRecord]:
        """The key, or None if the id is malformed or unknown."""
        if not isinstance(key_id, str) or not KEY_ID_RE.match(key_id):
            return None
        rec = self.registry.get(key_id)
        if rec is not None:
            return rec
        try:
            sk = (self.dir / f"{key_id}.key").read_bytes()
            pk = (self.dir / f"{key_id}.pub").read_bytes()
        except FileNotFoundError:
            return None
        try:
            scheme = (self.dir / f"{key_id}.scheme").read_text().strip()
        except FileNotFoundError:
            scheme = core.FALCON
        if scheme not in core.SCHEMES:
            raise core.FalconError(-14, f"key {key_id}: {key_id}.scheme "
                                   f"holds {scheme[:20]!r}, not falcon or "
                                   "fn-dsa")
        if key_id_of(pk) != key_id or \
                core.public_key(sk, scheme=scheme) != pk:
            raise core.FalconError(-14, f"key {key_id} is inconsistent")
        rec = KeyRecord(key_id, core.get_logn(pk), pk, sk, scheme)
        with self._lock:
            self.registry.put(key_id, scheme, pk, sk)
        return rec

    def ids(self):
        return sorted(p.stem for p in self.dir.glob("*.key")
                      if KEY_ID_RE.match(p.stem))
