"""The package's contracts with its documentation and the C headers: the
README examples run as written, the error names are those of
include/falcon_accel.h, and the cffi declarations match the headers."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import falcon_accel as fa
from falcon_accel import _errors
from falcon_accel._ffi import CDEF
from falcon_accel.kem import CDEF as KEM_CDEF

REPO = Path(__file__).resolve().parents[3]


def need(path: Path) -> Path:
    """A file of the checkout; a skip outside one, a failure under CI."""
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} missing under CI")
        pytest.skip(f"{path} not present (not a checkout)")
    return path


def python_blocks(markdown: str):
    return re.findall(r"```python\n(.*?)```", markdown, re.S)


def test_readme_examples_run():
    """service/python/README.md (the source of the Python examples) and any
    Python example of the top README, run in order, as written."""
    blocks = python_blocks(need(REPO / "service" / "python" / "README.md").read_text())
    assert len(blocks) >= 2
    top = REPO / "README.md"
    if top.exists():
        blocks += python_blocks(top.read_text())
    ns = {}
    for code in blocks:
        exec(compile(code, "README", "exec"), ns)
    assert isinstance(ns["kp"], fa.KeyPair)
    assert ns["ok"] == [True]


def test_error_names_generated_from_header():
    need(REPO / "include" / "falcon_accel.h")
    r = subprocess.run([sys.executable, str(REPO / "service" / "python" /
                                            "gen_errors.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for code, name in _errors.ERROR_NAMES.items():
        assert fa.FalconError(code).name == name
        assert f"FA_ERR_{name}" in str(fa.FalconError(code))
        # The C library has a message for every code it declares.
        assert fa.strerror(code) != fa.strerror(-1000)


# -- cffi declarations against the C headers -----------------------------

STUB_HEADERS = {
    "stddef.h": "typedef unsigned long size_t;\n#define NULL 0\n",
    "stdint.h": "".join(
        f"typedef {c} {t};\n" for t, c in (
            ("uint8_t", "unsigned char"), ("uint16_t", "unsigned short"),
            ("uint32_t", "unsigned int"), ("uint64_t", "unsigned long"),
            ("int8_t", "signed char"), ("int16_t", "short"),
            ("int32_t", "int"), ("int64_t", "long"))),
}


def _declarations(source: str):
    """{name: normalized C} of the typedefs and function declarations."""
    from pycparser import c_ast, c_generator, c_parser
    gen = c_generator.CGenerator()
    out = {}
    for node in c_parser.CParser().parse(source).ext:
        if isinstance(node, c_ast.Typedef):
            out[node.name] = gen.visit(node)
        elif isinstance(node, c_ast.Decl) and \
                isinstance(node.type, c_ast.FuncDecl):
            # Parameter names do not matter, only their types.
            for p in (node.type.args.params if node.type.args else []):
                t = getattr(p, "type", None)
                while t is not None and not isinstance(
                        t, c_ast.TypeDecl) and hasattr(t, "type"):
                    t = t.type
                if isinstance(t, c_ast.TypeDecl):
                    t.declname = None
                if hasattr(p, "name"):
                    p.name = None
            out[node.name] = gen.visit(node)
    return out


def test_cffi_declarations_match_headers(tmp_path):
    """The declarations cffi was given (generated at import from the
    headers the package carries, falcon_accel/_cdef.py) are, declaration
    for declaration, the C compiler's view of the checkout's headers: a
    header changed since the package was built, or a declaration the
    generator dropped or altered, fails here."""
    need(REPO / "service" / "include" / "falcon_accel_edge.h")
    need(REPO / "service" / "python" / "src" / "fa_py.h")
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no C compiler under CI")
        pytest.skip("no C compiler")
    for name, text in STUB_HEADERS.items():
        (tmp_path / name).write_text(text)
    stubs = "".join(STUB_HEADERS.values()).replace("#define NULL 0\n", "")
    for cdef, includes in (
            (CDEF, ("falcon_accel.h", "falcon_accel_edge.h", "fa_py.h")),
            (KEM_CDEF, ("falcon_accel.h", "falcon_accel_kem.h"))):
        src = tmp_path / "all.c"
        src.write_text("".join(f'#include "{h}"\n' for h in includes))
        pre = subprocess.run(
            [cc, "-E", "-P", "-nostdinc", "-I", str(tmp_path), "-I",
             str(REPO / "include"), "-I", str(REPO / "service" / "include"), "-I", str(REPO / "service" / "python" / "src"),
             str(src)],
            capture_output=True, text=True, check=True).stdout
        headers = _declarations(pre)
        # The stub typedefs are the parser's, not the library's.
        ours = _declarations(stubs + cdef)
        for name in _declarations(stubs):
            headers.pop(name, None)
            ours.pop(name, None)
        assert sorted(ours) == sorted(headers), (
            "declared for cffi but not in the headers: "
            f"{sorted(set(ours) - set(headers))}; in the headers but not "
            f"declared: {sorted(set(headers) - set(ours))}")
        for name, decl in ours.items():
            assert decl == headers[name], (name, decl, headers[name])
        assert len(ours) >= (60 if "fa_py.h" in includes else 10)
