"""The process-local copies of the rows nearly every command reads (groups, nicknames,
bindings, cards, the ``.log`` in progress), see :mod:`.database` for when they are dropped.

Without them (``benchmarks/bench_caches.py``, 2026-11-26) ``.st 力量+1`` sends 10 statements
instead of 2 and takes 2.1× as long on SQLite (0.55 against 0.26 ms) and 5.4× on PostgreSQL
(3.85 against 0.71 ms); ``.init next`` 1.4× and 1.9×, a ``.bat`` 1.7× and 3.7×."""

from __future__ import annotations

import contextlib
from typing import Any

from .records import CharacterRecord, GameLog, GroupRecord

CACHE_MAX = 50_000
"""Entries a table keeps; the oldest goes first."""


class RowCache:
    """Process-local copies of rows; ``epoch`` grows on every invalidation so that a read which
    raced with one does not store what it read."""

    def __init__(self) -> None:
        self.groups: dict[str, GroupRecord] = {}
        self.nicks: dict[str, dict[str, str]] = {}
        self.binds: dict[str, dict[str, int]] = {}
        self.chars: dict[int, CharacterRecord] = {}
        self.logs: dict[str, GameLog | None] = {}
        """Group → its ``.log`` in progress, or None (cached "no log": see :mod:`.gamelogs`)."""
        self.epoch = 0

    def clear(self) -> None:
        self.epoch += 1
        self.groups.clear()
        self.nicks.clear()
        self.binds.clear()
        self.chars.clear()
        self.logs.clear()

    def drop(self, key: str) -> None:
        """``g:<group>``, ``n:<user>``, ``b:<user>``, ``c:<character id>``, ``l:<group>``."""
        self.epoch += 1
        kind, _, ident = key.partition(":")
        if kind == "g":
            self.groups.pop(ident, None)
        elif kind == "n":
            self.nicks.pop(ident, None)
        elif kind == "b":
            self.binds.pop(ident, None)
        elif kind == "c":
            with contextlib.suppress(ValueError):
                self.chars.pop(int(ident), None)
        elif kind == "l":
            self.logs.pop(ident, None)
        else:
            self.clear()

    @staticmethod
    def put(table: dict[Any, Any], key: Any, value: Any) -> None:
        if len(table) >= CACHE_MAX:
            table.pop(next(iter(table)))
        table[key] = value
