"""``crescent-ref profiles``: the rule profiles and variants with their parameters."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from crescent_ref.commands.common import OK
from crescent_ref.profiles import base_names, get_profile, variant_names
from crescent_ref.spec_files import load_yaml


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``profiles``: an optional profile name."""
    parser.add_argument("name", nargs="?", help="show this one profile, variants included (e.g. open+four)")


def yaml_value(value: Any) -> str:
    """A parameter value written as in profiles.yaml."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def entry_lines(name: str, summary: str, values: dict[str, Any]) -> list[str]:
    """A profile or variant: name and summary, then its parameters wrapped and indented."""
    params = " ".join(f"{key}={yaml_value(value)}" for key, value in values.items())
    indent = " " * 4
    return [f"  {name:15} {summary}", *textwrap.wrap(params, 100, initial_indent=indent, subsequent_indent=indent)]


def profile_listing() -> list[str]:
    """Every base profile and every variant with the parameters it sets."""
    data = load_yaml("profiles.yaml")
    lines = ["Base profiles:"]
    for name in base_names():
        lines += entry_lines(name, data["profiles"][name]["summary"], get_profile(name).parameters())
    lines += ["", "Variants (add to a base profile with '+', e.g. open+four+closed):"]
    for name in variant_names():
        entry = data["variants"][name]
        lines += entry_lines(name, entry["summary"], {k: v["value"] for k, v in entry["parameters"].items()})
    return lines


def run(args: argparse.Namespace) -> int:
    """List every profile and variant, or the parameters of one named profile."""
    if args.name:
        profile = get_profile(args.name)
        print(profile.name)
        print("\n".join(f"  {key} = {yaml_value(value)}" for key, value in profile.parameters().items()))
    else:
        print("\n".join(profile_listing()))
    return OK
