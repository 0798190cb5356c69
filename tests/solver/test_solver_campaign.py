"""Campaigns through Dask (crescent_ref/solver/campaign.py, benchmarks/winrate.py and proved_deals.py):
a local cluster of one worker process, a handful of deals, tiny budgets; results saved as they
come, and a rerun solves only what is missing."""

from __future__ import annotations

import gzip
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from crescent_ref.solver import campaign
from crescent_ref.solver.campaign import CampaignUnavailable, Cluster, ScanTask, SolveTask

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def run_script(name: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / name), *args], capture_output=True, text=True,
                          timeout=300, check=True)
    return done.stdout


def test_a_local_cluster_runs_every_task_once() -> None:
    tasks = [ScanTask("hoffmann-1892", 0, ("CR1-N-AUVOGSX", "CR1-N-BAAAAAA")),
             ScanTask("app", 2, ("CR1-N-AUVOGSX",))]
    got: list[dict[str, Any]] = sorted(campaign.results(campaign.scan_record, tasks, Cluster(workers=1)),
                                       key=lambda r: str(r["first"]))
    assert [r["first"] for r in got] == [0, 2]
    assert [f[0] for f in got[0]["found"]] == ["CR1-N-AUVOGSX"]
    assert got[1]["found"] == [] and got[1]["count"] == 1  # the wrap: no locked card at the start


def test_a_solve_record_carries_a_replayed_winning_line() -> None:
    record = campaign.solve_record(SolveTask("app", "CR1-N-BAAAAAA", 10.0, 200_000))
    assert record["verdict"] == "winnable" and record["line"] == len(str(record["winning_line"]).split())
    proved = campaign.solve_record(SolveTask("hoffmann-1892", "CR1-N-AUVOGSX", 1.0, 1_000))
    assert proved["verdict"] == "not winnable" and "dead at the start" in str(proved["proof"])


def test_the_win_rate_campaign_saves_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "rates.json.gz"
    common = ["--profiles", "app", "--seconds", "0.2", "--nodes", "3000", "--out", str(out)]
    run_script("winrate.py", "--count", "2", *common)
    first = json.loads(gzip.decompress(out.read_bytes()))
    assert [r["code"] for r in first["results"]] != [] and len(first["results"]) == 2
    assert first["machine"]["cluster"] == "local cluster, 1 process(es)"
    table = run_script("winrate.py", "--count", "3", *common)
    again = json.loads(gzip.decompress(out.read_bytes()))
    assert again["results"][:2] == first["results"]  # kept, not solved again
    assert len(again["results"]) == 3 and "app                3" in table
    row = run_script("winrate.py", "--markdown", str(out)).splitlines()[-1]
    assert row.startswith("| `app` | 0.2 | 3 |") and row.count("[") == 3  # won, not winnable, unknown


def test_the_plot_of_decided_deals_against_the_budget(tmp_path: Path) -> None:
    rows = [{"profile": "app", "code": f"C{i}", "verdict": v, "seconds": s}
            for i, (v, s) in enumerate([("winnable", 0.1), ("winnable", 1.5), ("not winnable", 2.01), ("unknown", 2)])]
    data = tmp_path / "rates.json"
    data.write_text(json.dumps({"budget": {"seconds": 2, "nodes": 9}, "results": rows}))
    plot = tmp_path / "plot.svg"
    run_script("winrate.py", "--svg", str(plot), str(data))
    svg = ElementTree.parse(plot).getroot()
    lines = svg.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 1
    heights = [float(p.split(",")[1]) for p in lines[0].attrib["points"].split()]
    assert heights == sorted(heights, reverse=True) and heights[0] > heights[-1]  # rises with the budget
    labels = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert "app (4) 75.0 %" in labels  # three of four decided, one just past its budget


def test_the_proof_campaign_reads_runs_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "proved.json"
    text = run_script("proved_deals.py", "--count", "600", "--profiles", "app", "--out", str(out))
    assert "app: 0 of 600 deals" in text
    runs = json.loads(out.read_text())["results"]
    assert [(r["first"], r["count"]) for r in runs] in ([(0, 500), (500, 100)], [(500, 100), (0, 500)])
    assert "app: 0 of 600 deals" in run_script("proved_deals.py", "--count", "600", "--profiles", "app",
                                                 "--out", str(out))
    assert len(json.loads(out.read_text())["results"]) == 2  # nothing read twice


def test_without_dask_a_campaign_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(CampaignUnavailable, match=r"crescent-kit\[campaign\]"):
        list(campaign.results(campaign.scan_record, [ScanTask("app", 0, ())], Cluster()))


def test_a_cluster_needs_a_worker_and_names_where_it_runs() -> None:
    with pytest.raises(ValueError, match="at least one worker"):
        Cluster(workers=0)
    assert Cluster("tcp://10.0.0.1:8786").where() == "scheduler tcp://10.0.0.1:8786"


def test_a_scheduler_address_sends_the_tasks_to_its_workers() -> None:
    import distributed

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,  # type: ignore[no-untyped-call]
                                  dashboard_address=None, silence_logs=50) as there:
        cluster = Cluster(there.scheduler_address)
        task = ScanTask("hoffmann-1892", 0, ("CR1-N-AUVOGSX",))
        got: list[dict[str, Any]] = list(campaign.results(campaign.scan_record, [task], cluster))
        assert there.scheduler is not None and there.scheduler.tasks == {}  # done and released
    assert got[0]["found"][0][0] == "CR1-N-AUVOGSX" and cluster.where() == f"scheduler {there.scheduler_address}"
