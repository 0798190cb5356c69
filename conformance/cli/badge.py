"""``badge``: a shields-style SVG badge from a JSON report, for a game's README."""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.cli.common import Command, make_folder, profile_name
from conformance.files import write_atomic


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``badge``."""
    p.add_argument("file", type=Path, help="the JSON report")
    p.add_argument("--out", type=Path, default=Path("crescent-badge.svg"),
                   help="the SVG file (with --each-profile: a folder)")  # fmt: skip
    p.add_argument("--profile", type=profile_name, help="count only this profile (a base takes its variants too)")
    p.add_argument("--each-profile", action="store_true", help="one badge per base profile, crescent-<base>.svg")
    p.add_argument("--label", default="crescent", help="the badge's left-hand text")


def _badge(args: argparse.Namespace) -> int:
    """Write the badge (or one per base profile)."""
    from conformance.docs.badge import base_profiles, report_badge, tally
    from conformance.reportfile import read_report

    report = read_report(args.file)
    if not args.each_profile:
        write_atomic(args.out, report_badge(report, args.profile, args.label), "--out")
        print(f"wrote {args.out}: {tally(report, args.profile).message}")
        return 0
    make_folder(args.out)
    for base in base_profiles(report):
        write_atomic(args.out / f"crescent-{base}.svg", report_badge(report, base, args.label), "--out")
        print(f"wrote {args.out / f'crescent-{base}.svg'}: {tally(report, base).message}")
    return 0


COMMAND = Command("badge", "write a shields-style SVG badge (passed/ran) from a JSON report", configure, _badge)
