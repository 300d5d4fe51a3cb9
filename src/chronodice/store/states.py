"""Typed session states: what a service's codec tells the store, and the store's cache of them.

A battle of a few hundred actions is ~50 KB of JSON.  Going through plain dicts, every command
would parse it three times (the old state, the state handed to the rules, the new state as JSON
gives it back), convert it to the rules' objects and back, and serialise it twice (to store it,
and to check that the reverse patch rebuilds the old text).  With a :class:`SessionCodec` the
store instead keeps, per session, the stored text with the state decoded from it and its plain
form; the next command whose transaction reads the *same text* (a string compare, so a write by
another process or by ``.undo`` is never missed) starts from them:

* ``immutable`` codecs (states built of frozen dataclasses and tuples, changed only by
  ``dataclasses.replace``) get the cached state itself; others get ``decode(text)`` afresh;
* ``encode(new, prev)`` may reuse the plain form of every part ``new`` shares with the previous
  state, so the reverse patch compares those parts by identity and needs no verification, and
  only the parts a command changed are converted;
* what is left per command is one ``dumps`` of the new state, and the rules themselves.

This rests on invariants the codecs hold by construction, not on checks at run time:

* an ``immutable`` codec's states cannot be changed in place (TimeLine's battle is frozen
  dataclasses, tuples and read-only mappings all the way down; trying raises);
* what a mutable codec shares between the states it decodes is frozen too (the events of a
  D20 combat's log, shared by the combats decoded from one text);
* ``encode(state, prev)`` gives the plain value ``encode(state, None)`` gives, and a codec's own
  ``dumps`` the text :func:`chronodice.store.patch.dumps` gives.

``tests/store/test_state_invariants.py`` pins each of them on the production codecs.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from . import patch as jpatch
from .session_rows import Items

S = TypeVar("S")
_MAX_STATES = 32
"""Sessions whose decoded state a process keeps (the busiest; a big battle costs ~1 MB)."""


class SessionCodec(Protocol[S]):
    """How one system's session state is stored (see the module doc)."""

    system: str
    immutable: bool
    row_fields: tuple[str, ...]
    """Top-level lists of the state that only grow, stored one item per row (see
    :mod:`.session_rows`)."""

    def decode(self, text: str) -> S:
        """The state stored as ``text`` (JSON written by :func:`chronodice.store.patch.dumps`)."""
        ...

    def encode(self, state: S, prev: tuple[S, Any] | None) -> Any:
        """``state`` as plain JSON data (never changed afterwards by anyone); ``prev`` is the
        previous state with its plain form, whose parts may be reused where ``state`` shares
        them."""
        ...


def text_of(codec: SessionCodec[Any], plain: Any) -> str:
    """The stored text of ``plain``: the codec's own ``dumps`` where it has one (one that splices
    texts it kept), which gives what :func:`chronodice.store.patch.dumps` gives (see the module
    doc)."""
    own = getattr(codec, "dumps", None)
    if own is None:
        return jpatch.dumps(plain)
    text: str = own(plain)
    return text


@dataclass(frozen=True)
class Cached(Generic[S]):
    text: str | None
    state: S | None
    plain: Any
    exact: bool
    """Whether ``dumps(plain) == text`` (false where decoding migrated or normalised the data)."""
    row: tuple[Any, Any] | None = None
    """``(version, created_at)`` of the row that held ``text``, when known.  Every write of a
    session bumps its version and a session created anew has a new ``created_at``, so a row that
    still shows them holds this very text: the store then need not read the text (on
    PostgreSQL: fetch and decompress it) to trust the cache."""
    codec: Any = None
    """The codec ``state`` and ``plain`` are of: a codec that is not equal to it (a tool's
    plain-JSON write of a battle) does not take them."""


class StateCache:
    """The last text seen per ``(scope, system)`` with its decoded state and plain form.

    What it buys (``benchmarks/bench_caches.py``, 2026-11-26, in-process, this cache off against on): ``.init next`` in a
    D20 combat of 20 takes 3.5× as long on SQLite (4.71 against 1.34 ms) and 3.2× on PostgreSQL
    (6.68 against 2.08); a ``.bat`` in a battle of 300 actions 16× (12.7 against 0.79 ms) and
    11× (16.4 against 1.44), where both commands' targets are 0.3× the bare bot's rate."""

    def __init__(self, size: int = _MAX_STATES) -> None:
        self._items: OrderedDict[tuple[str, str], Cached[Any]] = OrderedDict()
        self._size = size
        self._lent: OrderedDict[tuple[tuple[str, str], int], tuple[str, Any]] = OrderedDict()
        """A mutable codec's states given out by ``load_state`` (by session and ``id``), each with
        the text it came from: several commands on one session may each hold one (read, not yet
        written)."""
        self._seen: OrderedDict[tuple[str, str], tuple[tuple[Any, Any], float]] = OrderedDict()
        """Per session, a row identity and a moment (the system clock's monotonic reading) after which the row had
        it: the time a statement that read or wrote it was sent."""
        self._tick = 0
        self._changed: OrderedDict[str, int] = OrderedDict()
        """Per scope, the :meth:`tick` of the last write of one of its sessions this process
        learnt of: its own (after the commit), or another process's (when its notification
        came).  Scopes forgotten here count as changed at ``_changed_floor``."""
        self._changed_floor = 0
        self._trusted: set[tuple[str, str]] = set()
        """Sessions whose cached copy is current as far as this process can know (see
        :meth:`trusted`)."""
        self._rows: OrderedDict[tuple[str, str], tuple[tuple[Any, Any], Items]] = OrderedDict()
        """Per session, the items its ``session_rows`` held at a row identity (see
        :mod:`.session_rows`): what the next write compares its items with."""

    # stored rows ------------------------------------------------------------------------------
    def rows_at(self, key: tuple[str, str], row: tuple[Any, Any] | None) -> Items | None:
        """The rows stored for ``key`` while its row had identity ``row`` (``None``: not known)."""
        got = self._rows.get(key)
        if row is None or got is None or got[0] != row:
            return None
        return got[1]

    def rows_seen(self, key: tuple[str, str], row: tuple[Any, Any] | None, items: Items) -> None:
        """The rows of ``key`` were ``items`` while its row had identity ``row``."""
        if row is None:
            self._rows.pop(key, None)
            return
        self._rows[key] = (row, items)
        self._rows.move_to_end(key)
        while len(self._rows) > self._size:
            self._rows.popitem(last=False)

    # trust (PostgreSQL's notifications, SQLite's data_version) --------------------------------
    def tick(self) -> int:
        """Now, for :meth:`trust`: take it before sending the statement that reads or writes."""
        return self._tick

    def changed(self, scope: str) -> int:
        """A write of a session of ``scope`` committed: no copy read before it is trusted, and
        those trusted are not any more.  Returns the write's :meth:`tick`."""
        self._tick += 1
        self._changed[scope] = self._tick
        self._changed.move_to_end(scope)
        while len(self._changed) > self._size * 8:
            _, at = self._changed.popitem(last=False)
            self._changed_floor = max(self._changed_floor, at)
        self._trusted = {k for k in self._trusted if k[0] != scope}
        return self._tick

    def changed_everywhere(self) -> None:
        """Anything may have changed (the notifications were lost): nothing is trusted."""
        self._tick += 1
        self._changed.clear()
        self._changed_floor = self._tick
        self._trusted.clear()

    def trust(self, key: tuple[str, str], since: int) -> None:
        """The cached copy of ``key`` is the row as a statement sent at tick ``since`` found or
        left it: trusted, unless a write of its scope was learnt of since then.  A copy without
        its row's identity (a row this process created, whose ``created_at`` it learns when it
        next reads it) is not: the one-statement write needs that identity."""
        hit = self._items.get(key)
        if hit is None or (hit.row is None and hit.text is not None):
            return
        if self._changed.get(key[0], self._changed_floor) <= since:
            self._trusted.add(key)

    def trusted(self, key: tuple[str, str]) -> bool:
        """Whether the cached copy of ``key`` may be used without reading the row.

        On PostgreSQL every write of a session notifies the other processes (migration 0006);
        on SQLite ``PRAGMA data_version``, asked at each use, tells that another connection
        committed (then nothing is trusted, :meth:`changed_everywhere`).  This process marks its
        own writes (:meth:`changed`); a copy is trusted from the statement that read or wrote it
        until a write of its scope is learnt of.  What a
        command decides on a copy that another process's write made stale a moment before its
        notification came is what it would decide had it come a moment earlier; its write then
        finds the row changed and runs again on the stored one (compare-and-set)."""
        return key in self._trusted

    def saw(self, key: tuple[str, str], row: tuple[Any, Any] | None, since: float) -> None:
        """The row of ``key`` had identity ``row`` at some moment after ``since``."""
        if row is None:
            return
        known = self._seen.get(key)
        if known is None or known[0] != row or known[1] < since:
            self._seen[key] = (row, since)
            self._seen.move_to_end(key)
            while len(self._seen) > self._size * 8:
                self._seen.popitem(last=False)

    def held_since(self, key: tuple[str, str], row: tuple[Any, Any], since: float) -> bool:
        """Whether the row of ``key`` is known to have had identity ``row`` at some moment after
        ``since`` (so what was decided on it then holds as of that moment)."""
        known = self._seen.get(key)
        return known is not None and known[0] == row and known[1] >= since

    def lend(self, key: tuple[str, str], got: Cached[S]) -> None:
        """Remember ``got.state`` as given to a caller that may hand it back (``reuse``); as many
        as the cache holds sessions (a state read and never handed back is dropped in turn).

        Without it a D20 ``.init next`` parses its combat twice: 1.26× as long on SQLite (1.68
        against 1.34 ms) and 1.15× on PostgreSQL (``benchmarks/bench_caches.py``): its target
        is 0.3× the bare bot's rate, which ``bench_targets.py`` read as 0.25–0.34 with it."""
        if got.text is not None and got.state is not None:
            self._lent[(key, id(got.state))] = (got.text, got.state)
            while len(self._lent) > self._size:
                self._lent.popitem(last=False)

    def get_reusing(
        self,
        key: tuple[str, str],
        text: str | None,
        codec: SessionCodec[S],
        reuse: S | None,
        row: tuple[Any, Any] | None = None,
        *,
        same_row: bool = False,
    ) -> Cached[S]:
        """:meth:`get`, but a mutable codec's state is ``reuse`` itself when that is what
        ``load_state`` gave out for this very text (the caller hands it over: one parse less)."""
        lent = self._lent.pop((key, id(reuse)), None) if reuse is not None else None
        hit = self._items.get(key)
        if same_row and hit is not None:
            text = hit.text
        if reuse is not None and lent is not None and lent[1] is reuse and lent[0] == text:
            if hit is not None and hit.text == text and hit.codec == codec:
                return replace(hit, state=reuse, row=row or hit.row)
        return self.get(key, text, codec, row, same_row=same_row)

    def row_of(self, key: tuple[str, str]) -> tuple[Any, Any] | None:
        """The row identity the cached text of ``key`` was seen with (see :attr:`Cached.row`)."""
        hit = self._items.get(key)
        return hit.row if hit is not None else None

    def get(
        self,
        key: tuple[str, str],
        text: str | None,
        codec: SessionCodec[S],
        row: tuple[Any, Any] | None = None,
        *,
        same_row: bool = False,
    ) -> Cached[S]:
        """What ``text`` decodes to (from the cache when it holds the same text, or when
        ``same_row``: the row still has the identity the cached text was seen with); for a
        mutable codec the state is decoded afresh each time (the caller may change it).
        ``row``: the row's identity now, remembered with the entry."""
        hit = self._items.get(key)
        if hit is not None and hit.codec != codec:
            if same_row and hit.text is not None:
                text = hit.text  # the row is the one cached: its text, decoded by this codec
            hit, same_row = None, False
        if hit is not None and (same_row or hit.text == text):
            self._items.move_to_end(key)
            if row is not None and hit.row != row:
                hit = self._items[key] = replace(hit, row=row)
                self._trusted.discard(key)
            if hit.text is None or codec.immutable:
                return hit
            return replace(hit, state=codec.decode(hit.text))
        if same_row:
            raise KeyError(key)  # the caller checked the identity against this cache: not possible
        if text is None:
            got: Cached[S] = Cached(None, None, None, True, row, codec)
        else:
            state = codec.decode(text)
            plain = codec.encode(state, None)
            got = Cached(text, state, plain, text_of(codec, plain) == text, row, codec)
            if not codec.immutable:
                self.put(key, replace(got, state=None))  # the caller may change its state
                return got
        self.put(key, got)
        return got

    def text(self, codec: SessionCodec[Any], plain: Any) -> str:
        """The stored text of ``plain`` (:func:`text_of`)."""
        return text_of(codec, plain)

    def put(self, key: tuple[str, str], value: Cached[Any], seen: float | None = None) -> None:
        """Cache ``value``; ``seen``: its row had ``value.row`` at some moment after then (see
        :meth:`saw`); give it only for a committed row."""
        if seen is not None:
            self.saw(key, value.row, seen)
        self._items[key] = value
        self._items.move_to_end(key)
        self._trusted.discard(key)  # until the caller says otherwise (:meth:`trust`)
        while len(self._items) > self._size:
            gone, _ = self._items.popitem(last=False)
            self._trusted.discard(gone)
