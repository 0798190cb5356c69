"""Past findings, kept in a hypothesis example database and replayed first on the next run.

The database is hypothesis' own (a directory by default; point several machines at one shared
folder, or wrap it in any ``hypothesis.database.ExampleDatabase``). Each shrunk case is stored
under a key naming the implementation and the profile, as JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from conformance.explore.fuzz.shrink import Case


def open_database(path: Path) -> ExampleDatabase:
    """The example database in folder ``path``."""
    return DirectoryBasedExampleDatabase(str(path))


def _key(implementation: str, profile: str) -> bytes:
    return f"crescent-fuzz:{implementation}:{profile}".encode()


def past_cases(db: ExampleDatabase, implementation: str, profile: str) -> tuple[Case, ...]:
    """The stored cases of this implementation in this profile (unreadable entries skipped)."""
    cases = []
    for raw in db.fetch(_key(implementation, profile)):
        try:
            data = json.loads(raw.decode("utf-8"))
            cases.append(Case(dict(data["given"]), tuple(data["actions"])))
        except (ValueError, KeyError, TypeError):
            continue
    return tuple(sorted(cases, key=lambda c: (len(c.actions), json.dumps(c.given))))


def save_case(db: ExampleDatabase, implementation: str, profile: str, case: Case) -> None:
    """Store one shrunk case."""
    value = json.dumps({"given": case.given, "actions": list(case.actions)}, ensure_ascii=False)
    db.save(_key(implementation, profile), value.encode("utf-8"))
