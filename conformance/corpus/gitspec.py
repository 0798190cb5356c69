"""spec/ as it was at a git revision, read into a temporary folder (for ``crescent-conformance impact``)."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

from crescent_ref.errors import CrescentError


class GitRevisionError(CrescentError):
    """The checkout is not a git checkout, or the revision (or its spec/) cannot be read; quotes git."""


def git(root: Path, *args: str) -> bytes:
    """Run git in ``root``; GitRevisionError with git's own message when it fails."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=60, check=False)
    except FileNotFoundError:
        raise GitRevisionError("git is not installed: impact reads spec/ at a revision with git") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitRevisionError(f"git {' '.join(args[:2])} in {root}: {message[-1] if message else 'failed'}")
    return done.stdout


def checkout_root(spec: Path) -> Path:
    """The top of the git checkout holding ``spec``; a clear error outside one."""
    try:
        return Path(git(spec, "rev-parse", "--show-toplevel").decode().strip())
    except GitRevisionError:
        raise GitRevisionError(
            f"{spec} is not in a git checkout: impact compares spec/ with a git revision of it "
            "(run it in a clone of the kit)"
        ) from None


def commit_of(root: Path, rev: str) -> str:
    """The full commit id ``rev`` names; a clear error for an unknown revision."""
    try:
        return git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
    except GitRevisionError:
        raise GitRevisionError(f"unknown revision {rev!r} in {root}") from None


def spec_at(spec: Path, rev: str, into: Path) -> Path:
    """Extract ``spec`` (a folder of a git checkout) as it was at ``rev`` below ``into``; returns its copy."""
    root = checkout_root(spec)
    inside = spec.resolve().relative_to(root.resolve()).as_posix()
    archive = git(root, "archive", "--format=tar", commit_of(root, rev), "--", inside)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    copy = into / inside
    if not (copy / "scenarios").is_dir():
        raise GitRevisionError(f"{rev}: {inside}/ has no scenarios/ folder at that revision")
    return copy
