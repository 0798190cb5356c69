"""The JavaScript implementation (implementations/crescent-js, written from spec/ alone) conforms.

Needs Node.js 20 (`node` on PATH); skipped with that reason otherwise. Its own tests also need its
dev dependencies (`npm ci` in implementations/crescent-js, as .ci/run does); skipped, saying so, without them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.adapters.stdio import StdioAdapter
from conformance.corpus.load import load_corpus
from conformance.explore.fuzz import FuzzConfig, fuzz
from conformance.explore.perft import cases
from conformance.judging.runner import run_scenario

ROOT = Path(__file__).resolve().parent.parent.parent
JS = ROOT / "implementations" / "crescent-js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js (node) is not on PATH")
COMMAND = f"{NODE} {JS / 'bin' / 'crescent-js.js'}"


@pytest.mark.skipif(
    not (JS / "node_modules" / "yaml").is_dir(), reason="run `npm ci` in implementations/crescent-js first"
)
def test_its_own_tests_pass() -> None:
    done = subprocess.run([str(NODE), "--test", "test/"], cwd=JS, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


def test_it_passes_the_whole_corpus_over_stdio() -> None:
    adapter = StdioAdapter(COMMAND, timeout=30)
    info = adapter.info()
    try:
        results = [run_scenario(adapter, info, sc, p) for sc in load_corpus() for p in sc.profiles]
    finally:
        adapter.close()
    assert info.name == "crescent-js" and len(results) > 600
    assert [r.key for r in results if r.verdict != "passed"] == []


@pytest.mark.parametrize("case", cases(), ids=lambda c: f"{c.name}[{c.profile}]")
def test_its_perft_counts_agree_with_the_spec(case: object) -> None:
    from conformance.explore.perft import PerftCase

    assert isinstance(case, PerftCase)
    for depth, expected in sorted(case.counts.items()):
        if depth > 3:
            continue
        done = subprocess.run(
            [
                str(NODE),
                str(JS / "bin" / "crescent-js.js"),
                "perft",
                "--profile",
                case.profile,
                "--position",
                case.position,
                "--depth",
                str(depth),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert int(done.stdout.split()[-1]) == expected, f"depth {depth}"


@pytest.mark.parametrize("profile", ["app", "hoffmann-1892+reversal+give-backs"])
def test_a_short_differential_run_finds_no_difference(profile: str, tmp_path: Path) -> None:
    config = FuzzConfig(profile=profile, games=25, steps=40, seed=3, out=tmp_path, shrink=False)
    report = fuzz(lambda: StdioAdapter(COMMAND, timeout=30), config)
    assert [str(f) for f in report.findings] == []
