"""Build hook: compile the solver's C core (crescent_ref/solver/csrc/*.c) into the wheel, one extension.

The core is optional. When it cannot be built (no C compiler, no Python headers, or
``CRESCENT_BUILD_CORE=0``) the hook warns and the wheel is the pure-Python kit, which solves the
same positions with the same answers, only slower (crescent_ref/solver/fast.py picks the core).
An editable install builds the module next to its source, where the editable path finds it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULE = "crescent_ref.solver._core"
SOURCES = "crescent_ref/solver/csrc"  # every .c here, with core.h, makes the one module
SWITCH = "CRESCENT_BUILD_CORE"  # "0": do not try to build the compiled core


def compile_core(root: Path, out: Path) -> Path:
    """Compile the extension into ``out`` (package folders under it); the built file's path.
    Any failure raises (setuptools' compiler errors, or ImportError without setuptools)."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    sources = sorted(str(path) for path in (root / SOURCES).glob("*.c"))
    if not sources:
        raise FileNotFoundError(f"no C sources in {root / SOURCES}")
    extension = Extension(MODULE, sources, depends=[str(root / SOURCES / "core.h")], extra_compile_args=["-O2"])
    command = build_ext(Distribution({"name": "crescent-kit-core", "ext_modules": [extension]}))
    command.build_lib = str(out)
    with tempfile.TemporaryDirectory(prefix="crescent-core-") as temp:
        command.build_temp = temp
        command.ensure_finalized()
        command.run()
    return Path(command.get_ext_fullpath(MODULE))


def try_compile(root: Path, out: Path) -> tuple[Path | None, str]:
    """``compile_core``, or None with the reason it was not built."""
    if os.environ.get(SWITCH, "1").strip() == "0":
        return None, f"{SWITCH}=0"
    try:
        return compile_core(root, out), ""
    except Exception as err:  # any build failure leaves the pure-Python kit, by design
        return None, f"{type(err).__name__}: {err}"


class CompiledCore(BuildHookInterface):  # type: ignore[type-arg]
    """Adds the compiled core to the wheel when it builds; warns and leaves it out when not."""

    PLUGIN_NAME = "custom"
    made: Path | None = None  # the temporary folder of a regular wheel's build, removed at the end

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        if version == "editable":
            out = root
        else:
            out = self.made = Path(tempfile.mkdtemp(prefix="crescent-core-wheel-"))
        built, why = try_compile(root, out)
        if built is None:
            self.app.display_warning(f"crescent-kit: the compiled solver core was not built ({why}); "
                                     "the pure-Python solver is installed")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":
            build_data["force_include"][str(built)] = str(built.relative_to(out))

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self.made is not None:
            shutil.rmtree(self.made, ignore_errors=True)
            self.made = None
