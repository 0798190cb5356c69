"""Parameter and reason coverage: the corpus pins every rule parameter and expects every reason code.

``dependents(profile_name, parameter, value)`` plays every scenario of a profile on the reference
engine with that one parameter set to ``value`` (``Profile.changed``) and returns the scenarios whose
verdict changes: the scenarios that would catch an implementation getting that parameter wrong.
``parameter_coverage`` does it for every parameter of every base profile and variant;
``reason_coverage`` lists, per reason code and base profile where it can occur, the scenarios that
expect it. ``crescent-conformance trace --write`` shows both on spec/traceability.md.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, NamedTuple

from conformance.adapters.reference import ReferenceAdapter
from conformance.corpus import cache
from conformance.corpus.load import load_corpus
from conformance.corpus.scenarios import Scenario
from conformance.judging.runner import Verdict, run_scenario
from crescent_ref.game import Game
from crescent_ref.messages import reason_codes
from crescent_ref.position import Position
from crescent_ref.profiles import Profile, base_names, get_profile, parameter_names, variant_names
from crescent_ref.spec_files import load_yaml


class ChangedReference(ReferenceAdapter):
    """The reference engine playing ``profile`` whatever profile name the runner asks for."""

    def __init__(self, profile: Profile) -> None:
        super().__init__()
        self.profile = profile

    def _new_game(self, profile: str, position: str | None, code: str | None) -> Game:
        return Game.deal(self.profile, code) if code else Game(self.profile, _position(position or ""))


@functools.lru_cache(maxsize=2048)
def _position(text: str) -> Position:
    """Positions are immutable: each scenario's text is parsed once for all probes."""
    return Position.from_text(text)


class Probe(NamedTuple):
    """One parameter of one profile (base or variant) set otherwise, and the scenarios that notice."""

    profile: str  # a base profile or a variant name
    parameter: str
    value: Any  # the profile's own value
    changed: Any  # the value tried instead
    scenarios: tuple[str, ...]  # keys ``id[profile]`` whose verdict changes


def dependents(profile_name: str, parameter: str, value: Any, corpus: Iterable[Scenario] | None = None,
               *, limit: int | None = None) -> list[str]:
    """Keys ``id[profile_name]`` of the scenarios (listing ``profile_name``) whose verdict on the
    reference engine changes when ``parameter`` is set to ``value``, in corpus order (all of them,
    or the first ``limit``).

    NotationError for an unknown profile or parameter, or a value outside the parameter's type.
    """
    changed = ChangedReference(get_profile(profile_name).changed({parameter: value}))
    found: list[str] = []
    for sc in load_corpus() if corpus is None else corpus:
        if limit is not None and len(found) >= limit:
            break
        if profile_name in sc.profiles and _changes(changed, sc, profile_name):
            found.append(f"{sc.id}[{profile_name}]")
    _KEPT.flush_due()
    return found


_CHANGES: dict[tuple[str, str, str, str], bool] = {}
_KEPT = cache.Memo("verdict-changes")  # the same answers across processes (xdist workers, trace, lint, docs)


def _changes(changed: ChangedReference, sc: Scenario, profile: str) -> bool:
    """Whether the changed reference's verdict differs from the plain one (once per scenario and change,
    and kept in the corpus cache under the scenario's whole content and the changed profile's)."""
    key = (sc.location, sc.id, profile, changed.profile.name)
    if key not in _CHANGES:
        question = f"{_content(sc)}|{profile}|{changed.profile!r}"
        kept = _KEPT.get(question)
        if not isinstance(kept, bool):
            kept = _verdict(changed, sc, profile) != _baseline(sc, profile)
            _KEPT.put(question, kept)
        _CHANGES[key] = kept
    return _CHANGES[key]


_CONTENT: dict[int, tuple[Scenario, str]] = {}


def _content(sc: Scenario) -> str:
    """A digest of everything the scenario says (its repr), computed once per scenario object."""
    known = _CONTENT.get(id(sc))
    if known is None or known[0] is not sc:
        known = _CONTENT[id(sc)] = (sc, cache.digest(repr(sc)))
    return known[1]


def _verdict(adapter: ReferenceAdapter, sc: Scenario, profile: str) -> Verdict:
    return run_scenario(adapter, adapter.info(), sc, profile).verdict


_BASELINES: dict[tuple[str, str, str], Verdict] = {}


def _baseline(sc: Scenario, profile: str) -> Verdict:
    """The unchanged reference engine's verdict (computed once per scenario and profile)."""
    key = (sc.location, sc.id, profile)
    if key not in _BASELINES:
        _BASELINES[key] = _verdict(ReferenceAdapter(), sc, profile)
    return _BASELINES[key]


def alternative(parameter: str, value: Any) -> Any:
    """The value a probe tries instead of ``value``: the other boolean or enum value, no limit for
    a limit (and 13 for none), no undo for undo (and 100 for none), one reshuffle fewer, piles 16 to 1
    for an autoplay order of 1 to 16 (and 1 to 16 for any other)."""
    kind = str(load_yaml("profiles.yaml")["parameters"][parameter]["type"])
    if kind == "pile-order":
        return "descending" if value == "ascending" else "ascending"
    if kind.startswith("enum"):
        options = [a.strip() for a in kind[kind.index("[") + 1 : kind.index("]")].split(",")]
        return next(o for o in options if o != value)
    if isinstance(value, bool):
        return not value
    if parameter == "pile_limit":
        return 13 if value is None else None
    if parameter == "undo_limit":
        return 100 if value == 0 else 0
    return value - 1


def inert(profile: Profile, parameter: str) -> str | None:
    """Why ``parameter`` cannot change anything in ``profile`` (so no scenario can pin it), or None."""
    if parameter == "undo_cleared_by_reshuffle" and profile.undo_limit == 0:
        return "no effect without undo (undo_limit 0)"
    if parameter in ("autoplay_order", "autoplay_when") and not profile.autoplay:
        return "no effect without autoplay"
    if parameter == "stuck_when" and not (profile.between_foundations or profile.give_backs):
        return "no effect where no card leaves a foundation (both readings then count the same moves)"
    return None


def parameter_coverage(corpus: list[Scenario] | None = None) -> list[Probe]:
    """A probe for every parameter of every base profile, and for every parameter a variant sets."""
    corpus = load_corpus() if corpus is None else corpus
    probes = [p for base in base_names() for p in base_probes(base, corpus)]
    return probes + [p for variant in variant_names() for p in variant_probes(variant, corpus)]


def base_probes(base: str, corpus: list[Scenario], limit: int | None = None) -> list[Probe]:
    """Every parameter of base profile ``base`` set otherwise (see ``alternative``); ``limit`` as in
    ``dependents``."""
    profile, probes = get_profile(base), []
    for param in parameter_names():
        value = getattr(profile, param)
        new = alternative(param, value)
        probes.append(Probe(base, param, value, new, tuple(dependents(base, param, new, corpus, limit=limit))))
    return probes


def variant_probes(variant: str, corpus: list[Scenario], limit: int | None = None) -> list[Probe]:
    """Every parameter ``variant`` sets, set otherwise on each profile with that variant that a
    scenario lists; ``limit`` as in ``dependents`` (per profile)."""
    names = sorted({p for sc in corpus for p in sc.profiles if variant in p.split("+")[1:]})
    probes = []
    for param, spec in load_yaml("profiles.yaml")["variants"][variant]["parameters"].items():
        new = alternative(param, spec["value"])
        found = [key for name in names for key in dependents(name, param, new, corpus, limit=limit)]
        probes.append(Probe(variant, param, spec["value"], new, tuple(sorted(found))))
    return probes


def can_occur(reason: str, profile: Profile) -> bool:
    """``reason`` is a refusal ``profile`` can give (most reasons occur in every profile)."""
    if reason in ("undo-unavailable", "nothing-to-undo"):
        return (profile.undo_limit != 0) == (reason == "nothing-to-undo")
    if reason == "pile-full":
        return profile.pile_limit is not None
    if reason in ("hold-unavailable", "not-double-fit", "must-hold"):
        return profile.hold_double_fit == (reason != "hold-unavailable")
    return True


def reason_coverage(corpus: list[Scenario] | None = None) -> dict[tuple[str, str], list[str]]:
    """(reason, base profile) -> ids of the scenarios expecting that reason in that profile, for
    every pair where the reason can occur."""
    corpus = load_corpus() if corpus is None else corpus
    return {
        (code, base): [sc.id for sc in corpus if base in sc.profiles and _expects(sc, base, code)]
        for code in reason_codes()
        for base in base_names()
        if can_occur(code, get_profile(base))
    }


def _expects(sc: Scenario, profile: str, code: str) -> bool:
    return any(step.expected(profile).reason == code for step in sc.steps)


def render(corpus: list[Scenario]) -> list[str]:
    """The coverage sections of spec/traceability.md (Markdown lines)."""
    lines = [
        "## Parameter coverage",
        "",
        "Each parameter of each base profile and variant (spec/profiles.yaml), set otherwise on the reference",
        "engine (`conformance.coverage.dependents`): the scenarios whose verdict then changes pin that",
        "parameter. A variant's parameter is tried on every profile with that variant that a scenario lists.",
        "",
        "| profile | parameter | value | tried | scenarios whose verdict changes |",
        "|---|---|---|---|---|",
    ]
    for probe in parameter_coverage(corpus):
        lines.append(f"| {probe.profile} | {probe.parameter} | {_value(probe.value)} | {_value(probe.changed)} | "
                     f"{_cell(probe)} |")
    lines += ["", *choice_lines(corpus)]
    lines += ["", "## Reason coverage", "",
              "The scenarios expecting each reason code in each base profile where it can occur (— : it cannot).",
              "", "| reason | " + " | ".join(base_names()) + " |", "|---" * (len(base_names()) + 1) + "|"]
    found = reason_coverage(corpus)
    for code in reason_codes():
        cells = [_ids(found[(code, base)]) if (code, base) in found else "—" for base in base_names()]
        lines.append(f"| {code} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def choice_lines(corpus: list[Scenario]) -> list[str]:
    """The "Choices" section: each choice of spec/interpretations.md, each alternative tried through its
    declared parameters, and the scenarios that alternative decides."""
    from conformance.corpus.vocabulary import choices

    lines = [
        "## Choices",
        "",
        "Each interpretation spec/interpretations.md classifies as a choice. Where a profile parameter declares",
        "it, the reference plays every scenario with the choice set otherwise (`conformance.coverage.choice_probes`);",
        "the scenarios whose verdict changes are the ones the choice decides, and each must name it (lint).",
        "An implementation that took the alternative declares it as a deviation and is judged by the reference",
        "playing it. A choice without a parameter says in spec/interpretations.md what is judged instead.",
        "",
        "| choice | profile | parameter | ours | alternative | scenarios it decides |",
        "|---|---|---|---|---|---|",
    ]
    by_choice: dict[str, list[ChoiceProbe]] = {}
    for probe in choice_probes(corpus):
        by_choice.setdefault(probe.choice, []).append(probe)
    for choice in choices():
        for probe in by_choice.get(choice.id, []):
            lines.append(f"| {choice.id} | {probe.profile} | {probe.parameter} | {_value(probe.value)} | "
                         f"{_value(probe.changed)} | {_choice_cell(probe)} |")
        if not choice.declared_as:
            lines.append(f"| {choice.id} | — | — | — | — | no parameter: see spec/interpretations.md; "
                         f"named by {_ids(_naming(corpus, choice.id))} |")
    return lines


def _naming(corpus: list[Scenario], iid: str) -> list[str]:
    return [sc.id for sc in corpus if iid in sc.interpretations]


def _choice_cell(probe: ChoiceProbe) -> str:
    if probe.scenarios:
        return f"{len(probe.scenarios)}: " + ", ".join(probe.scenarios)
    why = inert(get_profile(probe.profile), probe.parameter)
    return f"— {why}" if why else "none in the corpus"


def _cell(probe: Probe) -> str:
    if probe.scenarios:
        keys = [k.removesuffix(f"[{probe.profile}]") for k in probe.scenarios]
        return f"{len(keys)}: " + ", ".join(keys)
    why = inert(get_profile(probe.profile), probe.parameter) if probe.profile in base_names() else None
    return f"— {why}" if why else "**none**"


def _ids(ids: list[str]) -> str:
    if not ids:
        return "**none**"
    return f"{len(ids)}: " + ", ".join(ids[:4]) + (" …" if len(ids) > 4 else "")


def _value(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


class ChoiceProbe(NamedTuple):
    """One choice of spec/interpretations.md set otherwise through one of its parameters, and the
    scenarios that notice (``id[profile]``, every profile of that base a scenario lists)."""

    choice: str
    profile: str  # the base profile
    parameter: str
    value: Any
    changed: Any
    scenarios: tuple[str, ...]


def choice_probes(corpus: list[Scenario] | None = None) -> list[ChoiceProbe]:
    """Every ``Declared as`` parameter of every choice, set otherwise on its base profile and on each
    of that base's profiles with variants that leave the parameter alone."""
    from conformance.corpus.vocabulary import choices

    corpus = load_corpus() if corpus is None else corpus
    names = sorted({p for sc in corpus for p in sc.profiles})
    probes = []
    for choice in choices():
        for base, param in choice.declared_as:
            value = getattr(get_profile(base), param)
            new = alternative(param, value)
            found = [key for name in names if _probed(name, base, param)
                     for key in dependents(name, param, new, corpus)]
            probes.append(ChoiceProbe(choice.id, base, param, value, new, tuple(found)))
    return probes


def _probed(name: str, base: str, param: str) -> bool:
    """``name`` is ``base`` or ``base+variants`` where no variant sets ``param`` itself."""
    first, *variants = name.split("+")
    spec = load_yaml("profiles.yaml")["variants"]
    return first == base and not any(param in spec[v]["parameters"] for v in variants)
