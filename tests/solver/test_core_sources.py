"""The compiled core's C files keep their shape: every file says what it holds, every function shared
between files is declared once in core.h and defined in one file, every other function is static,
and the build hook compiles every file (crescent_ref/solver/csrc/)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CSRC = ROOT / "crescent_ref" / "solver" / "csrc"
DEFINED = re.compile(r"^(?!static\b|typedef\b|PyMODINIT_FUNC\b)[A-Za-z_][\w ]*?\**\b(\w+)\((?![^)]*\);)", re.M)
DECLARED = re.compile(r"^(?!static\b|typedef\b|#)[A-Za-z_][\w ]*?\**\b(\w+)\([^;{]*\);", re.M)


def sources() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(CSRC.glob("*.c"))}


def test_each_file_opens_with_what_it_holds_and_the_header() -> None:
    files = sources()
    assert len(files) >= 5
    for name, text in files.items():
        assert text.startswith("/* "), f"{name}: no head comment"
        assert '#include "core.h"' in text, f"{name}: does not include core.h"
        assert len(text.splitlines()) <= 350, f"{name}: longer than one sitting"


def test_shared_functions_are_declared_in_the_header_and_defined_once() -> None:
    declared = DECLARED.findall((CSRC / "core.h").read_text(encoding="utf-8"))
    assert len(declared) == len(set(declared)), "a function declared twice in core.h"
    defined: dict[str, list[str]] = {}
    for name, text in sources().items():
        for function in DEFINED.findall(text):
            defined.setdefault(function, []).append(name)
    undeclared = sorted(set(defined) - set(declared))
    assert not undeclared, f"not static, yet not declared in core.h: {undeclared}"
    missing = sorted(set(declared) - set(defined))
    assert not missing, f"declared in core.h, defined nowhere: {missing}"
    twice = {function: files for function, files in defined.items() if len(files) > 1}
    assert not twice, f"defined in more than one file: {twice}"


def test_the_build_hook_compiles_every_file() -> None:
    hook = (ROOT / "hatch_build.py").read_text(encoding="utf-8")
    assert 'SOURCES = "crescent_ref/solver/csrc"' in hook and '.glob("*.c")' in hook
    assert not (ROOT / "crescent_ref" / "solver" / "_core.c").exists(), "the one-file core is back beside csrc/"
