"""cffi (ABI mode) declarations of the falcon-accel C library and loading.

The declarations are generated from the C headers when the module is
imported (_cdef.py); the structure layouts are then checked against the
compiled library (_check_layout).

The shared object ``_falcon_accel.so`` is built by CMake from the same
sources as the C library (service/python/falcon_accel_py.cmake) and installed next
to this file. ``FALCON_ACCEL_LIB`` overrides its path (development: point
it at a build directory's ``_falcon_accel.so``).

cffi releases the GIL around every C call, so batch calls and broker waits
let other Python threads run.
"""
from __future__ import annotations

import os
from pathlib import Path

from cffi import FFI

from . import _cdef

ABI_VERSION = 6

# Generated from include/falcon_accel.h, service/include/falcon_accel_edge.h and
# service/python/src/fa_py.h (see _cdef.py); nothing is declared by hand.
CDEF = _cdef.cdef_text(_cdef.CORE_HEADERS)
# Their integer constants (#define NAME value), as C compiles them.
CONSTANTS = _cdef.header_constants(_cdef.CORE_HEADERS)

ffi = FFI()
ffi.cdef(CDEF)

LIB_NAME = "_falcon_accel.so"


def _find_library() -> str:
    env = os.environ.get("FALCON_ACCEL_LIB")
    if env:
        return env
    here = Path(__file__).resolve().parent / LIB_NAME
    if here.exists():
        return str(here)
    raise ImportError(
        f"falcon_accel: {LIB_NAME} not found next to {__file__}; install the "
        "package with 'pip install ./service/python' or set FALCON_ACCEL_LIB to a "
        "built _falcon_accel.so")


lib = ffi.dlopen(_find_library())


def _check_layout() -> None:
    """Refuse to run with declarations that differ from the compiled C."""
    if lib.fa_py_abi_version() != ABI_VERSION:
        raise ImportError("falcon_accel: shared library ABI version mismatch")
    checks = [
        (0, ffi.sizeof("fa_sign_item")),
        (1, ffi.sizeof("fa_verify_item")),
        (2, ffi.sizeof("fa_broker_config")),
        (3, ffi.sizeof("fa_job_options")),
        (4, ffi.sizeof("fa_broker_item")),
        (5, ffi.sizeof("fa_broker_metrics")),
        (6, ffi.sizeof("fa_prepared_pubkey")),
        (7, ffi.offsetof("fa_broker_metrics", "backend")),
        (8, ffi.offsetof("fa_job_options", "notify")),
    ]
    for what, size in checks:
        if lib.fa_py_sizeof(what) != size:
            raise ImportError(
                f"falcon_accel: structure layout {what} differs between "
                "_ffi.py and the C headers")


_check_layout()
