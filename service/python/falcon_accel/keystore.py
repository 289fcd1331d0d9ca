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
"""
from __future__ import annotations

import hashlib
import os
import re
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional

from . import core

KEY_ID_RE = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class KeyRecord:
    key_id: str
    logn: int
    public_key: bytes
    secret_key: bytes
    scheme: str = core.FALCON


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
    """Thread-safe key directory with an in-memory cache."""

    def __init__(self, directory: os.PathLike):
        self.dir = Path(directory)
        self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._cache: Dict[str, KeyRecord] = {}
        self._lock = threading.Lock()

    def create(self, logn: int = 9, scheme: str = core.FALCON) -> KeyRecord:
        """A new key pair of `scheme` ("falcon" or "fn-dsa"), stored."""
        kp = core.keygen(logn, scheme=scheme)
        return self._store(kp.secret_key, kp.public_key, scheme)

    def add(self, secret_key: bytes, scheme: str = core.FALCON) -> KeyRecord:
        """Import an encoded private key of `scheme` (checked: its public
        key is recomputed; FalconError if it is not a key of that
        scheme)."""
        return self._store(bytes(secret_key),
                           core.public_key(secret_key, scheme=scheme), scheme)

    def _store(self, sk: bytes, pk: bytes, scheme: str) -> KeyRecord:
        kid = key_id_of(pk)
        write_atomic(self.dir / f"{kid}.scheme", f"{scheme}\n".encode(),
                     0o644)
        write_atomic(self.dir / f"{kid}.pub", pk, 0o644)
        write_atomic(self.dir / f"{kid}.key", sk, 0o600)
        rec = KeyRecord(kid, core.get_logn(pk), pk, sk, scheme)
        with self._lock:
            self._cache[kid] = rec
        return rec

    def get(self, key_id: str) -> Optional[KeyRecord]:
        """The key, or None if the id is malformed or unknown."""
        if not isinstance(key_id, str) or not KEY_ID_RE.match(key_id):
            return None
        with self._lock:
            rec = self._cache.get(key_id)
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
            self._cache[key_id] = rec
        return rec

    def ids(self):
        return sorted(p.stem for p in self.dir.glob("*.key")
                      if KEY_ID_RE.match(p.stem))
