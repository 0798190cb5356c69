"""The pytest plugin (entry point ``crescent`` in ``pytest11``): the corpus as pytest items.

Inert unless ``--crescent-impl``, ``--crescent-cmd`` or an ini twin is set. Then every scenario of
the shipped corpus (and of ``--crescent-scenarios`` folders) becomes one item per profile, in a
stable sorted order, named ``<id>[<profile>]`` under ``crescent/<file>``. Independently,
``--crescent-logs DIR`` makes every game log below DIR an item (spec/game-log.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conformance.adapter import GIVEN_UP, RESTART_LIMIT
from conformance.adapters.pipes import MAX_LINE, end_children_on_exit
from conformance.idle_hypothesis import quiet_idle_hypothesis
from conformance.nodeids import select as select_named
from conformance.nodeids import take as take_named

if TYPE_CHECKING:  # imported where used: an xdist controller or a session without an implementation needs none
    from conformance.adapter import Adapter, Info
    from conformance.contract import Contract
    from conformance.contract.expectations import Expectations
    from conformance.corpus.scenarios import Scenario
    from conformance.judging.runner import Result
    from crescent_ref.errors import CrescentError

OPTIONS = {
    "impl": "implementation in-process: 'reference' or module:factory",
    "cmd": "command line of an implementation speaking the stdio protocol",
    "profile": "run only these profiles (comma-separated; base or base+variants)",
    "expectations": "file of known deviations by scenario id (expected failures, strict)",
    "write_expectations": "write the deviations of this run to this file",
    "report": "write the JSON report to this file",
    "scenarios": "extra scenario folders (comma-separated)",
    "timeout": "seconds per stdio request (default 10)",
    "max_line": "longest stdio reply line in bytes (default 8 MiB); a longer one is a fault",
    "restart_limit": "after N stdio processes in a row fault before answering, one plain game decides whether the "
    "implementation is started again (default 3; 0: always)",
    "fuzz": "also play N differential games per profile against the reference (0 = off)",
    "fuzz_steps": "most actions per differential game (default 50)",
    "fuzz_seed": "seed of the differential games (default 0: the same games every run)",
    "fuzz_out": "folder for scenario files written on a difference (default fuzz-findings)",
    "sources": "folder of the rule documents for the quote check (default $CRESCENT_SOURCES, else ../shared/seeds)",
    "logs": "game logs to check on the reference (folders or files, comma-separated; spec/game-log.md)",
    "fuzz_seconds": "most seconds of differential play per profile (split across xdist workers)",
    "fuzz_db": "example database folder: past findings replayed first (default .crescent/fuzz-db)",
    "fuzz_ignore": "differences fuzz looks past, comma-separated KIND:VALUE (see crescent-conformance fuzz --help)",
    "max_failures": "show only the first N failures in full (per process), the others in one line each",
    "label": "a name for this run of the implementation (reports, matrix columns)",
}
_ADAPTER = pytest.StashKey["Adapter"]()
_INFO = pytest.StashKey["Info"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Options in a ``crescent`` group, each with an ini twin ``crescent_<name>``."""
    group = parser.getgroup("crescent", "Crescent conformance kit")
    for name, help_text in OPTIONS.items():
        flag = "--crescent-" + name.replace("_", "-")
        group.addoption(flag, dest=f"crescent_{name}", default=None, help=help_text)
        parser.addini(f"crescent_{name}", help_text, default=None)
    group.addoption(
        "--crescent-validate-protocol",
        dest="crescent_validate_protocol",
        action="store_true",
        default=None,
        help="check every stdio message against spec/schema/protocol.schema.json",
    )
    parser.addini(
        "crescent_validate_protocol", "check every stdio message against the schema", type="bool", default=False
    )
    group.addoption(
        "--crescent-allow-empty",
        dest="crescent_allow_empty",
        action="store_true",
        default=None,
        help="exit 0 even when every scenario was skipped",
    )
    parser.addini("crescent_allow_empty", "exit 0 even when every scenario was skipped", type="bool", default=False)


def option(config: pytest.Config, name: str) -> Any:
    """A crescent option's value: the command line first, then the ini file."""
    value = config.getoption(f"crescent_{name}")
    return value if value is not None else config.getini(f"crescent_{name}")


def active(config: pytest.Config) -> bool:
    """The plugin does anything only when an implementation is named."""
    return bool(option(config, "impl") or option(config, "cmd"))


def _split(value: Any) -> list[str]:
    return [v.strip() for v in str(value or "").split(",") if v.strip()]


class ScenarioFile(pytest.File):
    """One scenario file; its items are the scenarios in each of their profiles."""

    scenarios: list[Scenario]

    def collect(self) -> Iterator[pytest.Item]:
        wanted = _split(option(self.config, "profile"))
        for sc in self.scenarios:
            for profile in sc.profiles:
                if not wanted or profile in wanted or profile.split("+")[0] in wanted:
                    name = f"{sc.id}[{profile}]"
                    yield ScenarioItem.from_parent(
                        self, name=name, nodeid=f"{self.nodeid}::{name}", scenario=sc, profile=profile
                    )


class ScenarioItem(pytest.Item):
    """One scenario in one profile. Run in setup, so an errored adapter shows as a pytest error."""

    def __init__(self, *, scenario: Scenario, profile: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.profile = profile
        self.result: Result | None = None
        self.add_marker(getattr(pytest.mark, scenario.area.replace("-", "_")))

    def setup(self) -> None:
        from conformance.judging.runner import Result, judge

        adapter = self.config.stash[_ADAPTER]
        try:
            _info(self.config)
        except Exception as err:  # an adapter fault (a stdio handshake, or an in-process adapter's exception)
            self.result = Result(self.scenario, self.profile, "errored", _handshake_fault(err))
            self.session.shouldfail = _stop_reason(self.result.detail)  # no item can play
        else:
            self.result = judge(adapter, contract(self.config), self.scenario, self.profile)
        if self.result.verdict == "skipped":
            pytest.skip(self.result.detail)
        if self.result.verdict == "errored":
            if self.result.detail.startswith(GIVEN_UP):  # no later item could play: the session stops, as -x does
                self.session.shouldfail = _stop_reason(self.result.detail)
            raise ScenarioErrored(self.result)

    def runtest(self) -> None:
        if self.result is not None and self.result.verdict == "failed":
            raise ScenarioFailed(self.result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed | ScenarioErrored):
            return _failure_text(self.config, excinfo.value.result)
        return str(super().repr_failure(excinfo))

    def _repr_failure_py(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """Setup-phase errors (errored scenarios) are shown like failures, not as tracebacks."""
        if isinstance(excinfo.value, ScenarioFailed):
            return _failure_text(self.config, excinfo.value.result)
        return super()._repr_failure_py(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(self.scenario.file), self.scenario.line - 1, f"{self.scenario.id} [{self.profile}]"


class ScenarioFailed(Exception):
    """The implementation deviated from the scenario."""

    def __init__(self, result: Result) -> None:
        super().__init__(result.key)
        self.result = result


class ScenarioErrored(ScenarioFailed):
    """The implementation could not run the scenario (crash, hang, garbage, refused position)."""


def _failure_text(config: pytest.Config, result: Result) -> str:
    """What went wrong in its first line (pytest's short summary line shows it after the item's id, which
    already names the scenario), then the whole failure; ``--tb=line`` keeps the first line only."""
    from conformance.judging.report import failure_headline, format_failure

    headline = failure_headline(result)
    if config.getoption("tbstyle", "auto") == "line":
        return headline
    shown, cap = config.stash.get(_SHOWN, 0), _number(config, "max_failures", int, 0)
    if cap and shown >= cap:
        return f"{headline}   (in full only the first {cap}: --crescent-max-failures)"
    config.stash[_SHOWN] = shown + 1
    return f"{headline}\n{format_failure(result, _replay_contract(config))}"


_SHOWN = pytest.StashKey[int]()


def _impl_label(config: pytest.Config) -> str:
    cmd = option(config, "cmd")
    return f'--cmd "{cmd}"' if cmd else f"--impl {option(config, 'impl')}"


def contract(config: pytest.Config) -> Contract:
    """The contract of this session: the handshake (asked once), the expectations file, label and command.
    Before a handshake (or after a failed one) the declarations are unknown."""
    from conformance.adapter import Info
    from conformance.contract import Contract

    if _CONTRACT not in config.stash:
        try:
            info = _info(config)
        except Exception:
            return Contract(Info("?", "?", "?", ()), _loaded_expectations(config), _label(config), _impl_label(config))
        config.stash[_CONTRACT] = Contract(info, _loaded_expectations(config), _label(config), _impl_label(config))
    return config.stash[_CONTRACT]


def _label(config: pytest.Config) -> str:
    return str(option(config, "label") or "")


def _loaded_expectations(config: pytest.Config) -> Expectations:
    from conformance.contract.expectations import Expectations, load_expectations
    from crescent_ref.errors import CrescentError

    try:
        return load_expectations(option(config, "expectations"))
    except CrescentError:
        return Expectations()  # reported as a usage error at collection


def _replay_contract(config: pytest.Config) -> Contract:
    """The contract a replay command is printed for (the crescent-conformance run options that recreate it)."""
    return contract(config)


def _info(config: pytest.Config) -> Info:
    """The adapter's handshake answer, asked once per process (a failure too: it is not retried)."""
    if _HANDSHAKE in config.stash:
        raise config.stash[_HANDSHAKE]
    if _INFO not in config.stash:
        try:
            config.stash[_INFO] = config.stash[_ADAPTER].info()
        except Exception as err:
            config.stash[_HANDSHAKE] = err
            raise
    return config.stash[_INFO]


def _stop_reason(detail: str) -> str:
    """Why the session stops (a failed handshake, the implementation given up), with what to do about it."""
    from conformance.wording import fault_hints

    return f"crescent: {detail.splitlines()[0]}" + "".join(f"; {hint}" for hint in fault_hints(detail))


def _handshake_fault(err: Exception) -> str:
    from conformance.adapter import AdapterError

    text = str(err) if isinstance(err, AdapterError) else f"{type(err).__name__}: {err}"
    return text if text.startswith("handshake failed") else f"handshake failed: {text}"


_HANDSHAKE = pytest.StashKey[Exception]()
_CONTRACT = pytest.StashKey["Contract"]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """The report that ends a scenario item (its call, or a setup that skipped or errored) carries the
    scenario's record as ``report.crescent`` (JSON), sent once per item (xdist copies a report attribute
    from worker to controller like the rest of the report). The first record of a process carries the
    implementation and the contract; the others leave them out, and ``Records`` puts them back."""
    report = yield
    ends = call.when == "call" or (call.when == "setup" and report.outcome != "passed")
    if isinstance(item, ScenarioItem) and item.result is not None and ends:
        identity = _IDENTITY_SENT not in item.config.stash
        item.config.stash[_IDENTITY_SENT] = True
        report.crescent = json.dumps(_record(item.result, contract(item.config), identity))
    return report


_IDENTITY_SENT = pytest.StashKey[bool]()
IDENTITY = ("implementation", "contract")


def _record(result: Result, judged: Contract, identity: bool = True) -> dict[str, Any]:
    from conformance.judging.report import result_record

    if not identity:
        return result_record(result)
    info = judged.info
    implementation = {
        "name": info.name,
        "version": info.version,
        "language": info.language,
        "capabilities": sorted(info.capabilities),
        "deviations": {base: dict(changes) for base, changes in info.deviations.items()},
    }
    return {**result_record(result), "implementation": implementation, "contract": judged.as_record()}


def pytest_configure(config: pytest.Config) -> None:
    """Start the adapter (one per process, so one per xdist worker) and register markers; keep the
    kit node ids named on the command line for selection (conformance/nodeids.py)."""
    config.addinivalue_line("markers", "crescent: a Crescent conformance scenario")
    take_named(config)
    given = config.getoption("crescent_cmd")
    if given is not None and not str(given).strip():  # an unset $ADAPTER must not quietly run nothing
        raise pytest.UsageError("--crescent-cmd is empty: name the implementation's command line")
    if not active(config):
        return
    _number(config, "max_failures", int, 1)  # a bad value is a usage error now, not at the first failure
    connection(config)  # so is a bad timeout, line limit or restart limit (an xdist controller starts no adapter)
    _check_outputs(config)
    if not controls_workers(config):  # an xdist controller runs no scenario: its workers start their own
        config.stash[_ADAPTER] = _adapter(config)
    end_children_on_exit()  # SIGTERM and SIGHUP end the adapter first (an xdist worker too)
    from crescent_ref.exits import quick_shutdown

    quick_shutdown()  # the session's objects skip the collector's passes at exit (crescent_ref.exits)
    config.stash[_RECORDS] = Records()
    config.pluginmanager.register(config.stash[_RECORDS], "crescent-records")
    for area in _areas():
        config.addinivalue_line("markers", f"{area.replace('-', '_')}: scenarios of rule area {area}")


def controls_workers(config: pytest.Config) -> bool:
    """This process is an xdist controller: it hands the items to workers and runs none itself."""
    distributed = config.getoption("dist", "no") != "no" and bool(config.getoption("tx", None))
    return distributed and not hasattr(config, "workerinput")


def connection(config: pytest.Config) -> tuple[float, int, bool, int]:
    """The stdio options (timeout, longest line, validate, restart limit), read the same way for every item
    that starts an adapter; UsageError naming a bad one."""
    timeout, max_line = _number(config, "timeout", float, 10.0), _number(config, "max_line", int, MAX_LINE)
    return timeout, max_line, bool(option(config, "validate_protocol")), restart_limit(config)


def _adapter(config: pytest.Config) -> Adapter:
    """The adapter the options name; UsageError when the user's module or factory cannot give one."""
    from conformance.adapters.session import make_adapter

    impl, cmd = option(config, "impl"), option(config, "cmd")
    try:
        return make_adapter(impl, cmd, *connection(config))
    except Exception as err:  # the user's module or factory: a usage error, not a crash of pytest
        raise pytest.UsageError(f"--crescent-impl {impl!r}: cannot load the adapter: {err}") from None


def _number(config: pytest.Config, name: str, kind: type[float] | type[int], default: float, zero: bool = False) -> Any:
    """A positive number option (``zero``: or zero); UsageError naming that option otherwise."""
    value = option(config, name)
    if value in (None, ""):
        return default
    try:
        number = kind(value)
    except ValueError:
        number = -1
    if number < 0 or (number == 0 and not zero):
        flag = "--crescent-" + name.replace("_", "-")
        wanted = "a whole number of zero or more" if zero else "a positive number"
        raise pytest.UsageError(f"{flag} {value!r}: expected {wanted}")
    return number


def restart_limit(config: pytest.Config) -> int:
    """``--crescent-restart-limit`` (conformance.adapters.stdio: when a failing implementation is given up)."""
    return int(_number(config, "restart_limit", int, RESTART_LIMIT, zero=True))


def _check_outputs(config: pytest.Config) -> None:
    """Output files must be writable before the run starts, not found out after it."""
    from conformance.files import OutputPathError, check_writable

    for name in ("report", "write_expectations"):
        if option(config, name):
            try:
                check_writable(Path(option(config, name)), "--crescent-" + name.replace("_", "-"))
            except OutputPathError as err:
                raise pytest.UsageError(str(err)) from None


def _areas() -> list[str]:
    from crescent_ref.spec_files import load_yaml

    return list(load_yaml("vocabulary.yaml")["areas"])


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the adapter."""
    adapter = config.stash.get(_ADAPTER, None)
    if adapter is not None:
        adapter.close()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add the corpus's items (before -k, -m and --lf select among them) and mark expected failures;
    add the game logs of ``--crescent-logs`` (which need no implementation); keep only the kit items
    named on the command line, if any are."""
    _add_logs(session, config, items)
    if active(config):
        _add_corpus(session, config, items)
    select_named(config, items, active(config))


def _add_corpus(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    from conformance.corpus.load import load_files
    from crescent_ref.errors import CrescentError

    extra = [Path(p) for p in _split(option(config, "scenarios"))]
    by_file: dict[str, list[Scenario]] = {}
    broken = False
    for path, loaded in load_files(extra):
        if isinstance(loaded, CrescentError):
            broken = True
            _collect_error(session, path, loaded)
        else:
            by_file[str(path)] = loaded
    corpus = [sc for scs in by_file.values() for sc in scs]
    pairs = {(sc.id, p) for sc in corpus for p in sc.profiles}
    config.stash[_RECORDS].corpus_sizes.append(None if broken else len(pairs))
    expectations = _expectations(config, corpus, check=not broken)
    for file, scenarios in by_file.items():
        node = ScenarioFile.from_parent(session, path=Path(file), nodeid=f"crescent/{Path(file).name}")
        node.scenarios = scenarios
        _announce(config, node, list(node.collect()), items, expectations)
    if int(option(config, "fuzz") or 0) > 0:
        fuzz_items = _fuzz_items(session, config)
        _announce(config, fuzz_items[0].parent, fuzz_items, items, expectations)


def _add_logs(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if not option(config, "logs"):
        return
    from conformance.logs.items import log_items

    for node, new in log_items(session, [Path(p) for p in _split(option(config, "logs"))]):
        config.hook.pytest_collectreport(report=pytest.CollectReport(node.nodeid, "passed", None, list(new)))
        items.extend(new)


def _collect_error(session: pytest.Session, file: Path, err: CrescentError) -> None:
    """A broken scenario file is a collection error naming file, line and what is wrong."""
    report = pytest.CollectReport(f"crescent/{file.name}", "failed", str(err), [])
    session.config.hook.pytest_collectreport(report=report)


def _expectations(config: pytest.Config, scenarios: list[Scenario], check: bool) -> Expectations:
    """The expectations file; a malformed one, or one naming unknown scenarios, is a usage error."""
    from conformance.contract.expectations import load_expectations
    from crescent_ref.errors import CrescentError

    try:
        expectations = load_expectations(option(config, "expectations"))
    except CrescentError as err:
        raise pytest.UsageError(f"--crescent-expectations: {err}") from None
    unknown = expectations.unknown(scenarios) if check else []
    if check and any(key.startswith("perft/") for key in expectations.deviations):
        from conformance.explore.perft import cases

        unknown += expectations.unknown_perft((case.name, case.profile) for case in cases())
    if unknown:
        named = "--crescent-expectations names unknown scenarios or perft cases:\n"
        raise pytest.UsageError(named + "\n".join(map(str, unknown)))
    return expectations


def _announce(
    config: pytest.Config, node: Any, new: list[pytest.Item], items: list[pytest.Item], expectations: Expectations
) -> None:
    """Add items and report them as collected, so pytest's counts and --collect-only include them."""
    for item in new:
        if isinstance(item, ScenarioItem):
            _expect(item, expectations)
    config.hook.pytest_collectreport(report=pytest.CollectReport(node.nodeid, "passed", None, list(new)))
    items.extend(new)


def _fuzz_items(session: pytest.Session, config: pytest.Config) -> list[pytest.Item]:
    """One item per profile and xdist worker: each plays its share of the games and seconds."""
    parent = FuzzFile.from_parent(session, path=Path("differential"), nodeid="crescent/differential")
    profiles = _split(option(config, "profile")) or ["app", "open", "hoffmann-1892", "morehead-1949"]
    parts = int(getattr(config, "workerinput", {}).get("workercount", 1))
    return [
        FuzzItem.from_parent(parent, name=f"fuzz[{p}]" + (f"[{k + 1}of{parts}]" if parts > 1 else ""), profile=p,
                             part=(k, parts))
        for p in profiles
        for k in range(parts)
    ]


class FuzzFile(pytest.File):
    """The parent of the differential-play items."""

    def collect(self) -> Iterator[pytest.Item]:
        return iter(())


class FuzzFailed(Exception):
    """Differential play found differences (the message lists them)."""


class FuzzItem(pytest.Item):
    """Differential play in one profile: its part of the budget of the fuzz options, past findings first."""

    def __init__(self, *, profile: str, part: tuple[int, int] = (0, 1), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.profile, self.part = profile, part

    def runtest(self) -> None:
        from conformance.adapters.session import make_adapter
        from conformance.contract.expectations import fuzz_rules
        from conformance.explore.fuzz import FuzzConfig, Ignore, fuzz
        from conformance.explore.fuzz.database import open_database, past_cases, save_case

        cfg = self.config
        info = _info(cfg)
        if info.supports(self.profile):
            pytest.skip(str(info.supports(self.profile)))
        seconds = option(cfg, "fuzz_seconds")
        db = open_database(Path(option(cfg, "fuzz_db") or ".crescent/fuzz-db"))
        name = f"{info.name} {info.version}"
        config = FuzzConfig(
            profile=self.profile,
            games=int(option(cfg, "fuzz")),
            seconds=float(seconds) / self.part[1] if seconds else None,
            steps=int(option(cfg, "fuzz_steps") or 40),
            seed=int(option(cfg, "fuzz_seed") or 0),
            out=Path(option(cfg, "fuzz_out") or "fuzz-findings"),
            ignore=Ignore.parse(_split(option(cfg, "fuzz_ignore")) + fuzz_rules(contract(cfg).expectations)),
            replay=past_cases(db, name, self.profile) if self.part[0] == 0 else (),
            part=self.part,
        )
        impl, cmd, options = option(cfg, "impl"), option(cfg, "cmd"), connection(cfg)
        report = fuzz(lambda: make_adapter(impl, cmd, *options), config)
        for finding in report.findings:
            if finding.case.given:
                save_case(db, name, self.profile, finding.case)
        if report.findings:
            raise FuzzFailed("\n".join(f"DIFFERENCE {n}: {f}" for n, f in enumerate(report.findings, 1)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, FuzzFailed):
            seed = option(self.config, "fuzz_seed") or 0
            return f"differential play [{self.profile}] (seed {seed}):\n{excinfo.value}"
        return f"differential play [{self.profile}]: {type(excinfo.value).__name__}: {excinfo.value}"

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path("differential"), 0, f"differential play [{self.profile}]"


def _expect(item: pytest.Item, expectations: Expectations) -> None:
    assert isinstance(item, ScenarioItem)
    why = expectations.reason_for(item.scenario.id, item.profile)
    if why is not None:
        item.add_marker(pytest.mark.xfail(reason=f"known deviation: {why}", strict=True, raises=ScenarioFailed))


class Records:
    """The scenario records of this session (from this process or from xdist workers), how many were due,
    how many scenario-profile pairs the corpus has, and whether every item was the kit's own."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.planned: int | None = None
        self.notes: list[str] = []
        self.corpus_sizes: list[int | None] = []  # one per process that collected (None: a broken file)
        self.kit_only: list[bool] = []  # the same
        self.identity: dict[Any, dict[str, Any]] = {}  # the implementation and contract, by sending worker

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Keep the record of each scenario item (see ``pytest_runtest_makereport``)."""
        text = getattr(report, "crescent", None)
        if text is None:
            return
        record = json.loads(str(text))
        sender = getattr(report, "node", None)  # the xdist worker it came from (None: this process)
        if IDENTITY[0] in record:
            self.identity[sender] = {k: record.pop(k) for k in IDENTITY if k in record}
        self.records.append({**record, **self.identity.get(sender, {})})

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """The selected scenario items (after -k, -m, --lf, --sw deselection), when collected here."""
        self.kit_only.append(all(_kit_item(item) for item in session.items))
        if not hasattr(session.config, "workerinput") and session.items:
            self.planned = sum(isinstance(item, ScenarioItem) for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Under xdist the workers collect; every worker collects the same items."""
        self.planned = sum(i.startswith("crescent/") and "::fuzz[" not in i for i in ids)

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        """A worker's facts of its collection (``workeroutput``, written in its ``pytest_sessionfinish``)."""
        output = getattr(node, "workeroutput", {})
        if "crescent_corpus" in output:
            self.corpus_sizes.append(output["crescent_corpus"])
            self.kit_only.append(bool(output.get("crescent_kit_only")))

    def kit_only_session(self) -> bool:
        """Every process that collected collected only the kit's items (no user's test ran anywhere)."""
        return bool(self.kit_only) and all(self.kit_only)

    def corpus_size(self) -> int | None:
        """The corpus's scenario-profile pairs, when every process that collected read every file."""
        sizes = set(self.corpus_sizes)
        return None if not sizes or None in sizes or len(sizes) > 1 else sizes.pop()


_RECORDS = pytest.StashKey[Records]()


def _kit_item(item: pytest.Item) -> bool:
    """A scenario, differential-play or game-log item (classes of this package), not a user's test."""
    return type(item).__module__.partition(".")[0] == __name__.partition(".")[0]


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Write the JSON report and the expectations file; fail a run where nothing was judged."""
    config = session.config
    if not active(config) or _RECORDS not in config.stash:
        return
    store = config.stash[_RECORDS]
    if store.kit_only_session():
        quiet_idle_hypothesis(config)
    if hasattr(config, "workerinput"):
        _tell_controller(config, store)
        return
    if config.option.collectonly:
        return
    from conformance.contract.expectations import write_expectations
    from conformance.judging.report import report_header_records, write_records

    records = sorted(store.records, key=lambda r: (r["file"], r["line"], r["profile"]))
    finished = _finished(session, exitstatus, store, records)
    complete = finished and not _selected(config) and _covers_corpus(store, records)
    if option(config, "report"):
        header = {**report_header_records(records, complete), "planned": store.planned}
        write_records(Path(option(config, "report")), header, records)
    if option(config, "write_expectations"):
        if finished:
            write_expectations(Path(option(config, "write_expectations")), records)
        else:
            store.notes.append("expectations file NOT written: the run did not finish (interrupted or stopped early)")
    _judge_emptiness(session, config, store, records)


def _finished(session: pytest.Session, exitstatus: int, store: Records, records: list[dict[str, Any]]) -> bool:
    """Every selected scenario ran: no interrupt, no early stop (-x, --maxfail, --sw), no record missing."""
    stopped = exitstatus == pytest.ExitCode.INTERRUPTED or session.shouldstop or session.shouldfail
    return not stopped and (store.planned is None or len(records) >= store.planned)


def _covers_corpus(store: Records, records: list[dict[str, Any]]) -> bool:
    """Every scenario of the corpus ran in every one of its profiles (the corpus counted where it was
    collected, before any deselection: under xdist the workers deselect, and what they drop is seen
    nowhere else; the records can only name pairs of that corpus)."""
    size = store.corpus_size()
    return size is not None and len({(r["id"], r["profile"]) for r in records}) >= size


def _tell_controller(config: pytest.Config, store: Records) -> None:
    """A worker's part of the controller's judgement: the corpus size and whether every item was the kit's."""
    output: dict[str, Any] = getattr(config, "workeroutput", {})
    output["crescent_corpus"] = store.corpus_size()
    output["crescent_kit_only"] = store.kit_only_session()


def _selected(config: pytest.Config) -> bool:
    """The run was asked for a part of the corpus (-k, -m, a profile, --lf, --sw, deselection)."""
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    deselected = bool(terminal is not None and terminal.stats.get("deselected"))
    return bool(
        config.getoption("keyword")
        or config.getoption("markexpr")
        or option(config, "profile")
        or config.getoption("lf", False)
        or config.getoption("stepwise", False)
        or config.getoption("deselect", None)
        or deselected
    )


def _judge_emptiness(
    session: pytest.Session, config: pytest.Config, store: Records, records: list[dict[str, Any]]
) -> None:
    """A run where every scenario was skipped judged nothing: exit 1 (unless --crescent-allow-empty)."""
    if session.exitstatus != pytest.ExitCode.OK or option(config, "allow_empty") or not records:
        return
    if all(r["verdict"] == "skipped" for r in records):
        store.notes.append(f"all {len(records)} scenarios were skipped: nothing was judged (--crescent-allow-empty)")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Per rule area counts, and what the session end decided (files not written, an empty run)."""
    if not active(config) or _RECORDS not in config.stash:
        return
    store = config.stash[_RECORDS]
    if store.records:
        from conformance.judging.report import area_summary_records, counts, declared_lines, report_header_records
        from conformance.wording import not_run, unit_line

        terminalreporter.write_sep("=", "Crescent conformance by rule area")
        header = report_header_records(store.records, True)
        breakdown = not_run(store.records)
        for line in [*declared_lines(header, store.records), *area_summary_records(store.records), *breakdown.lines()]:
            terminalreporter.write_line(line)
        tally = ", ".join(f"{n} {o}" for o, n in counts(store.records).items() if n)
        terminalreporter.write_line(f"{unit_line(store.records)}: {tally}")
        if breakdown.skipped and breakdown.not_claimed:
            terminalreporter.write_line(
                f"(pytest counts all {breakdown.skipped + breakdown.not_claimed} as skipped: {breakdown.skipped} "
                f"skipped for a missing capability or by the implementation, {breakdown.not_claimed} not claimed)"
            )
    for note in store.notes:
        terminalreporter.write_line(f"crescent: {note}", red=True)
