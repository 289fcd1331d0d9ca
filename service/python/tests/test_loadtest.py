"""The load test: bounded runs against an in-process server and a spawned
one, with every response checked; only loopback targets are accepted."""
import asyncio
import json

import pytest

from falcon_accel import loadtest
from falcon_accel.server import RunningServer
from starlette.responses import Response

TOKEN = "loadtest-token-0123456789"


@pytest.mark.parametrize("mode", ["verify-batch", "sign-batch", "verify",
                                  "sign"])
def test_load_modes_are_correct(tmp_path, mode):
    with RunningServer(tmp_path / "k", TOKEN, threads=2) as srv:
        rep = asyncio.run(loadtest.run_load(
            "127.0.0.1", srv.port, TOKEN, mode, clients=3, duration=1.0,
            max_requests=60, batch=16))
    assert rep["errors"] == 0, rep["error_samples"]
    assert 0 < rep["requests"] <= 60
    assert rep["latency_ms"]["p50"] <= rep["latency_ms"]["p99"] \
        <= rep["latency_ms"]["max"]
    if mode.startswith("sign"):
        assert rep["signatures_checked"] == rep["requests"] * \
            rep["items_per_request"]


def test_load_detects_wrong_answers(tmp_path):
    with RunningServer(tmp_path / "k", TOKEN, threads=1) as srv:
        # A service that answers every verification with "valid".
        async def liar(headers, body):
            n = len(json.loads(body)["items"])
            return Response(json.dumps({"results": [True] * n,
                                        "valid": n}).encode(),
                            media_type="application/json")
        srv.service.verify_batch = liar
        rep = asyncio.run(loadtest.run_load(
            "127.0.0.1", srv.port, TOKEN, "verify-batch", clients=1,
            duration=0.5, max_requests=5, batch=8))
    assert rep["errors"] > 0 and "wrong verify" in rep["error_samples"][0]


@pytest.mark.parametrize("sig", ["AAAA", "not base64!", 7])
def test_load_detects_bad_signatures(tmp_path, sig):
    """Signatures that are malformed, not base64 or not strings count as
    errors (checked after the timed phase), without stopping the run."""
    with RunningServer(tmp_path / "k", TOKEN, threads=1) as srv:
        async def liar(headers, body):
            n = len(json.loads(body)["items"])
            return Response(json.dumps({"format": "compressed",
                                        "signatures": [sig] * n}).encode(),
                            media_type="application/json")
        srv.service.sign_batch = liar
        rep = asyncio.run(loadtest.run_load(
            "127.0.0.1", srv.port, TOKEN, "sign-batch", clients=1,
            duration=0.5, max_requests=3, batch=4))
    assert rep["errors"] > 0 and rep["requests"] > 0
    assert "signatures" in rep["error_samples"][0]


def test_only_loopback_targets():
    loadtest.check_loopback("127.0.0.1")
    loadtest.check_loopback("localhost")
    for host in ("192.0.2.10", "10.1.2.3"):
        with pytest.raises(loadtest.LoadTestError):
            loadtest.check_loopback(host)
    assert loadtest.main(["--url", "http://192.0.2.10:8080",
                          "--duration", "1"]) == 1


def test_cli_spawn_with_baseline(capsys):
    rc = loadtest.main(["--spawn", "--mode", "verify-batch", "--clients",
                        "2", "--duration", "1", "--max-requests", "40",
                        "--batch", "8", "--threads", "1", "--baseline", "--rounds", "2",
                        "--json"])
    out = capsys.readouterr().out
    rep = json.loads(out)
    assert rc == 0 and rep["errors"] == 0 and rep["requests"] > 0
    assert rep["raw_c_items_per_s"] > 0 and rep["service_over_raw"] > 0
    assert rep["rounds"] == 2 and len(rep["raw_c_runs_items_per_s"]) == 3
    assert len(rep["round_ratios"]) == 2
    # CPU per request of the spawned server's threads (from /proc) and of
    # the client, over the timed phases.
    cpu = rep["cpu_ms_per_request"]
    assert set(cpu) == {"server_main", "server_workers", "client"}
    assert cpu["client"] > 0 and cpu["server_main"] >= 0 \
        and cpu["server_workers"] >= 0
