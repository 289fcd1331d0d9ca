"""The request broker of the C library, from Python.

A ``Broker`` owns C worker threads, a bounded queue and a key cache (see
service/include/falcon_accel_edge.h). Submission copies the inputs and returns at
once; a full queue raises ``BusyError``. Results are read from a ``Job``
(blocking ``wait`` releases the GIL) or awaited in asyncio: the broker's
completion pipe is watched by the event loop, so no Python code runs on
the C threads.

The C broker runs round-3 items. FN-DSA items (``SignItem`` /
``VerifyItem`` with ``scheme="fn-dsa"``, given to ``sign_items`` /
``verify_items_status`` and their ``_async`` forms, which also take
round-3 items and send those to the C broker) run on the broker's Python
fallback: a thread pool of the broker's size calling the package's
FN-DSA functions (the GIL released in each C call), bounded by the
queue capacity (BusyError), with the job's deadline (items not started
by then get FA_ERR_DEADLINE) and cancellation.
"""
from __future__ import annotations

import array
import asyncio
import concurrent.futures
import itertools
import os
import threading
import time
from typing import (Any, Callable, Dict, List, NamedTuple, Optional,
                    Sequence, Tuple, Union)

from . import core
from ._ffi import CONSTANTS, ffi, lib
from .core import (FA_ERR_BADARG, FA_ERR_BUSY, FA_ERR_CANCELLED,
                   FA_ERR_DEADLINE, FA_OK, BackendLike, BatchError,
                   BytesLike, FalconError, FormatLike, _be, _check,
                   error_for, sig_format, verdicts)
from .keystore import KeyRegistry

SIZE_T = "Q" if ffi.sizeof("size_t") == 8 else "I"
OP_SIGN = 1
OP_VERIFY = 2
JOB_PENDING = 1


class PackedItems:
    """The items of one broker job in the broker's packed form, the one
    representation from Python to the C workers: ``data`` holds, item by
    item, the key, the message and (verification) the signature back to
    back; ``lens`` their lengths (2 or 3 per item, size_t); ``n`` items.
    Build it with ``PackedItems.of`` from tuples, or
    ``PackedItems.from_json`` from a service request body."""

    __slots__ = ("op", "data", "lens", "n")

    def __init__(self, op: int, data: BytesLike, lens: "array.array",
                 n: int):
        if op not in (OP_SIGN, OP_VERIFY):
            raise FalconError(FA_ERR_BADARG, f"unknown operation {op}")
        if n < 1 or len(lens) != self.width(op) * n:
            raise FalconError(FA_ERR_BADARG, "empty job or malformed item")
        self.op, self.data, self.lens, self.n = op, data, lens, n

    @staticmethod
    def width(op: int) -> int:
        """Fields per item: key, message[, signature]."""
        return 3 if op == OP_VERIFY else 2

    @classmethod
    def of(cls, op: int, items: "ItemsLike") -> "PackedItems":
        """From (key, message) or (public key, message, signature)
        tuples; a PackedItems of the same operation is returned as is."""
        if isinstance(items, PackedItems):
            if items.op != op:
                raise FalconError(FA_ERR_BADARG, "items of another operation")
            return items
        width = cls.width(op)
        parts = [p for t in items for p in t[:width]]
        n = len(parts) // width
        if n == 0 or len(parts) != width * n or \
                any(len(t) != width for t in items):
            raise FalconError(FA_ERR_BADARG, "empty job or malformed item")
        return cls(op, b"".join(parts), array.array(SIZE_T, map(len, parts)),
                   n)

    @classmethod
    def from_json(cls, op: int, body: bytes,
                  key_of: Callable[[str], Optional[bytes]],
                  max_items: int) -> Optional[Tuple["PackedItems",
                                                    Optional[str]]]:
        """A service batch body (``{"format": F, "items": [{"key_id",
        "message"[, "signature"]}, ...]}``, base64 fields) read by the
        batch parser (C, the one BatchFront uses) without a Python object
        per item: the keys come from ``key_of(key_id)`` (the distinct ids
        only). Returns (items, the "format" string or None), or None for
        anything else (other fields, escapes, an unknown key id, invalid
        base64, more than max_items items or BATCH_MAX_KEYS key ids...):
        the caller then parses the body itself and reports the
        culprit."""
        front = BatchFront(max(1, max_items))
        info = ffi.new("size_t[5]")
        if lib.fa_py_front_parse(front._ptr, op, body, len(body),
                                 info) != FA_OK:
            return None
        n, nkeys, foff, flen = info[0], info[1], info[2], info[3]
        ln = ffi.new("size_t *")
        keys = []
        for k in range(nkeys):
            off = lib.fa_py_front_key_id(front._ptr, k, ln)
            key = key_of(body[off:off + ln[0]].decode("ascii"))
            if key is None:
                return None
            keys.append(key)
        keyblob = b"".join(keys)
        klens = array.array(SIZE_T, map(len, keys))
        cap = n * max(klens) + len(body)
        out = bytearray(cap)
        lens = array.array(SIZE_T, bytes(ffi.sizeof("size_t")
                                         * cls.width(op) * n))
        r = lib.fa_py_front_pack(
            front._ptr, ffi.from_buffer(keyblob),
            ffi.from_buffer("size_t[]", klens), nkeys, ffi.from_buffer(out),
            cap, ffi.from_buffer("size_t[]", lens))
        if r < 0:
            return None
        fmt = None if flen == _NO_SPAN else \
            body[foff:foff + flen].decode("ascii")
        return cls(op, memoryview(out)[:r], lens, n), fmt

    def field_lengths(self, k: int) -> "array.array":
        """Lengths of field k (0 key, 1 message, 2 signature) of every
        item."""
        return self.lens[k::self.width(self.op)]


# Distinct key ids one batch request may name for the batch parser (more:
# the caller's strict Python fallback): FA_PY_BATCH_MAX_KEYS, defined once
# in service/python/src/fa_py.h and read from there.
BATCH_MAX_KEYS = CONSTANTS["FA_PY_BATCH_MAX_KEYS"]

# Why the batch parser left a body to the strict Python fallback
# (BatchFront.last_fallback): the FA_PY_FALLBACK_* reasons of fa_py.h.
FALLBACK_REASONS = {v: k[len("FA_PY_FALLBACK_"):].lower()
                    for k, v in CONSTANTS.items()
                    if k.startswith("FA_PY_FALLBACK_")}


class BatchFront:
    """The service's batch requests in C: the one parser of a batch body
    (service/python/src/fa_py_batch_front.c), from JSON body to the
    items of a broker job and from the done job to the JSON answer (no
    Python object per item). It looks key ids up in a key registry
    (``registry``: the service's KeyStore registry, or one of its own
    that ``add_key`` fills); a body it does not take (other fields,
    escapes, more than BATCH_MAX_KEYS key ids, an unknown or FN-DSA key
    id, invalid base64, impossible sizes, a format not spelled exactly)
    is left to the caller's strict Python fallback, with the reason in
    ``last_fallback`` (a FALLBACK_REASONS name). Use it from one thread
    (the event loop): its scratch buffers are reused by every request
    (the broker copies the items at submission). Run requests with
    ``Broker.run_json_batch``."""

    def __init__(self, max_items: int,
                 registry: Optional[KeyRegistry] = None):
        self.registry = registry if registry is not None else KeyRegistry()
        ptr = lib.fa_py_front_new_keys(max(1, max_items),
                                       self.registry._ptr)
        if ptr == ffi.NULL:
            raise FalconError(FA_ERR_BADARG, "batch front")
        self._ptr = ffi.gc(ptr, lib.fa_py_front_free)
        self._job = ffi.new("fa_job **")
        self._fmt = ffi.new("int *")
        self._cap = 1 << 16
        self._out = ffi.new("char[]", self._cap)
        self.last_fallback: Optional[str] = None

    def add_key(self, key_id: str, public_key: bytes,
                secret_key: Optional[bytes] = None) -> None:
        """Record a falcon key in the registry (again: replaced)."""
        self.registry.put(key_id, core.FALCON, public_key, secret_key)

    def __contains__(self, key_id: str) -> bool:
        """A key id the front serves: a falcon key of the registry."""
        rec = self.registry.get(key_id)
        return rec is not None and rec.scheme == core.FALCON

    def __len__(self) -> int:
        return int(lib.fa_py_front_key_count(self._ptr))


ItemsLike = Union[PackedItems, Sequence[Tuple]]


class SignItem(NamedTuple):
    """A signing item of either scheme (Broker.sign_items): an encoded
    private key and a message; FN-DSA: a context, a pre-hash (the message
    hashed here, or the hash itself when `hashed`), as falcon_accel.sign
    takes them."""
    key: BytesLike
    message: BytesLike
    scheme: str = "falcon"
    context: Optional[BytesLike] = None
    prehash: Optional[str] = None
    hashed: bool = False


class VerifyItem(NamedTuple):
    """A verification item of either scheme (Broker.verify_items_status):
    an encoded public key, a message and a signature; FN-DSA options as
    SignItem's."""
    key: BytesLike
    message: BytesLike
    signature: BytesLike
    scheme: str = "falcon"
    context: Optional[BytesLike] = None
    prehash: Optional[str] = None
    hashed: bool = False


class _Fallback:
    """The broker's Python fallback for FN-DSA items: `threads` threads
    (started on first use), at most `capacity` items pending (queued or
    running; more: BusyError), items not started by their deadline get
    FA_ERR_DEADLINE, those not started at close FA_ERR_CANCELLED. Each
    item's result is (code, value)."""

    def __init__(self, threads: int, capacity: int):
        self.pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, threads),
            thread_name_prefix="falcon-accel-fn-dsa")
        self.capacity = capacity
        self.pending = 0
        self.closing = False
        self.lock = threading.Lock()

    def submit(self, fn: Callable, args: Sequence[Tuple],
               deadline: Optional[float]) -> List[concurrent.futures.Future]:
        with self.lock:
            if self.closing:
                raise FalconError(FA_ERR_BADARG, "broker closed")
            if self.pending + len(args) > self.capacity:
                raise error_for(FA_ERR_BUSY, "submit (fn-dsa)")
            self.pending += len(args)
        futs = []
        for a in args:
            f = self.pool.submit(self._run, fn, a, deadline)
            f.add_done_callback(self._done)
            futs.append(f)
        return futs

    def _run(self, fn: Callable, args: Tuple, deadline: Optional[float]):
        if self.closing:
            return FA_ERR_CANCELLED, None
        if deadline is not None and time.monotonic() > deadline:
            return FA_ERR_DEADLINE, None
        try:
            return FA_OK, fn(*args)
        except FalconError as e:
            return e.code, None

    def _done(self, fut) -> None:
        with self.lock:
            self.pending -= 1

    def close(self) -> None:
        with self.lock:
            self.closing = True
        self.pool.shutdown(wait=True)


def _fndsa_sign(be: BackendLike, item: SignItem) -> bytes:
    return core.sign(item.key, item.message, scheme=core.FNDSA,
                     context=item.context, prehash=item.prehash,
                     hashed=item.hashed, backend=be)


def _fndsa_verify(be: BackendLike, item: VerifyItem) -> int:
    return core.verify_status(item.key, item.message, item.signature,
                              scheme=core.FNDSA, context=item.context,
                              prehash=item.prehash, hashed=item.hashed,
                              backend=be)


def _default(format: FormatLike, default: str) -> FormatLike:
    return default if format is None else format


def _cancel(futs) -> None:
    for f in futs:
        f.cancel()


def _outcome(codes: List[int], results: List[Any], what: str) -> List[Any]:
    """As a C job's: a cut item raises DeadlineError / CancelledError, a
    failed sign item BatchError."""
    for cut in (FA_ERR_DEADLINE, FA_ERR_CANCELLED):
        if cut in codes:
            raise error_for(cut, "job")
    if what == "sign" and any(c != FA_OK for c in codes):
        raise BatchError(codes, what)
    return results


_NO_SPAN = (1 << (8 * ffi.sizeof("size_t"))) - 1


class Job:
    """A submitted job (sign or verify, one or more items)."""

    __slots__ = ("_ptr", "op", "count")

    def __init__(self, ptr):
        # Owns one C reference.
        self._ptr = ffi.gc(ptr, lib.fa_job_release)
        self.op = int(lib.fa_job_op(ptr))
        self.count = int(lib.fa_job_count(ptr))

    def done(self) -> bool:
        return bool(lib.fa_job_is_done(self._ptr))

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Block (GIL released) until done or `timeout` seconds; True if
        done."""
        us = -1 if timeout is None else max(0, int(timeout * 1e6))
        return bool(lib.fa_job_wait(self._ptr, us))

    @property
    def status(self) -> int:
        """1 while pending, then 0, FA_ERR_CANCELLED or FA_ERR_DEADLINE."""
        return int(lib.fa_job_status(self._ptr))

    @property
    def latency_us(self) -> int:
        return int(lib.fa_job_latency_us(self._ptr))

    def cancel(self) -> bool:
        """Cancel the items not started yet; True if any were."""
        return bool(lib.fa_job_cancel(self._ptr))

    def item_statuses(self) -> List[int]:
        out = ffi.new("int[]", self.count)
        lib.fa_job_item_statuses(self._ptr, out, self.count)
        return list(out)

    def signatures(self) -> List[Optional[bytes]]:
        """Sign jobs: each item's signature, None where the item failed."""
        if self.op != OP_SIGN:
            raise FalconError(FA_ERR_BADARG, "not a sign job")
        sig = ffi.new("const uint8_t **")
        ln = ffi.new("size_t *")
        out: List[Optional[bytes]] = []
        for i in range(self.count):
            r = lib.fa_job_signature(self._ptr, i, sig, ln)
            out.append(bytes(ffi.buffer(sig[0], ln[0])) if r == FA_OK
                       else None)
        return out

    def raise_for_status(self) -> None:
        st = self.status
        if st == JOB_PENDING:
            raise FalconError(FA_ERR_BADARG, "job still pending")
        _check(st, "job")

    def release(self) -> None:
        """Drop the C reference now (otherwise at garbage collection)."""
        if self._ptr is not None:
            ffi.release(self._ptr)
            self._ptr = None


class _AsyncBinding:
    """Completion-queue watcher for one event loop."""

    def __init__(self, broker: "Broker", loop: asyncio.AbstractEventLoop):
        self.broker = broker
        self.loop = loop
        self.fd = int(lib.fa_broker_completion_fd(broker._ptr))
        self.pending: Dict[int, asyncio.Future] = {}
        self.jobs = ffi.new("fa_job *[]", 256)
        loop.add_reader(self.fd, self.drain)

    def drain(self) -> None:
        try:
            # A short read emptied the pipe (no EAGAIN exception to raise
            # on every wake-up).
            while len(os.read(self.fd, 4096)) == 4096:
                pass
        except BlockingIOError:
            pass
        b = self.broker._ptr
        if b is None:
            return
        while True:
            k = lib.fa_broker_poll(b, self.jobs, len(self.jobs))
            for i in range(k):
                ptr = self.jobs[i]
                tag = int(lib.fa_job_tag(ptr))
                lib.fa_job_release(ptr)  # the submitter's Job holds one
                fut = self.pending.pop(tag, None)
                if fut is not None and not fut.done():
                    fut.set_result(None)
            if k < len(self.jobs):
                break

    def close(self) -> None:
        try:
            self.loop.remove_reader(self.fd)
        except Exception:
            pass
        for fut in self.pending.values():
            if not fut.done():
                fut.cancel()
        self.pending.clear()


class Broker:
    """Python handle on a C broker. Thread-safe for submissions; the
    asyncio methods must be used from a single event loop."""

    def __init__(self, threads: int = 0, queue_capacity: int = 0,
                 queue_max_bytes: int = 0, max_batch: int = 0,
                 key_cache_bytes: int = 0, backend: BackendLike = None):
        cfg = ffi.new("fa_broker_config *")
        lib.fa_broker_config_init(cfg)
        cfg.threads = threads
        cfg.queue_capacity = queue_capacity
        cfg.queue_max_bytes = queue_max_bytes
        cfg.max_batch = max_batch
        cfg.key_cache_bytes = key_cache_bytes
        cfg.backend = _be(backend)
        err = ffi.new("int *")
        ptr = lib.fa_broker_new(cfg, err)
        if ptr == ffi.NULL:
            raise error_for(err[0], "broker")
        self._ptr = ptr
        self._lock = threading.Lock()
        self._tags = itertools.count(1)
        self._async: Optional[_AsyncBinding] = None
        m = self.metrics()
        self.threads = int(m["threads"])
        self._backend = backend
        self._fallback = _Fallback(self.threads, int(m["queue_capacity"]))

    # -- life cycle ---------------------------------------------------------

    def close(self) -> None:
        """Stop: queued jobs complete as cancelled, threads are joined."""
        with self._lock:
            ptr, self._ptr = self._ptr, None
        if ptr is None:
            return
        if self._async is not None:
            self._async.close()
            self._async = None
        self._fallback.close()
        lib.fa_broker_free(ptr)

    def __enter__(self) -> "Broker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def _b(self):
        if self._ptr is None:
            raise FalconError(FA_ERR_BADARG, "broker closed")
        return self._ptr

    # -- submission -----------------------------------------------------------

    def submit(self, items: "PackedItems", format: FormatLike = None,
               timeout: Optional[float] = None, backend: BackendLike = None,
               notify: bool = False, tag: int = 0) -> Job:
        """Queue a job of packed items (the one submission path; the
        helpers below pack their tuples first). `format`: a signing
        format (default compressed) or, for verification, one more
        "any" (the default)."""
        verify = items.op == OP_VERIFY
        fmt = int(sig_format(format if format is not None else
                             ("any" if verify else "compressed"), verify))
        opt = ffi.new("fa_job_options *")
        opt.op = items.op
        opt.be = _be(backend)
        opt.sig_format = fmt
        opt.timeout_us = 0 if timeout is None else max(1, int(timeout * 1e6))
        opt.tag = tag
        opt.notify = 1 if notify else 0
        out = ffi.new("fa_job **")
        data = items.data
        r = lib.fa_broker_submit_packed(
            self._b(), opt, ffi.from_buffer(data) if len(data) else ffi.NULL,
            len(data), ffi.from_buffer("size_t[]", items.lens), items.n, out)
        _check(r, "submit")
        return Job(out[0])

    def submit_sign(self, items: ItemsLike, format: FormatLike = "compressed",
                    timeout: Optional[float] = None,
                    backend: BackendLike = None) -> Job:
        """Queue (private key, message) items; raises BusyError when the
        queue is full. `timeout`: deadline in seconds from now."""
        return self.submit(PackedItems.of(OP_SIGN, items), format, timeout,
                           backend)

    def submit_verify(self, items: ItemsLike, format: FormatLike = "any",
                      timeout: Optional[float] = None,
                      backend: BackendLike = None) -> Job:
        """Queue (public key, message, signature) items."""
        return self.submit(PackedItems.of(OP_VERIFY, items), format, timeout,
                           backend)

    # -- blocking helpers -----------------------------------------------------

    @staticmethod
    def _sign_results(job: Job) -> List[bytes]:
        job.raise_for_status()
        sigs = job.signatures()
        if any(s is None for s in sigs):
            raise BatchError(job.item_statuses(), "sign")
        return sigs  # type: ignore[return-value]

    @staticmethod
    def _verify_results(job: Job) -> List[int]:
        job.raise_for_status()
        return job.item_statuses()

    def sign(self, items: ItemsLike, format: FormatLike = "compressed",
             timeout: Optional[float] = None,
             backend: BackendLike = None) -> List[bytes]:
        """Signatures in item order; BatchError if an item failed."""
        job = self.submit_sign(items, format, timeout, backend)
        job.wait()
        return self._sign_results(job)

    def verify_status(self, items: ItemsLike, format: FormatLike = "any",
                      timeout: Optional[float] = None,
                      backend: BackendLike = None) -> List[int]:
        """Each item's C result: 0 (valid), FA_ERR_BADSIG or a decoding
        error code."""
        job = self.submit_verify(items, format, timeout, backend)
        job.wait()
        return self._verify_results(job)

    def verify(self, items: ItemsLike, format: FormatLike = "any",
               timeout: Optional[float] = None,
               backend: BackendLike = None) -> List[bool]:
        """Booleans as falcon_accel.verify_batch: True valid, False does
        not verify; BatchError (``errors``: the codes) if an item is
        malformed. verify_status gives the codes."""
        return verdicts(self.verify_status(items, format, timeout, backend),
                        "verify")

    # -- items of either scheme (FN-DSA on the Python fallback) ---------------

    @staticmethod
    def _split(items: List[Any], format: FormatLike, verify: bool):
        """(round-3 indexes, FN-DSA indexes), the arguments checked: the
        round-3 items take no FN-DSA option, `format` is round 3's and
        FN-DSA's one format (padded) or the default. Plain tuples in
        `items` become SignItem / VerifyItem."""
        cls = VerifyItem if verify else SignItem
        items[:] = [it if isinstance(it, cls) else cls(*it) for it in items]
        r3, fn = [], []
        for i, it in enumerate(items):
            if core.scheme_name(it.scheme) == core.FNDSA:
                fn.append(i)
            else:
                core._round3_only(it.context, it.prehash, it.hashed, False)
                r3.append(i)
        if fn and format is not None:
            core._fndsa_format(format, verify)
        return r3, fn

    def _submit_fallback(self, op: int, items: Sequence[Any],
                         timeout: Optional[float],
                         backend: BackendLike):
        be = backend if backend is not None else self._backend
        _be(be)     # an unknown backend: raised here
        fn = _fndsa_sign if op == OP_SIGN else _fndsa_verify
        deadline = None if timeout is None else time.monotonic() + timeout
        self._b()
        return self._fallback.submit(fn, [(be, it) for it in items],
                                     deadline)

    def sign_items(self, items: Sequence[SignItem],
                   format: FormatLike = None,
                   timeout: Optional[float] = None,
                   backend: BackendLike = None) -> List[bytes]:
        """Signatures of items of either scheme, in item order (round-3
        items in one C job, FN-DSA items on the fallback). `format`: the
        round-3 items' (default compressed); FN-DSA signatures have one
        format (an explicit format must then be "padded"). BatchError if
        an item failed, BusyError / DeadlineError as for sign."""
        items = list(items)
        r3, fn = self._split(items, format, False)
        futs = self._submit_fallback(OP_SIGN, [items[i] for i in fn],
                                     timeout, backend) if fn else []
        try:
            job = self.submit_sign(
                [(items[i].key, items[i].message) for i in r3],
                _default(format, "compressed"), timeout,
                backend) if r3 else None
        except BaseException:
            _cancel(futs)
            raise
        if job is not None:
            job.wait()
        return self._sign_merge(items, r3, fn, job,
                                [f.result() for f in futs])

    def verify_items_status(self, items: Sequence[VerifyItem],
                            format: FormatLike = None,
                            timeout: Optional[float] = None,
                            backend: BackendLike = None) -> List[int]:
        """Each item's C result (0 valid, FA_ERR_BADSIG, a decoding
        error; FN-DSA: FA_ERR_SCHEME for a round-3 key or signature),
        items of either scheme. `format`: as sign_items' ("any" the
        default)."""
        items = list(items)
        r3, fn = self._split(items, format, True)
        futs = self._submit_fallback(OP_VERIFY, [items[i] for i in fn],
                                     timeout, backend) if fn else []
        try:
            job = self.submit_verify(
                [(items[i].key, items[i].message, items[i].signature)
                 for i in r3], _default(format, "any"), timeout,
                backend) if r3 else None
        except BaseException:
            _cancel(futs)
            raise
        if job is not None:
            job.wait()
        return self._verify_merge(items, r3, fn, job,
                                  [f.result() for f in futs])

    def _sign_merge(self, items, r3, fn, job, fn_out) -> List[bytes]:
        codes = [FA_OK] * len(items)
        sigs: List[Any] = [None] * len(items)
        if job is not None:
            job.raise_for_status()
            for i, c, sig in zip(r3, job.item_statuses(), job.signatures()):
                codes[i], sigs[i] = c, sig
        for i, (c, sig) in zip(fn, fn_out):
            codes[i], sigs[i] = c, sig
        return _outcome(codes, sigs, "sign")

    def _verify_merge(self, items, r3, fn, job, fn_out) -> List[int]:
        codes = [FA_OK] * len(items)
        if job is not None:
            for i, c in zip(r3, self._verify_results(job)):
                codes[i] = c
        # (code, result): a call that raised, or was cut, has no result.
        for i, (c, result) in zip(fn, fn_out):
            codes[i] = result if c == FA_OK else c
        return _outcome(codes, codes, "verify")

    async def _await_fallback(self, futs) -> List[Tuple]:
        """The fallback's results, awaited; cancelling the awaiting task
        cancels the items not started."""
        try:
            return list(await asyncio.gather(
                *(asyncio.wrap_future(f) for f in futs)))
        except asyncio.CancelledError:
            _cancel(futs)
            raise

    async def _items_async(self, op: int, items: Sequence[Any],
                           format: FormatLike, timeout: Optional[float],
                           backend: BackendLike):
        items = list(items)
        verify = op == OP_VERIFY
        r3, fn = self._split(items, format, verify)
        width = PackedItems.width(op)
        fmt = _default(format, "any" if verify else "compressed")
        futs = self._submit_fallback(op, [items[i] for i in fn], timeout,
                                     backend) if fn else []
        try:
            job = await self.run_async(PackedItems.of(
                op, [tuple(items[i][:width]) for i in r3]), fmt, timeout,
                backend) if r3 else None
        except BaseException:
            _cancel(futs)
            raise
        fn_out = await self._await_fallback(futs)
        return (self._verify_merge if verify else self._sign_merge)(
            items, r3, fn, job, fn_out)

    async def sign_items_async(self, items: Sequence[SignItem],
                               format: FormatLike = None,
                               timeout: Optional[float] = None,
                               backend: BackendLike = None) -> List[bytes]:
        """sign_items without blocking the event loop."""
        return await self._items_async(OP_SIGN, items, format, timeout,
                                       backend)

    async def verify_items_status_async(
            self, items: Sequence[VerifyItem], format: FormatLike = None,
            timeout: Optional[float] = None,
            backend: BackendLike = None) -> List[int]:
        """verify_items_status without blocking the event loop."""
        return await self._items_async(OP_VERIFY, items, format, timeout,
                                       backend)

    # -- asyncio ----------------------------------------------------------------

    def _binding(self) -> _AsyncBinding:
        loop = asyncio.get_running_loop()
        if self._async is not None and self._async.loop.is_closed():
            self._async.close()
            self._async = None
        if self._async is None:
            self._async = _AsyncBinding(self, loop)
        elif self._async.loop is not loop:
            raise FalconError(FA_ERR_BADARG,
                              "broker is bound to another event loop")
        return self._async

    async def run_async(self, items: "PackedItems",
                        format: FormatLike = None,
                        timeout: Optional[float] = None,
                        backend: BackendLike = None) -> Job:
        """Submit packed items and await the job without blocking the event
        loop (cancelling the awaiting task cancels the C job); the done
        Job is returned. BusyError at once when the queue is full."""
        binding = self._binding()
        tag = next(self._tags)
        fut = binding.loop.create_future()
        binding.pending[tag] = fut
        try:
            job = self.submit(items, format, timeout, backend, True, tag)
        except BaseException:
            binding.pending.pop(tag, None)
            raise
        try:
            await fut
        except asyncio.CancelledError:
            binding.pending.pop(tag, None)
            job.cancel()
            raise
        return job

    async def sign_async(self, items: ItemsLike,
                         format: FormatLike = "compressed",
                         timeout: Optional[float] = None,
                         backend: BackendLike = None) -> List[bytes]:
        """Sign without blocking the event loop; BusyError at once when
        the queue is full, DeadlineError if `timeout` passed."""
        job = await self.run_async(PackedItems.of(OP_SIGN, items), format,
                                   timeout, backend)
        return self._sign_results(job)

    async def verify_status_async(self, items: ItemsLike,
                                  format: FormatLike = "any",
                                  timeout: Optional[float] = None,
                                  backend: BackendLike = None) -> List[int]:
        """Each item's C result (0 = valid), awaited."""
        job = await self.run_async(PackedItems.of(OP_VERIFY, items), format,
                                   timeout, backend)
        return self._verify_results(job)

    async def verify_async(self, items: ItemsLike, format: FormatLike = "any",
                           timeout: Optional[float] = None,
                           backend: BackendLike = None) -> List[bool]:
        """Booleans as verify(), awaited."""
        return verdicts(await self.verify_status_async(items, format,
                                                       timeout, backend),
                        "verify")

    async def run_json_batch(self, front: "BatchFront", op: int,
                             body: bytes,
                             timeout: Optional[float] = None
                             ) -> Optional[bytes]:
        """A service batch body through `front` (see BatchFront): the
        compact JSON answer once the job is done, or None when the body is
        left to the caller's strict Python fallback (then nothing was
        submitted; front.last_fallback says why).
        BusyError at once when the queue is full; the job's errors
        (cancelled, deadline, a sign item that failed) are raised as by
        sign_async / verify_status_async."""
        binding = self._binding()
        tag = next(self._tags)
        fut = binding.loop.create_future()
        binding.pending[tag] = fut
        f = front
        r = lib.fa_py_front_submit(
            f._ptr, self._b(), op, body, len(body),
            0 if timeout is None else max(1, int(timeout * 1e6)), tag,
            f._job, f._fmt)
        f.last_fallback = None
        if r != FA_OK:
            binding.pending.pop(tag, None)
            if r > 0:
                f.last_fallback = FALLBACK_REASONS.get(r, str(r))
                return None
            _check(r, "submit")
        job = Job(f._job[0])
        try:
            await fut
        except asyncio.CancelledError:
            binding.pending.pop(tag, None)
            job.cancel()
            raise
        try:
            need = lib.fa_py_job_json_size(job._ptr)
            if need > f._cap:
                f._cap = max(need, 2 * f._cap)
                f._out = ffi.new("char[]", f._cap)
            n = lib.fa_py_job_json(job._ptr, f._fmt[0], f._out, f._cap)
            if n < 0:   # raises the job's error
                (self._sign_results if op == OP_SIGN
                 else self._verify_results)(job)
                raise RuntimeError("batch answer not written")
            return ffi.unpack(f._out, n)
        finally:
            job.release()

    # -- keys and metrics -------------------------------------------------------

    def preload_key(self, key: BytesLike, kind: int = OP_SIGN) -> None:
        """Expand a private key (kind OP_SIGN) or prepare a public key
        (OP_VERIFY) into the broker's cache now."""
        _check(lib.fa_broker_preload_key(self._b(), kind,
                                         ffi.from_buffer(key), len(key)),
               "preload")

    def forget_key(self, key: BytesLike, kind: int = OP_SIGN) -> bool:
        return bool(lib.fa_broker_forget_key(self._b(), kind,
                                             ffi.from_buffer(key), len(key)))

    def metrics(self) -> Dict[str, Any]:
        m = ffi.new("fa_broker_metrics *")
        lib.fa_broker_get_metrics(self._b(), m)
        out: Dict[str, Any] = {}
        for name, _ in ffi.typeof("fa_broker_metrics").fields:
            if name in ("batch_hist", "backend"):
                continue
            out[name] = int(getattr(m, name))
        out["batch_hist"] = list(m.batch_hist)
        out["backends"] = [
            {"name": ffi.string(s.name).decode(),
             "sign_items": int(s.sign_items),
             "verify_items": int(s.verify_items),
             "batches": int(s.batches), "busy_us": int(s.busy_us)}
            for s in m.backend[0:m.backend_count]]
        return out
