#!/usr/bin/env python3
"""Register and sign in with an FN-DSA-512 credential on falcon-accel-fido2.

python-fido2's Fido2Client plays the browser, its Fido2Server the relying
party ("example.com"); the authenticator is the daemon, reached over
CTAPHID-over-UDP. The relying party verifies the FN-DSA signatures with the
FNDSA512 CoseKey class of apps/fido2/tests/e2e/fido2_udp.py: through the
falcon_accel Python package when the installed one has FN-DSA, else the
build's command-line tool (falcon-accel beside the daemon's build tree, or
$FIDO2_CLI).

    falcon-accel-fido2 --state /tmp/fido2-state &     # in another terminal
    python3 apps/fido2/host/example_webauthn.py [--port 8111] [--reply-port 7112]

With --start DAEMON the script starts the daemon itself on a temporary state
directory and stops it at the end.
"""
import argparse
import struct
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "e2e"))

import fido2_udp  # noqa: E402  (UDP transport + FN-DSA CoseKey classes)
from fido2.client import DefaultClientDataCollector, Fido2Client, UserInteraction  # noqa: E402
from fido2.server import Fido2Server  # noqa: E402
from fido2.webauthn import (PublicKeyCredentialParameters,  # noqa: E402
                            PublicKeyCredentialRpEntity,
                            PublicKeyCredentialType,
                            PublicKeyCredentialUserEntity,
                            ResidentKeyRequirement,
                            UserVerificationRequirement)


class Touch(UserInteraction):
    def prompt_up(self):
        print("  (authenticator asks for user presence)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=8111)
    ap.add_argument("--reply-port", type=int, default=7112)
    ap.add_argument("--start", metavar="DAEMON",
                    help="start this falcon-accel-fido2 binary on a temporary state")
    args = ap.parse_args()

    daemon = None
    if args.start:
        fido2_udp.os.environ["FIDO2_DAEMON"] = args.start
        daemon = fido2_udp.Daemon(Path(tempfile.mkdtemp()) / "state",
                                  args.port, args.reply_port)
        daemon.start()
    try:
        dev = fido2_udp.open_device(args.port, args.reply_port)
        client = Fido2Client(dev, DefaultClientDataCollector("https://example.com"),
                             user_interaction=Touch())
        rp = PublicKeyCredentialRpEntity(id="example.com", name="Example")
        server = Fido2Server(rp)
        server.allowed_algorithms = [PublicKeyCredentialParameters(
            type=PublicKeyCredentialType.PUBLIC_KEY, alg=fido2_udp.ALG_FNDSA512)]
        user = PublicKeyCredentialUserEntity(id=b"user-0001", name="alice",
                                             display_name="Alice")

        print("1. registration")
        options, state = server.register_begin(
            user, resident_key_requirement=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.DISCOURAGED)
        reg = client.make_credential(options.public_key)
        auth_data = server.register_complete(state, reg)
        cred = auth_data.credential_data
        print("   credential id  %s... (%d bytes)" % (cred.credential_id[:8].hex(),
                                                    len(cred.credential_id)))
        print("   public key     COSE alg %d, %d-byte FN-DSA-512 key"
              % (cred.public_key[3], len(cred.public_key[-1])))

        print("2. sign-in without an allow list (discoverable credential)")
        options, state = server.authenticate_begin(
            user_verification=UserVerificationRequirement.DISCOURAGED)
        result = client.get_assertion(options.public_key).get_response(0)
        server.authenticate_complete(state, [cred], result)
        sig = bytes(result.response.signature)
        counter = struct.unpack(">I", bytes(result.response.authenticator_data)[33:37])[0]
        print("   signature      %d bytes (FN-DSA-512, header 0x%02x), verified by"
              " the RP (%s)" % (len(sig), sig[0], fido2_udp.fndsa_verifier()))
        print("   user handle    %r, signature counter %d"
              % (bytes(result.response.user_handle), counter))
        print("OK")
    finally:
        if daemon:
            daemon.stop()


if __name__ == "__main__":
    main()
