"""How reports name things for people: rule sources, scenario files, and what did not run and why.

Every report (``run``, ``report``, the pytest plugin, the HTML report, the matrix and the compare
page) takes its words from here, so a source is "000 (Indonesian)" everywhere, a scenario file is
``spec/scenarios/piles.yaml`` (not a path into site-packages), and the unit counted is named: a
**scenario run** is one scenario in one profile; a **scenario** is the entry in the corpus.

The "not run, and why" breakdown reads the JSON records (so a saved report gives the same lines as
the run that wrote it): skipped runs by the capability they need, the capability that would unlock
the most runs first; runs in profiles the implementation does not claim, by base profile or variant.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.adapter import GIVEN_UP, NOT_SENT
from conformance.corpus.scenarios import Citation, Scenario
from crescent_ref.spec_files import load_yaml, spec_dir

RUNS, SCENARIOS = "scenario runs", "scenarios"
NEEDS = re.compile(r"^needs capabilit(?:y|ies) (.+)$")
BY_IMPLEMENTATION = "skipped by the implementation"
NOT_APPLICABLE = "not applicable under the declared deviations"


@functools.cache
def _language_names() -> dict[str, str]:
    """Document file -> its language name (spec/sources.yaml)."""
    try:
        entries = load_yaml("sources.yaml")["documents"]
    except (OSError, KeyError, TypeError):
        return {}
    return {str(e["file"]): str(e.get("language_name", "")) for e in entries}


def source_name(doc: str) -> str:
    """``000 (Indonesian)`` for ``000_3303cbcae4869e02.txt``, as the documentation pages name it."""
    language = _language_names().get(doc)
    short = doc.split("_", 1)[0] if re.match(r"^\d{3}_", doc) else doc
    return f"{short} ({language})" if language else short


def citation_text(c: Citation) -> str:
    """``000 (Indonesian) § Fondasi: “quote”``."""
    return f"{source_name(c.doc)} § {c.section}: “{c.quote}”"


def shown_path(path: str) -> str:
    """A scenario file as a reader finds it: ``spec/...`` for the shipped corpus (wherever it is installed),
    relative to the working folder for a file below it, else as given."""
    file = Path(path)
    for root, prefix in ((spec_dir(), "spec"), (Path.cwd(), "")):
        try:
            inner = file.resolve().relative_to(root.resolve())
        except (ValueError, OSError):
            continue
        return f"{prefix}/{inner.as_posix()}" if prefix else inner.as_posix()
    marker, slashed = "/spec/scenarios/", path.replace("\\", "/")  # the corpus where the report was written
    return "spec/scenarios/" + slashed.rsplit(marker, 1)[1] if marker in slashed else path


@functools.cache
def _shipped() -> dict[str, Scenario]:
    from conformance.corpus.load import load_corpus

    return {sc.id: sc for sc in load_corpus()}


def scenario_of(sid: str) -> Scenario | None:
    """The shipped corpus's scenario of this id (what a JSON record names), or None."""
    return _shipped().get(sid)


@dataclass(frozen=True, slots=True)
class Grounds:
    """Why a scenario expects what it does: its rule sources and the interpretations it rests on."""

    sources: tuple[str, ...]
    interpretations: tuple[str, ...]

    def lines(self) -> list[str]:
        """``rule: ...`` lines and one ``interpretation: ...`` line, as the terminal prints them."""
        found = [f"rule: {s}" for s in self.sources]
        return found + ([f"interpretation: {', '.join(self.interpretations)}"] if self.interpretations else [])


def grounds(scenario: Scenario | None) -> Grounds:
    """The grounds of a scenario (none for an unknown one)."""
    if scenario is None:
        return Grounds((), ())
    return Grounds(tuple(citation_text(c) for c in scenario.sources), tuple(scenario.interpretations))


def grounds_of(sid: str) -> Grounds:
    """The grounds of the shipped scenario ``sid`` (none when the corpus has no such id)."""
    return grounds(scenario_of(sid))


@dataclass(frozen=True, slots=True)
class NotRun:
    """Scenario runs that were not played: skipped ones by why (most first), not-claimed ones by what."""

    skipped: int
    why: tuple[tuple[str, int], ...]
    not_claimed: int
    unclaimed: tuple[tuple[str, int], ...]

    def lines(self) -> list[str]:
        """``not run, and why`` and ``not claimed`` lines (none when everything ran)."""
        found = []
        if self.skipped:
            reasons = ", ".join(f"{n} {need_text(what)}" for what, n in self.why)
            found.append(f"not run, and why ({runs(self.skipped)} skipped): {reasons}")
        if self.not_claimed:
            what = ", ".join(f"{name} {n}" for name, n in self.unclaimed)
            found.append(f"not claimed ({runs(self.not_claimed)} in profiles the implementation does not "
                         f"declare): {what}")  # fmt: skip
        return found


def need_text(what: str) -> str:
    """``need game-codes`` for a capability; other reasons as they are."""
    return what if what in (BY_IMPLEMENTATION, NOT_APPLICABLE) or " " in what else f"need {what}"


def skip_reasons(detail: str) -> list[str]:
    """The capabilities a skip's detail names (``needs capability game-codes, tap``), else its kind."""
    found = NEEDS.match(detail.strip())
    if found:
        return [c.strip() for c in found[1].split(",") if c.strip()]
    if detail.startswith("implementation skipped it"):
        return [BY_IMPLEMENTATION]
    if detail.startswith(NOT_APPLICABLE):
        return [NOT_APPLICABLE]
    return [detail.split(":", 1)[0].strip() or "no reason given"]


def not_run(records: Iterable[dict[str, Any]]) -> NotRun:
    """The breakdown of a run's records (see the module doc)."""
    listed = list(records)
    skipped = [r for r in listed if r["verdict"] == "skipped" and r.get("claimed") is not False]
    why = Counter(reason for r in skipped for reason in skip_reasons(str(r.get("detail", ""))))
    unclaimed = [r for r in listed if r.get("claimed") is False]
    return NotRun(len(skipped), _most_first(why), len(unclaimed), _most_first(_unclaimed(listed, unclaimed)))


def _most_first(counter: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


def _unclaimed(records: list[dict[str, Any]], unclaimed: list[dict[str, Any]]) -> Counter[str]:
    """Not-claimed runs by what is missing: the base profile when it is never claimed, else each variant
    the claimed runs never have."""
    claimed = [str(r["profile"]).split("+") for r in records if r.get("claimed") is not False]
    bases = {parts[0] for parts in claimed}
    variants = {v for parts in claimed for v in parts[1:]}
    found: Counter[str] = Counter()
    for r in unclaimed:
        base, *extra = str(r["profile"]).split("+")
        missing = [f"+{v}" for v in extra if v not in variants] if base in bases else [base]
        found.update(missing or [str(r["profile"])])
    return found


def claimed_profiles(records: Iterable[dict[str, Any]]) -> set[str]:
    """The profiles with at least one claimed record."""
    return {str(r["profile"]) for r in records if r.get("claimed") is not False}


def runs(n: int) -> str:
    """``1 scenario run``, ``749 scenario runs``."""
    return f"{n} {RUNS}" if n != 1 else f"{n} {RUNS[:-1]}"


FAULT_HINTS = {
    "banner": "stdout carries the protocol's replies only: write banners and logs to stderr",
    "pretty": "write each reply as one line of JSON (not pretty-printed over several lines)",
    "hang": "flush stdout after each reply (to a pipe, most languages buffer what they print)",
    "exit": "keep reading requests until stdin closes: one process answers every request of a run",
}
_PRETTY = re.compile(r"seen on stdout: b?'[\[{]\s*'")  # the first line of JSON written over several lines


def fault_hints(fault: str) -> list[str]:
    """What to do about a fault that spoils every game (a failed handshake, an implementation given up),
    from its words and what was seen (``next:`` lines; none for a fault that names its own cause)."""
    if "not JSON" in fault:
        hint = FAULT_HINTS["pretty" if _PRETTY.search(fault) else "banner"]
    elif "(hang)" in fault:
        hint = FAULT_HINTS["hang"]
    elif "closed its output (exit code 0)" in fault:
        hint = FAULT_HINTS["exit"]
    else:
        return []
    return [f"next: {hint}"]


def spoiled(verdict: str, detail: str) -> bool:
    """Whether a run was errored without being played to a fault of its own: the implementation had been
    given up, or a kind of request it needed was no longer sent (conformance.adapters.stdio, .kinds)."""
    return _cause(verdict, detail) is not None


def _cause(verdict: str, detail: str) -> str | None:
    """``given up``, ``reshuffle actions not sent any more``: what spoiled a run (None: nothing did)."""
    if verdict != "errored":
        return None
    if detail.startswith(GIVEN_UP):
        return GIVEN_UP
    head = detail.split(":", 1)[0]
    return head if head.endswith(NOT_SENT) else None


def spoiled_blocks(spoilt: Iterable[tuple[str, str]]) -> list[str]:
    """One block per cause for the spoiled runs ``spoilt`` (each its run's key and detail, in run order),
    in the order the causes were first met."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for key, detail in spoilt:
        groups.setdefault(_cause("errored", detail) or "", []).append((key, detail))
    return [_block(cause, group[0][0], len(group), group[0][1]) for cause, group in groups.items()]


def _block(cause: str, first: str, count: int, detail: str) -> str:
    """The one block that stands for ``count`` runs spoiled by ``cause``, from run ``first`` on."""
    if cause == GIVEN_UP:
        hint = "--restart-limit 0 starts the implementation again for every game"
        then = "".join(f"\n{line}" for line in fault_hints(detail))
        return f"GIVEN UP from {first} on: {runs(count)} not played, each errored: {detail}\n  ({hint}){then}"
    hint = "--restart-limit 0 sends every request, whatever came of the last ones"
    return f"NOT SENT ANY MORE from {first} on: {runs(count)} errored, each where it needed one: {detail}\n  ({hint})"


def unit_line(records: list[dict[str, Any]]) -> str:
    """``749 scenario runs of 266 scenarios`` (``1 scenario run of 1 scenario``)."""
    scenarios = len({r["id"] for r in records})
    return f"{runs(len(records))} of {scenarios} {SCENARIOS if scenarios != 1 else SCENARIOS[:-1]}"
