"""Shared fixtures. Run from a checkout without installing with
PYTHONPATH=python FALCON_ACCEL_LIB=<build>/_falcon_accel.so pytest service/python/tests
(the library is built by CMake with -DCMAKE_PROJECT_falcon_accel_INCLUDE=
service/python/skbuild_hook.cmake), or after `pip install ./service/python`."""
import os
from pathlib import Path

import pytest

import falcon_accel as fa

KEY_CACHE = {}


def keypair(logn: int, n: int = 0) -> fa.KeyPair:
    """Deterministic test key pairs, generated once per session."""
    k = (logn, n)
    if k not in KEY_CACHE:
        KEY_CACHE[k] = fa.keygen(logn, seed=b"pytest key %d %d" % k)
    return KEY_CACHE[k]


@pytest.fixture(scope="session")
def kp512() -> fa.KeyPair:
    return keypair(9)


def shared_dir() -> Path:
    env = os.environ.get("FA_SHARED_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3].parent / "shared"
