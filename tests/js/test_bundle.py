"""The browser bundle of crescent-js kept in conformance/docs/assets is what tools/bundle.js builds, byte for byte.

Needs Node.js (`node` on PATH); skipped with that reason otherwise. The bundle needs no npm package.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
JS = ROOT / "implementations" / "crescent-js"
KEPT = ROOT / "conformance" / "docs" / "assets" / "crescent-engine.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js (node) is not on PATH")
PLAY = """
const vm = require('node:vm');
const context = {};
vm.createContext(context);
vm.runInContext(require('node:fs').readFileSync(process.argv[1], 'utf8'), context);
const C = context.CrescentJS;
const game = C.Game.fromCode('app', 'CR1-N-AAAAAAB');
const first = game.act('p8-A♠');
const second = game.act('p8-A♠');
console.log(JSON.stringify([first.accepted, second.reason, C.message(second.reason, 'id'), game.pos.moves]));
"""


def bundle(out: Path) -> bytes:
    """Run tools/bundle.js into ``out``; its bytes."""
    done = subprocess.run([str(NODE), "tools/bundle.js", str(out)], cwd=JS, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


def test_the_kept_bundle_is_rebuilt_byte_for_byte(tmp_path: Path) -> None:
    first, second = bundle(tmp_path / "a.js"), bundle(tmp_path / "b.js")
    assert first == second, "tools/bundle.js is not reproducible"
    assert first == KEPT.read_bytes(), "stale: run `node implementations/crescent-js/tools/bundle.js " + str(
        KEPT.relative_to(ROOT)
    ) + "`"


def test_the_bundle_plays_without_node_modules_or_imports() -> None:
    text = KEPT.read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import|export)\b", text, re.M), "a module statement is left in the bundle"
    assert "require(" not in text and "node:" not in text and "import.meta" not in text
    done = subprocess.run([str(NODE), "-e", PLAY, str(KEPT)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    accepted, reason, words, moves = json.loads(done.stdout)
    assert accepted is True and reason and words and moves == 1
