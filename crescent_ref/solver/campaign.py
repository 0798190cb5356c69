"""Campaigns: many independent solves (win rates, proofs) run through Dask's distributed scheduler.

A campaign is a list of tasks, a function that does one, and a results file. ``Cluster`` says where
the tasks run: by default a ``LocalCluster`` of worker processes on this machine, one thread each
(a solve's budget counts the CPU seconds of its process, so two solves must never share one); given
a scheduler address (``tcp://host:8786``, from ``dask scheduler`` and ``dask worker`` started on
other machines) the same tasks go there. ``results`` yields each task's answer as it completes, in
any order, with a progress bar on a terminal, so the caller saves it at once: a stopped campaign
keeps every answer that came back, and a rerun that leaves out the finished tasks resumes it.

Dask is an optional extra (``pip install 'crescent-kit[campaign]'``); the rest of the solver does
not need it, and ``results`` says how to install it when it is missing.
"""

from __future__ import annotations

import importlib.util
import logging
import resource
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from crescent_ref.errors import CrescentError
from crescent_ref.game import Game
from crescent_ref.progress import counter
from crescent_ref.solver import waits
from crescent_ref.solver.dead import explain
from crescent_ref.solver.search import Budget, replay, solve

if TYPE_CHECKING:
    from distributed import Client

T = TypeVar("T")
R = TypeVar("R")


class CampaignUnavailable(CrescentError):
    """Dask's distributed scheduler is not installed (the ``campaign`` extra)."""


@dataclass(frozen=True, slots=True)
class Cluster:
    """Where a campaign runs: ``address`` of a running Dask scheduler, or (empty) a local cluster
    of ``workers`` processes with one thread each. ``memory`` bounds a local worker process (the
    nanny restarts one that grows past it, and its task runs again)."""

    address: str = ""
    workers: int = 1
    memory: str = "2GiB"

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ValueError(f"a local cluster needs at least one worker, not {self.workers}")

    def where(self) -> str:
        """In words, for a report line."""
        return f"scheduler {self.address}" if self.address else f"local cluster, {self.workers} process(es)"


def client(cluster: Cluster) -> AbstractContextManager[Client]:
    """A Dask client for ``cluster``, closed (with a local cluster, stopped) on leaving."""
    if importlib.util.find_spec("distributed") is None:
        raise CampaignUnavailable("campaigns need Dask: pip install 'crescent-kit[campaign]' "
                                  "(or 'dask[distributed]')")
    return _connected(cluster)


@contextmanager
def _connected(cluster: Cluster) -> Iterator[Client]:
    import distributed as dd

    if cluster.address:
        with dd.Client(cluster.address) as remote:  # type: ignore[no-untyped-call]
            yield remote
        return
    with dd.LocalCluster(n_workers=cluster.workers, threads_per_worker=1, processes=True,
                         memory_limit=cluster.memory, dashboard_address=None,
                         silence_logs=logging.ERROR) as local, dd.Client(local) as here:  # type: ignore[no-untyped-call]
        yield here


def results(function: Callable[[T], R], tasks: Sequence[T], cluster: Cluster, *, what: str = "tasks",
            unit: str = "task") -> Iterator[R]:
    """``function(task)`` for every task, run on ``cluster``; each result as soon as it is done."""
    if not tasks:
        return
    with client(cluster) as dask:
        import distributed as dd

        futures = dask.map(function, list(tasks), pure=False)
        bar = counter(what, total=len(futures), unit=unit)
        try:
            for future in dd.as_completed(futures):  # type: ignore[no-untyped-call]
                bar.update(1)
                yield future.result()
        finally:
            bar.close()
            dask.cancel(futures)  # type: ignore[no-untyped-call]


@dataclass(frozen=True, slots=True)
class SolveTask:
    """One solve of a win-rate campaign: a code dealt in a profile, within a budget."""

    profile: str
    code: str
    seconds: float
    nodes: int


def solve_record(task: SolveTask) -> dict[str, object]:
    """Solve one deal; the answer as a results-file record. A winning line is replayed on a fresh
    game before it is believed (AssertionError otherwise: the solver is wrong, stop the campaign)."""
    game = Game.deal(task.profile, task.code)
    answer = solve(game, Budget(nodes=task.nodes, seconds=task.seconds))
    if answer.verdict == "winnable" and replay(Game.deal(task.profile, task.code), answer.line) != "won":
        raise AssertionError(f"{task.profile} {task.code}: the solver's line does not win")
    return {"profile": task.profile, "code": task.code, "verdict": answer.verdict,
            "seconds": round(answer.seconds, 3), "nodes": answer.nodes, "stored": answer.stored,
            "line": len(answer.line), "limit": answer.limit, "searches": answer.searches,
            "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "winning_line": answer.line_text(), "proof": answer.proof, "core": answer.core}


@dataclass(frozen=True, slots=True)
class ScanTask:
    """A run of codes to read the dead-at-the-start proof off (``dead.explain``, else
    ``waits.explain``), in one profile."""

    profile: str
    first: int  # index of the first code in the campaign's list
    codes: tuple[str, ...]


def scan_record(task: ScanTask) -> dict[str, object]:
    """The codes of the run whose fresh deal is proved dead, with the reason, as a record."""
    found = []
    for code in task.codes:
        game = Game.deal(task.profile, code)
        if why := explain(game.profile, game.position) or waits.explain(game.profile, game.position):
            found.append([code, why])
    return {"profile": task.profile, "first": task.first, "count": len(task.codes), "found": found}
