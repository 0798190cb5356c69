"""The command-line tools' argparse side: number and command-line types, and a parser whose errors are one line.

The exit codes and the exception policy are crescent_ref.exits (which does not import argparse).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

from crescent_ref.exits import BAD_INPUT


def positive(kind: type[float] | type[int], zero: bool = False) -> Callable[[str], float]:
    """An argparse type: a number above zero (``zero``: or zero); NaN and infinity refused."""

    def read(text: str) -> float:
        try:
            number = kind(text)
        except ValueError:
            number = -1
        if not (number >= 0 if zero else number > 0) or not number < float("inf"):
            wanted = "a number of zero or more" if zero else "a positive number"
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r}")
        return number

    read.__name__ = kind.__name__
    return read


def non_blank(text: str) -> str:
    """An argparse type: text that is not empty or only spaces (an unset variable is caught, not ignored)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a command line, got an empty one")
    return text


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(BAD_INPUT, f"{self.prog}: {message} (see --help)\n")
