"""What both database drivers share (see :mod:`.backends`): the transaction interface every
query of the store is written against, and the errors a transaction maps its driver's to."""

from __future__ import annotations

from typing import Any


class Transient(Exception):
    """The database was busy (lock, serialization failure, lost insert race): retry."""


class Conflict(Exception):
    """A unique key was violated (not retried)."""


class Rejected(Exception):
    """The statement was refused whole for the data it carried (a character the database or
    the encoder does not take): nothing was written, so the commands batched with the bad
    one can be written without it."""


class Tx:
    """One transaction: ``one`` (first row or None), ``all`` (rows), ``run`` (rows changed)."""

    dialect: str
    for_update: str

    async def one(self, sql: str, *args: Any) -> tuple[Any, ...] | None:
        raise NotImplementedError

    async def all(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def run(self, sql: str, *args: Any) -> int:
        raise NotImplementedError
