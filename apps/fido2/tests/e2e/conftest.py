"""Fixtures: a falcon-accel-fido2 daemon on a fresh state directory and a
python-fido2 client/server pair talking to it over UDP."""
from __future__ import annotations

import itertools
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fido2_udp  # noqa: E402

# Distinct port pairs per daemon (tests may restart a daemon).
_BASE = int(os.environ.get("FIDO2_TEST_PORT_BASE", "28111"))
_ports = itertools.count(0)


def next_ports():
    i = next(_ports)
    return _BASE + 2 * i, _BASE + 2 * i + 1


@pytest.fixture
def daemon(tmp_path):
    port, reply = next_ports()
    d = fido2_udp.Daemon(tmp_path / "state", port, reply)
    d.start()
    yield d
    rc = d.stop()
    # A daemon stopped with SIGTERM exits 0; a killed one is not checked.
    assert rc in (0, -9), "daemon exit status %s" % rc
