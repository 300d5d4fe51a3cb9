"""What both database drivers share (see :mod:`.backends`): the transaction interface every
statement of the store runs through, and the errors a transaction maps its driver's to."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.sql import Executable

Params = Mapping[str, Any] | Sequence[Mapping[str, Any]] | None
"""A statement's parameters by bindparam name (a list of them: executemany)."""


class Transient(Exception):
    """The database was busy (lock, serialization failure, lost insert race): retry."""


class Conflict(Exception):
    """A unique key was violated (not retried)."""


class Rejected(Exception):
    """The statement was refused whole for the data it carried (a character the database or
    the encoder does not take): nothing was written, so the commands batched with the bad
    one can be written without it."""


class Tx:
    """One transaction on a SQLAlchemy connection: ``one`` (first row or None), ``all`` (rows),
    ``run`` (rows changed), each for a SQLAlchemy Core statement and its parameters."""

    dialect: str

    async def one(self, stmt: Executable, params: Params = None) -> Any:
        raise NotImplementedError

    async def all(self, stmt: Executable, params: Params = None) -> list[Any]:
        raise NotImplementedError

    async def run(self, stmt: Executable, params: Params = None) -> int:
        raise NotImplementedError
