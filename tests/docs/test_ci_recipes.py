"""The CI recipes of docs/ci/ run as written: the workflow's ``run:`` steps and the pre-commit hooks.

They run against crescent-js (skipped without node) on a few app scenarios (CRESCENT_RUN_ARGS), in
a temporary folder that plays the game's repository. The install step runs as written:
CRESCENT_KIT_SPEC names the kit this test runs from (already installed here, so pip finds it
satisfied, with no index); set CRESCENT_KIT_SPEC in the environment to install something else.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
CI = ROOT / "docs" / "ci"
JS = f"node {ROOT / 'implementations' / 'crescent-js' / 'bin' / 'crescent-js.js'}"
AREAS = ("layout", "piles", "undo", "reshuffle", "tap")
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js (node) is not on PATH")


def workflow() -> dict[str, Any]:
    """The GitHub Actions workflow."""
    data: dict[str, Any] = yaml.safe_load((CI / "crescent-conformance.yml").read_text(encoding="utf-8"))
    return data


def run_steps() -> dict[str, str]:
    """The workflow's ``run:`` steps by name, in order."""
    steps = workflow()["jobs"]["conformance"]["steps"]
    return {s["name"]: s["run"] for s in steps if "run" in s}


def environment(tmp_path: Path) -> dict[str, str]:
    """The workflow's env with the adapter set to crescent-js, as a runner would have it."""
    env = {**os.environ, **{k: str(v) for k, v in workflow()["env"].items()}}
    env.update(
        CRESCENT_ADAPTER=JS,
        CRESCENT_KIT_SPEC=os.environ.get("CRESCENT_KIT_SPEC", "crescent-kit"),
        CRESCENT_RUN_ARGS="--profile app " + " ".join(f"--id {area}-00{n}" for area in AREAS for n in (1, 2, 3)),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        PIP_NO_INDEX="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        GITHUB_STEP_SUMMARY=str(tmp_path / "summary.md"),
    )
    return env


def step(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One ``run:`` step in the shell Actions uses for bash."""
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def test_the_workflow_has_the_steps_a_game_needs() -> None:
    names = list(run_steps())
    assert names[0].startswith("Install") and any("Compare" in n for n in names)
    uses = [s.get("uses", "") for s in workflow()["jobs"]["conformance"]["steps"]]
    assert any(u.startswith("actions/upload-artifact@") for u in uses)
    assert all("${{" not in script for script in run_steps().values()), "run: steps use env variables only"


def test_the_workflow_run_steps_work_as_written(tmp_path: Path) -> None:
    env, steps = environment(tmp_path), run_steps()
    for name, script in steps.items():
        done = step(script, tmp_path, env)
        assert done.returncode == 0, f"{name}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    out, last = tmp_path / env["CRESCENT_OUT"], tmp_path / env["CRESCENT_LAST"]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["implementation"]["name"] == "crescent-js" and set(report["summary"]) == {"passed"}
    assert (out / "report.html").is_file() and (out / "crescent-badge.svg").is_file()
    assert (last / "report.json").is_file() and "passed" in (tmp_path / "summary.md").read_text(encoding="utf-8")
    compare = next(s for n, s in steps.items() if n.startswith("Compare"))
    same = step(compare, tmp_path, env)
    assert same.returncode == 0 and "no regression" in same.stdout and (out / "compare.html").is_file()
    report["results"][0] |= {"verdict": "failed", "failure": {"step": 1, "line": 1, "mismatches": ["x"]}}
    (out / "report.json").write_text(json.dumps(report), encoding="utf-8")
    worse = step(compare, tmp_path, env)
    assert worse.returncode == 1 and "REGRESSION: 1" in worse.stdout
    (tmp_path / "allow.txt").write_text(report["results"][0]["id"] + "\n", encoding="utf-8")
    assert step(compare, tmp_path, {**env, "CRESCENT_ALLOW_FILE": "allow.txt"}).returncode == 0


def test_the_pre_commit_hooks_work_as_written(tmp_path: Path) -> None:
    hooks = yaml.safe_load((CI / "pre-commit-config.yaml").read_text(encoding="utf-8"))["repos"][0]["hooks"]
    env = environment(tmp_path)
    gate = next(h for h in hooks if h["id"] == "crescent-regression")
    for hook in [*hooks, gate]:  # the gate's first run sets the baseline, its second compares with it
        done = subprocess.run(shlex.split(hook["entry"]), cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=120, check=False)  # fmt: skip
        assert done.returncode == 0, f"{hook['id']}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "no regression" in done.stdout and (tmp_path / ".crescent" / "last.json").is_file()
