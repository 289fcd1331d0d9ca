"""Methods of the HTTP service's routes (issue 27 item 8): a method a route
does not serve gets 405 whose Allow header lists exactly the methods the
route serves (HEAD wherever GET is served, as the framework serves HEAD
there), and the methods it lists are indeed served."""
import http.client
import json

import pytest

from falcon_accel.server import ROUTES, RunningServer

TOKEN = "test-token-0123456789abcdef"
UNKNOWN_KEY = "0123456789abcdef0123456789abcdef"
# Methods tried on every route (those schemathesis tries, and HEAD).
METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
           "TRACE", "QUERY")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("methods")
    with RunningServer(d / "keys", TOKEN, threads=1) as srv:
        yield srv


@pytest.fixture(scope="module")
def key_id(server):
    st, _, data = request(server, "POST", "/v1/keys", b'{"logn": 2}',
                          {"Authorization": f"Bearer {TOKEN}"})
    assert st == 201, data
    return json.loads(data)["key_id"]


def request(server, method, path, body=b"", headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        h = {"Content-Type": "application/json"}
        h.update(headers or {})
        conn.request(method, path, body=body, headers=h)
        r = conn.getresponse()
        return r.status, r, r.read()
    finally:
        conn.close()


def served(path):
    """The methods ROUTES gives `path`, with HEAD where GET is."""
    methods = {m for m, p, *_ in ROUTES if p == path}
    return methods | ({"HEAD"} if "GET" in methods else set())


def allow_of(r):
    return {m.strip() for m in r.getheader("Allow", "").split(",")
            if m.strip()}


def test_one_route_per_path_with_all_its_methods(server):
    routes = server.service.starlette.routes
    for path in {p for _, p, *_ in ROUTES}:
        got = [r for r in routes if r.path.replace(":path", "") == path]
        assert len(got) == 1, path
        assert set(got[0].methods) == served(path), path


PATHS = [(p, k) for p in sorted({p for _, p, *_ in ROUTES})
         for k in (("existing", "unknown") if "{key_id}" in p else ("",))]


@pytest.mark.parametrize("path,key", PATHS)
def test_405_allow_lists_exactly_the_route_methods(server, key_id, path,
                                                  key):
    url = path.replace("{key_id}", key_id if key == "existing"
                       else UNKNOWN_KEY)
    want = served(path)
    for method in METHODS:
        st, r, data = request(server, method, url)
        if method in want:
            assert st != 405, (method, url, data)
            continue
        assert st == 405, (method, url, st, data)
        assert allow_of(r) == want, (method, url, r.getheader("Allow"))
        if method == "HEAD":    # no body
            continue
        err = json.loads(data)["error"]
        assert err["status"] == 405 and err["code"] == "method_not_allowed"


def test_sign_route_is_post_only(server, key_id):
    """The finding of the issue: OPTIONS (and GET) on the sign route were
    answered by the public-key route (Allow: GET, HEAD; GET a 404 for key
    "<id>/sign")."""
    for method in ("OPTIONS", "GET", "HEAD", "PUT", "DELETE"):
        st, r, data = request(server, method, f"/v1/keys/{key_id}/sign")
        assert st == 405, (method, st, data)
        assert r.getheader("Allow") == "POST"
    st, _, data = request(server, "POST", f"/v1/keys/{key_id}/sign",
                          b'{"message": "aGk="}',
                          {"Authorization": f"Bearer {TOKEN}"})
    assert st == 200, data


def test_head_is_served_where_get_is(server, key_id):
    for path, status in (("/health", 200), ("/metrics", 200),
                         ("/openapi.json", 200),
                         (f"/v1/keys/{key_id}", 200),
                         (f"/v1/keys/{UNKNOWN_KEY}", 404)):
        get_st, get_r, _ = request(server, "GET", path)
        st, r, data = request(server, "HEAD", path)
        assert st == get_st == status, path
        assert data == b"", path
        assert r.getheader("Content-Type") == get_r.getheader("Content-Type")


def test_key_ids_with_slashes_still_reach_the_key_route(server):
    # The public-key route takes the rest of the path as the key id (a
    # percent-encoded "../x" is an unknown key, not a missing route).
    for path in ("/v1/keys/..%2F..%2Fetc%2Fpasswd", "/v1/keys/a/b/sign"):
        st, _, data = request(server, "GET", path)
        assert st == 404 and json.loads(data)["error"]["code"] == \
            "unknown_key", (path, data)


def test_paths_with_several_methods(tmp_path, monkeypatch):
    """A path ROUTES gives several methods is one route: each method
    reaches its handler, and a 405 lists them all."""
    from falcon_accel import server as server_mod
    extra = [("DELETE", "/v1/keys/{key_id}", "get_key", False, None, None),
             ("POST", "/health", "health", False, None, None)]
    monkeypatch.setattr(server_mod, "ROUTES", server_mod.ROUTES + extra)
    with RunningServer(tmp_path / "keys", TOKEN, threads=1) as srv:
        for path, want in (("/health", {"GET", "HEAD", "POST"}),
                           (f"/v1/keys/{UNKNOWN_KEY}",
                            {"DELETE", "GET", "HEAD"}),
                           (f"/v1/keys/{UNKNOWN_KEY}/sign", {"POST"})):
            st, r, _ = request(srv, "OPTIONS", path)
            assert st == 405 and allow_of(r) == want, path
        st, _, data = request(srv, "POST", "/health")
        assert st == 200 and json.loads(data)["status"] == "ok"
        for method in ("GET", "HEAD", "DELETE"):
            st, _, _ = request(srv, method, f"/v1/keys/{UNKNOWN_KEY}")
            assert st == 404, method
