"""cffi declarations generated from the C headers at import time.

The binding declares nothing by hand: the text given to ``FFI.cdef`` is
read from the library's public headers (``falcon_accel.h``,
``falcon_accel_edge.h``, ``falcon_accel_kem.h``) and from
``service/python/src/fa_py.h`` (the binding's own C functions), with what cffi's
parser cannot take removed:

* comments, and line continuations joined;
* preprocessor lines (include guards, ``#include``, ``#define``), and the
  ``extern "C"`` lines of ``#ifdef __cplusplus`` blocks;
* integer ``#define`` constants are substituted where a declaration uses
  them (array sizes such as ``FA_BROKER_MAX_BACKENDS``).

Headers are looked up next to this file (``_headers/``, where the wheel
installs them: service/python/falcon_accel_py.cmake) and then in the checkout
(``include/`` and ``service/python/src/``). ``service/python/tests/test_api.py`` compares
the result with the C compiler's view of the same headers.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Iterable, List

_HERE = Path(__file__).resolve().parent
_SEARCH = (
    _HERE / "_headers",
    _HERE.parents[2] / "include",          # in the repository: the library's
    _HERE.parents[1] / "include",          # and the service's headers
    _HERE.parent / "src",
)

# The binding's declarations: the core API, the edge library (pools,
# batches, broker) and the binding's own functions.
CORE_HEADERS = ("falcon_accel.h", "falcon_accel_edge.h", "fa_py.h")
KEM_HEADERS = ("falcon_accel.h", "falcon_accel_kem.h")
PKI_HEADERS = ("falcon_accel_oids.h", "falcon_accel_pki.h")

_INT_DEFINE = re.compile(r"#\s*define\s+([A-Za-z_]\w*)\s+\(?(-?\d+)u?\)?\s*$")


def find_header(name: str) -> Path:
    for d in _SEARCH:
        p = d / name
        if p.is_file():
            return p
    raise ImportError(
        f"falcon_accel: C header {name} not found (looked in "
        + ", ".join(str(d) for d in _SEARCH) + ")")


def _strip_comments(text: str) -> str:
    # a comment becomes its newlines (line structure kept)
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return text.replace("\\\n", " ")


def header_declarations(text: str, consts: Dict[str, str]) -> List[str]:
    """The C declarations of one header, as cffi's parser takes them;
    integer constants found are added to consts."""
    out: List[str] = []
    skip = 0          # depth inside #ifdef __cplusplus blocks
    depth = 0         # #if nesting
    for line in _strip_comments(text).split("\n"):
        s = line.strip()
        if s.startswith("#"):
            d = s[1:].strip()
            if d.startswith(("if", "ifdef", "ifndef")):
                depth += 1
                if skip or d.replace(" ", "") == "ifdef__cplusplus":
                    skip += 1
            elif d.startswith("endif"):
                depth -= 1
                if skip:
                    skip -= 1
            else:
                m = _INT_DEFINE.match(s)
                if m and not skip:
                    consts[m.group(1)] = m.group(2)
            continue
        if skip or not s:
            continue
        out.append(line.rstrip())
    return out


def _substitute(lines: Iterable[str], consts: Dict[str, str]) -> str:
    text = "\n".join(lines)
    if consts:
        pat = re.compile(r"\b(" + "|".join(map(re.escape, consts)) + r")\b")
        text = pat.sub(lambda m: consts[m.group(1)], text)
    return text + "\n"


def header_constants(names: Iterable[str]) -> Dict[str, int]:
    """The integer #define constants of the given headers (the values C
    compiles with: FA_PY_BATCH_MAX_KEYS and the like are defined once, in
    the header, and read here)."""
    consts: Dict[str, str] = {}
    for name in dict.fromkeys(names):
        header_declarations(find_header(name).read_text(), consts)
    return {k: int(v) for k, v in consts.items()}


def cdef_text(names: Iterable[str]) -> str:
    """The cffi declarations of the given headers, in order, each header
    once."""
    consts: Dict[str, str] = {}
    lines: List[str] = []
    for name in dict.fromkeys(names):
        lines += header_declarations(find_header(name).read_text(), consts)
    return _substitute(lines, consts)
