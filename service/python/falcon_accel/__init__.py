"""falcon_accel: Falcon signatures (round 3, and FN-DSA as fn-dsa 0.4.0
makes them: ``scheme="fn-dsa"``) from the falcon-accel C library.

    import falcon_accel as fa
    kp = fa.keygen(9)
    sig = fa.sign(kp.secret_key, b"message")
    assert fa.verify(kp.public_key, b"message", sig)

``verify`` returns False only for a signature that does not verify; a
malformed key or signature raises FalconError (``verify_status`` gives the
C code instead).

Batch calls (sign_batch, verify_batch) run on a C worker pool with the
GIL released; Broker gives queued, batched, asyncio-friendly submission.
The HTTP service is ``python -m falcon_accel.server``, its load test
``python -m falcon_accel.loadtest``.
"""
from .core import (PREHASHES, SCHEMES, BatchError, Backend, BusyError,
                   CancelledError, DeadlineError, ExpandedKey, FalconError,
                   KeyPair, Pool, PreparedPublicKey, SigFormat, backend,
                   backends, compute_mu, cpu_count, default_backend,
                   default_pool, expand,
                   expanded_key_size, get_logn, keygen, prepare,
                   private_key_size, public_key, public_key_size, sig_format,
                   sign, sign_batch, signature_max_size, signature_size,
                   strerror, verdicts, verify, verify_batch,
                   verify_batch_status, verify_status)
from .broker import (Broker, Job, OP_SIGN, OP_VERIFY, PackedItems, SignItem,
                     VerifyItem)

__version__ = "0.1.0"

__all__ = [
    "PREHASHES", "SCHEMES",
    "BatchError", "Backend", "Broker", "BusyError", "CancelledError",
    "DeadlineError", "ExpandedKey", "FalconError", "Job", "KeyPair",
    "OP_SIGN", "OP_VERIFY", "PackedItems", "Pool", "PreparedPublicKey", "SigFormat",
    "SignItem", "VerifyItem",
    "backend", "backends", "compute_mu", "cpu_count", "default_backend", "default_pool",
    "expand", "expanded_key_size", "get_logn", "keygen", "prepare",
    "private_key_size", "public_key", "public_key_size", "sig_format",
    "sign", "sign_batch", "signature_max_size", "signature_size", "strerror",
    "verdicts", "verify", "verify_batch", "verify_batch_status",
    "verify_status",
]
