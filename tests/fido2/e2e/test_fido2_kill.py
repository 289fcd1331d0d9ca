"""Durability: the daemon is killed with SIGKILL at random instants while it
creates discoverable credentials and signs assertions; after every restart
each credential it acknowledged must still be there (found without an
allow list under its own rpId, with its user handle), the store must load
(no torn or corrupt file) and every signature counter must exceed all
counters seen before the kill."""
from __future__ import annotations

import hashlib
import os
import random
import threading

from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2

import fido2_udp
from conftest import next_ports
from fido2_udp import ALG_FNDSA512

ROUNDS = int(os.environ.get("FIDO2_KILL_ROUNDS", "12"))
PER_ROUND = 6


def counter(auth_data) -> int:
    return int.from_bytes(bytes(auth_data)[33:37], "big")


def test_kill9_keeps_acknowledged_credentials_and_counter(tmp_path):
    port, reply = next_ports()
    d = fido2_udp.Daemon(tmp_path / "state", port, reply)
    rnd = random.Random(20261123)
    acked = {}          # rpId -> (user handle, credential id, public key)
    max_counter = 0
    kills_mid_request = 0
    cdh = hashlib.sha256(b"kill test").digest()
    for rnd_i in range(ROUNDS):
        d.start()
        assert not list((tmp_path / "state").glob("*.tmp")), "tmp file survived start"
        dev = fido2_udp.open_device(port, reply, alive=d.alive)
        ctap = Ctap2(dev)
        # Everything acknowledged so far is present, counters move forward.
        for rp, (uid, cid, pub) in acked.items():
            a = ctap.get_assertion(rp, cdh)
            assert a.user["id"] == uid, rp
            assert a.credential["id"] == cid, rp
            assert counter(a.auth_data) > max_counter
            max_counter = counter(a.auth_data)
            pub.verify(bytes(a.auth_data) + cdh, a.signature)
        killer = threading.Timer(rnd.uniform(0.005, 0.25), d.kill9)
        killer.start()
        made = 0
        try:
            while True:
                if made < PER_ROUND:
                    rp = "r%d-%d.example" % (rnd_i, made)
                    uid = b"user-%d-%d" % (rnd_i, made)
                    att = ctap.make_credential(
                        cdh, {"id": rp, "name": rp}, {"id": uid, "name": "u"},
                        [{"type": "public-key", "alg": ALG_FNDSA512}],
                        options={"rk": True})
                    cd = att.auth_data.credential_data
                    assert counter(att.auth_data) > max_counter
                    max_counter = counter(att.auth_data)
                    acked[rp] = (uid, cd.credential_id, cd.public_key)
                    made += 1
                else:
                    rp = rnd.choice(sorted(acked))
                    a = ctap.get_assertion(rp, cdh)
                    assert counter(a.auth_data) > max_counter
                    max_counter = counter(a.auth_data)
        except (ConnectionError, OSError, CtapError) as e:
            assert not d.alive(), "request failed while the daemon runs: %r" % e
            kills_mid_request += 1
        killer.join()
        d.kill9()
        dev.close()
        d.stop()
    assert kills_mid_request == ROUNDS
    assert len(acked) > 0
    # Final check after the last kill.
    d.start()
    dev = fido2_udp.open_device(port, reply, alive=d.alive)
    ctap = Ctap2(dev)
    for rp, (uid, cid, pub) in acked.items():
        a = ctap.get_assertion(rp, cdh)
        assert a.user["id"] == uid and a.credential["id"] == cid
        assert counter(a.auth_data) > max_counter
        max_counter = counter(a.auth_data)
    dev.close()
    d.stop()
