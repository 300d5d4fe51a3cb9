"""Session states (a battle, a combat, a game per group and system): one write path.

A command's write is one transaction (:meth:`Sessions.apply_state`): claim the event, read the
session's head row (``FOR UPDATE`` on PostgreSQL; SQLite's write transaction is ``BEGIN
IMMEDIATE``) and the item rows it needs (:mod:`.session_rows`), decode, run the pure rules,
encode, write the head with ``UPDATE … WHERE version = :v``, write the item rows that changed,
and insert the log row holding the reverse patch (:mod:`.patch`) that ``.undo`` applies.

One cache: the decoded states of *immutable* codecs (TimeLine's frozen battle) by session, with
the row identity (version and ``created_at``) they were read or written at.  A read or write
uses an entry only when the row it just read shows that identity, so the entry is the row, also
after another process's write.  With the state the entry keeps its plain form and its item
rows' texts: the codec's next encoding shares the unchanged items' plain dicts, which then need
neither a text nor a comparison (the reverse patch compares them by identity), so a declaration
in a battle of 1,000 actions costs what one in a battle of 25 does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import sqlalchemy as sa

from chronodice.core.text import clean_text

from . import patch as jpatch
from . import session_rows as srows
from . import tables
from .db import Claim, Database, Transient, Tx
from .records import CharacterRecord
from .tables import json_value

S = TypeVar("S")
T = TypeVar("T")
CACHE_SIZE = 32
"""Sessions whose decoded state a process keeps (the busiest; a big battle costs about 1 MB)."""


class SessionCodec(Protocol[S]):
    """How one system's session state is stored."""

    system: str
    immutable: bool
    """States are never changed in place (frozen all the way down): one decode may serve many
    commands (the cache above)."""
    row_fields: tuple[str, ...]
    """Lists of the state that only grow, stored one item per row (:mod:`.session_rows`)."""

    def decode(self, text: str) -> S:
        """The state stored as ``text`` (JSON)."""
        ...

    def encode(self, state: S, prev: tuple[S, Any] | None) -> Any:
        """``state`` as plain JSON data; ``prev``: an earlier state with its plain form, whose
        plain parts may be reused (the same objects) where ``state`` shares them."""
        ...


class JsonCodec:
    """A session kept as plain JSON data (萌E, D10): each use gets a fresh parse."""

    immutable = False

    def __init__(self, system: str, row_fields: tuple[str, ...] = ()) -> None:
        self.system = system
        self.row_fields = row_fields

    def decode(self, text: str) -> Any:
        return json.loads(text)

    def encode(self, state: Any, prev: tuple[Any, Any] | None) -> Any:
        return json.loads(jpatch.dumps(state))


def json_codec(system: str, row_fields: tuple[str, ...] = ()) -> JsonCodec:
    return JsonCodec(system, row_fields)


@dataclass(frozen=True)
class Loaded(Generic[S]):
    """A session as read (or as written): its row identity, state, plain form and item rows."""

    row: tuple[int, Any] | None
    """``(version, created_at)``; None when there is no session row."""
    state: S | None
    plain: Any
    head: str | None
    items: srows.Items
    exact: bool = True
    """Whether ``plain`` serialises to the stored text (false for a state the decoder
    migrated): a reverse patch is then not trusted to rebuild it, and the log keeps it whole."""
    codec: Any = None


_s = tables.sessions
KEY = (_s.c.scope == sa.bindparam("key_scope"), _s.c.system == sa.bindparam("key_system"))
HEAD = sa.select(tables.json_text(_s.c.state), _s.c.version, srows.BORN.label("born")).where(*KEY)
HEAD_LOCKED = HEAD.with_for_update()
_IDENTITY = sa.select(_s.c.version, srows.BORN.label("born")).where(*KEY)
_NEW = {
    "state": tables.text_param("state"),
    "version": sa.bindparam("v_new"),
    "updated_at": sa.bindparam("now"),
}
CREATE = (
    sa.insert(_s)
    .values(
        scope=sa.bindparam("key_scope"),
        system=sa.bindparam("key_system"),
        created_at=sa.bindparam("now"),
        **_NEW,
    )
    .returning(srows.BORN)
)
CAS = sa.update(_s).where(*KEY, _s.c.version == sa.bindparam("v_old")).values(_NEW)
LOGGED: dict[str, Any] = {"scope": sa.bindparam("key_scope"), "system": sa.bindparam("key_system")}
LOGGED |= {"user_id": sa.bindparam("user_id"), "command": sa.bindparam("command")}
LOGGED |= {k: tables.text_param(k) for k in ("before", "characters_before", "patch")}
LOGGED |= {"version_after": sa.bindparam("v_new"), "undone": sa.false(), "created_at": sa.bindparam("now")}
LOG = sa.insert(tables.session_log).values(LOGGED)
SCOPES_OF = sa.select(_s.c.scope).where(_s.c.system == sa.bindparam("key_system"))


class Sessions:
    """``store.sessions``: reading and writing session states (history: :mod:`.history`)."""

    def __init__(self, db: Database, now: Callable[[], Any]) -> None:
        self.db = db
        self.now = now
        self._cache: OrderedDict[tuple[str, str], Loaded[Any]] = OrderedDict()
        self._turns: dict[tuple[str, str], tuple[asyncio.Lock, list[int]]] = {}

    @contextlib.asynccontextmanager
    async def _in_turn(self, key: tuple[str, str]) -> AsyncIterator[None]:
        """The writes of this process to one session, first come first served (an
        ``asyncio.Lock`` is fair): commands typed in a row apply in the order they came, and
        wait here rather than holding a connection while the row is locked."""
        lock, users = self._turns.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._turns[key]

    # reading ---------------------------------------------------------------------------------
    async def load_session(self, scope: str, system: str) -> tuple[dict[str, Any] | None, int]:
        """The session state as plain JSON and its version (``(None, 0)`` when there is none)."""
        got = await self.db.read(lambda tx: srows.read_whole(tx, scope, system))
        if got is None:
            return None, 0
        (version, _born, head), stored = got
        text = srows.assemble(head, stored)
        return (json.loads(text) if text is not None else None), version

    async def list_sessions(self, system: str) -> list[tuple[str, dict[str, Any] | None, int]]:
        """Every (scope, state, version) of a system — for sweepers after a restart."""

        async def body(tx: Tx) -> list[tuple[str, str | None, int]]:
            out: list[tuple[str, str | None, int]] = []
            for (scope,) in await tx.all(SCOPES_OF, {"key_system": system}):
                got = await srows.read_whole(tx, scope, system)
                if got is not None:
                    out.append((scope, srows.assemble(got[0][2], got[1]), got[0][0]))
            return out

        return [
            (scope, json_value(text), version)
            for scope, text, version in await self.db.read(body, snapshot=True)
        ]

    async def load_state(self, scope: str, codec: SessionCodec[S]) -> S | None:
        """The session state as ``codec`` decodes it (None when there is none).  For an
        immutable codec this may be the cached object itself: never change it."""
        return (await self.load_versioned(scope, codec))[0]

    async def load_versioned(self, scope: str, codec: SessionCodec[S]) -> tuple[S | None, int]:
        """:meth:`load_state` with the session's version (0 when there is none)."""
        key = (scope, codec.system)

        async def body(tx: Tx) -> Loaded[S]:
            hit = self._cache.get(key)
            if hit is not None and hit.codec is codec:
                row = await tx.one(_IDENTITY, {"key_scope": scope, "key_system": codec.system})
                if row is not None and (row[0], row[1]) == hit.row:
                    return hit
            whole = await srows.read_whole(tx, scope, codec.system)
            if whole is None:
                return Loaded(None, None, None, None, {}, codec=codec)
            (version, born, head), stored = whole
            return self._decoded(key, codec, (version, born), head, stored)

        got = await self.db.read(body)
        return got.state, got.row[0] if got.row is not None else 0

    def _decoded(
        self,
        key: tuple[str, str],
        codec: SessionCodec[S],
        row: tuple[int, Any],
        head: str | None,
        stored: srows.Items,
        *,
        want_plain: bool = False,
    ) -> Loaded[S]:
        """The session read from its rows: decoded, and cached for an immutable codec (whose
        plain form is always made; a mutable codec's only for a write, ``want_plain``)."""
        text = srows.assemble(head, stored)
        if text is None:
            return Loaded(row, None, None, head, stored, codec=codec)
        state = codec.decode(text)
        plain = codec.encode(state, None) if codec.immutable else json.loads(text) if want_plain else None
        exact = not codec.immutable or jpatch.dumps(plain) == text
        got = Loaded(row, state, plain, head, stored, exact, codec)
        self._remember(key, got)
        return got

    def _remember(self, key: tuple[str, str], got: Loaded[Any]) -> None:
        if not got.codec.immutable or got.row is None:
            return
        self._cache[key] = got
        self._cache.move_to_end(key)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    async def _locked(self, tx: Tx, key: tuple[str, str], codec: SessionCodec[S]) -> Loaded[S]:
        """The session inside a write, its head row locked; the cached entry when the row still
        has its identity, else decoded from the rows."""
        names = {"key_scope": key[0], "key_system": key[1]}
        row = await tx.one(HEAD_LOCKED, names)
        if row is None:
            return Loaded(None, None, None, None, {}, codec=codec)
        hit = self._cache.get(key)
        if hit is not None and hit.codec is codec and hit.row == (row[1], row[2]):
            return hit
        head = tables.stored_text(row[0])
        stored = await srows.rows_of(tx, key[0], key[1], head)
        return self._decoded(key, codec, (row[1], row[2]), head, stored, want_plain=True)

    # writing ----------------------------------------------------------------------------------
    async def apply_session(
        self,
        scope: str,
        system: str,
        fn: Callable[[dict[str, Any] | None], tuple[dict[str, Any] | None, T]],
        *,
        user_id: str = "",
        command: str = "",
        characters_before: Sequence[tuple[CharacterRecord, int]] = (),
        rows: Sequence[str] = (),
        claim: Claim | None = None,
    ) -> T:
        """:meth:`apply_state` on plain JSON data: ``fn(state) -> (new_state, result)`` gets a
        fresh parse of the stored state, which it may change.  ``rows``: lists of the state
        that only grow (dotted, see :mod:`.session_rows`), stored one item per row."""
        codec = JsonCodec(system, tuple(rows))
        return await self.apply_state(
            scope,
            codec,
            fn,
            user_id=user_id,
            command=command,
            characters_before=characters_before,
            claim=claim,
        )

    async def apply_state(
        self,
        scope: str,
        codec: SessionCodec[S],
        fn: Callable[[S | None], tuple[S | None, T]],
        *,
        user_id: str = "",
        command: str = "",
        characters_before: Sequence[tuple[CharacterRecord, int]] = (),
        claim: Claim | None = None,
    ) -> T:
        """Apply the pure ``fn(state) -> (new_state, result)`` in one transaction (see the
        module doc).  Nothing is written when the new state stores as the old one did.

        ``characters_before``: cards this command also changed, each as ``(record before the
        change, version after it)``; ``.undo`` puts such a card back as it was, provided nobody
        changed it since.  ``claim``: the delivered event of the command (None for a write no
        event carries, a timer's).  ``fn`` may run more than once (a lost race is retried)."""
        key = (scope, codec.system)
        cards = _cards_before(characters_before)
        log_row = {"user_id": user_id, "command": clean_text(command[:500]), "characters_before": cards}
        written: list[Loaded[S]] = []

        async def body(tx: Tx) -> T:
            written.clear()
            old = await self._locked(tx, key, codec)
            new_state, result = fn(old.state)  # a mutable codec's state is a fresh decode
            new = self._encoded(codec, old, new_state)
            if new.head == old.head and srows.changes(old.items, new.items) == ([], []):
                return result
            written.append(await self._save(tx, key, old, new, log_row))
            return result

        async with self._in_turn(key):
            result = await self.db.write(body, "操作", retry_conflict=True, claim=claim)
        if written:
            self._remember(key, written[0])
        return result

    @staticmethod
    def _encoded(codec: SessionCodec[S], old: Loaded[S], state: S | None) -> Loaded[S]:
        """``state`` encoded, its items' texts shared with ``old`` where their plain dicts are
        the same objects (an immutable codec reuses them)."""
        if state is None:
            return Loaded(old.row, None, None, None, {}, codec=codec)
        prev = (old.state, old.plain) if codec.immutable and old.state is not None else None
        plain = codec.encode(state, prev)
        fields = (*dict.fromkeys((*codec.row_fields, *old.items)),)
        known = None
        if prev is not None:
            known = {f: (srows.items_of(old.plain, f) or (), old.items.get(f, ())) for f in fields}
        head, items = srows.split(plain, fields, known)
        return Loaded(old.row, state if codec.immutable else None, plain, head, items, codec=codec)

    async def _save(
        self, tx: Tx, key: tuple[str, str], old: Loaded[S], new: Loaded[S], log_row: dict[str, Any]
    ) -> Loaded[S]:
        """Write ``new`` over ``old`` (compare-and-set on the version read) with its log row;
        ``new`` with the row identity it now has."""
        version = old.row[0] if old.row is not None else 0
        params = {"key_scope": key[0], "key_system": key[1], "v_old": version, "v_new": version + 1}
        params |= {"now": self.now(), "state": new.head} | log_row
        if old.row is None:
            born = (await tx.one(CREATE, params))[0]
        elif await tx.run(CAS, params) == 1:
            born = old.row[1]
        else:
            raise Transient("session version")
        await srows.write_items(tx, key[0], key[1], old.items, new.items)
        params["before"], params["patch"] = _reverse(old, new)
        await tx.run(LOG, params)
        return Loaded((version + 1, born), new.state, new.plain, new.head, new.items, True, new.codec)


def _text(got: Loaded[Any]) -> str:
    text = srows.assemble(got.head, got.items)
    assert text is not None
    return text


def _reverse(old: Loaded[Any], new: Loaded[Any]) -> tuple[str | None, str | None]:
    """What the log keeps to get ``old`` back from ``new``: ``(before, patch)`` texts, a reverse
    patch where it is shorter than the old state and rebuilds it exactly, else the old state
    (whose whole text is only assembled then: a battle's is as long as its history)."""
    if old.head is None:
        return None, jpatch.dumps(["=", None])
    if new.head is not None and old.exact:
        if old.codec.immutable:  # the plain forms share their unchanged parts: a type-exact diff
            p = jpatch.diff_exact(new.plain, old.plain)
        else:
            p = jpatch.exact_diff(new.plain, old.plain, _text(new), _text(old))
        size = len(old.head) + sum(len(t) + 1 for texts in old.items.values() for t in texts)
        if p is not None and len(p_text := jpatch.dumps(p)) < size:
            return None, p_text
    return _text(old), None


def _cards_before(characters_before: Sequence[tuple[CharacterRecord, int]]) -> str | None:
    cards = [
        {
            "id": rec.id,
            "name": rec.name,
            "system": rec.system,
            "attributes": rec.attributes,
            "data": rec.data,
            "version_after": version_after,
        }
        for rec, version_after in characters_before
    ]
    return jpatch.dumps(cards) if cards else None
