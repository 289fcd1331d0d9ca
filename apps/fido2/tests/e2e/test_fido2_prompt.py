"""--user-presence prompt: the daemon sends KEEPALIVE (UPNEEDED) while it
waits at the console, approves on "y", denies on anything else, and a
CTAPHID_CANCEL from the client ends the wait with KEEPALIVE_CANCEL."""
from __future__ import annotations

import hashlib
import threading

import pytest
from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2
from fido2.hid import STATUS

import fido2_udp
from conftest import next_ports
from fido2_udp import ALG_FNDSA512

CDH = hashlib.sha256(b"prompt").digest()
RP = {"id": "example.com", "name": "Example"}
USER = {"id": b"u1", "name": "u"}
PARAMS = [{"type": "public-key", "alg": ALG_FNDSA512}]


@pytest.fixture
def prompt_daemon(tmp_path):
    port, reply = next_ports()
    d = fido2_udp.Daemon(tmp_path / "state", port, reply, up="prompt")
    d.start()
    yield d
    d.stop()


def test_prompt_approve_deny_cancel(prompt_daemon):
    d = prompt_daemon
    ctap = Ctap2(fido2_udp.open_device(d.port, d.reply_port))
    seen = []

    def answer(text):
        def on_keepalive(status):
            seen.append(status)
            if len(seen) == 1 or seen[-2] != status:
                d.answer(text)
        return on_keepalive

    att = ctap.make_credential(CDH, RP, USER, PARAMS, on_keepalive=answer("y"))
    assert STATUS.UPNEEDED in seen
    assert att.auth_data.flags & 0x01
    seen.clear()
    with pytest.raises(CtapError) as e:
        ctap.make_credential(CDH, RP, USER, PARAMS, on_keepalive=answer("n"))
    assert e.value.code == CtapError.ERR.OPERATION_DENIED
    # Cancel from the client while the daemon waits at the prompt.
    ev = threading.Event()
    seen.clear()

    def cancel(status):
        seen.append(status)
        ev.set()
    with pytest.raises(CtapError) as e:
        ctap.make_credential(CDH, RP, USER, PARAMS, event=ev, on_keepalive=cancel)
    assert e.value.code == CtapError.ERR.KEEPALIVE_CANCEL
    # Still serving afterwards.
    assert ctap.get_info().versions
