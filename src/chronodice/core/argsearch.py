"""The search behind :func:`chronodice.core.args.parse_args`: which kind reads which part of the
text, depth first, the first full reading winning (see :mod:`chronodice.core.args` for how the
parser reads).

Its cost is bounded for any message (issue 23: one message must not freeze every group):

* a search state that found no reading is not searched again (:attr:`Search.failed`) — glued
  text such as ``+1+1+1…`` splits into modifiers in exponentially many ways;
* a kind reads a place once (:attr:`Search.read`);
* one ``many`` argument takes at most :data:`MAX_LIST` values, so the search never goes a
  thousand levels deep (slow, then ``RecursionError``);
* :data:`MAX_STEPS` ends whatever is left.

Below the two limits, no message reads or fails differently than with a plain search: a
search that is skipped replays what the first one noted (:class:`Far`), so even the error is
the same (checked against the plain search on 350,000 fuzzed messages).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import InputSyntaxError

if TYPE_CHECKING:
    from .args import Flag, Kind, Param, ParseEnv

MAX_STEPS = 5_000
"""Search steps before the parser gives up (arbitrary text never hangs the bot).  A command
takes tens of steps, a list of a hundred values a few hundred; 5,000 keep the worst message to
a few tens of milliseconds."""
MAX_LIST = 100
"""Most values of one ``many`` argument or flag.  No command needs more (the longest lists in
use are a few targets, modifiers or names)."""
TOO_MANY = f"参数太多（同一项最多{MAX_LIST}个），请分几次发送"
TOO_COMPLEX = "参数太复杂，无法理解，请加空格分开"


def skip_space(text: str, pos: int) -> int:
    """The first place at or after ``pos`` that is not a space, tab or newline."""
    while pos < len(text) and text[pos] in " \t\n":
        pos += 1
    return pos


class KindError(Exception):
    """What a kind raises about the text at ``pos`` (out of range, too long): noted by the
    search, which goes on with other readings."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


State = tuple[int, int, int, frozenset[str]]
"""``(param index, position, mentions used, names that matter)``: see :meth:`Search.run`."""


@dataclass
class Far:
    """The furthest place a search reached and what was expected or wrong there.

    The error a failed parse reports comes from here: ``error`` when a kind said what is wrong
    (a range, a bad word), else the ``expect`` labels.  Only the furthest place matters, so what
    a part of the search noted is itself a :class:`Far`, replayed with :meth:`absorb`.

    >>> far = Far()
    >>> far.expected(3, "整数"); far.expected(3, "名字"); far.expected(1, "x")
    >>> far.pos, far.expect, far.error
    (3, ['整数', '名字'], None)
    >>> part = Far(); part.failed(3, "太大"); part.expected(3, "骰子")
    >>> far.absorb(part); far.pos, far.expect, far.error
    (3, ['骰子'], '太大')
    """

    pos: int = -1
    expect: list[str] = field(default_factory=list)
    error: str | None = None

    def expected(self, pos: int, label: str) -> None:
        """At ``pos``, ``label`` could have been read (``""``: only that the search got there)."""
        if pos > self.pos:
            self.pos, self.expect, self.error = pos, [label] if label else [], None
        elif pos == self.pos and label and label not in self.expect:
            self.expect.append(label)

    def failed(self, pos: int, message: str) -> None:
        """At ``pos``, a kind said what is wrong."""
        if pos >= self.pos:
            self.pos, self.expect, self.error = pos, [], message

    def absorb(self, other: Far) -> None:
        """As if what ``other`` noted had been noted here, in the same order.

        Only ``other``'s furthest place counts: there, its last error and the labels noted after
        it are all that its notes leave behind."""
        if other.pos < 0:
            return
        self.expected(other.pos, "")
        if other.error is not None:
            self.failed(other.pos, other.error)
        for label in other.expect:
            self.expected(other.pos, label)


@dataclass
class Search:
    """One parse: the text, the declarations, and what the search has learnt so far."""

    text: str
    params: Sequence[Param]
    flags: Sequence[Flag]
    env: ParseEnv
    usage: str | None = None
    """The form shown with an error that ends the whole search (too many values or steps)."""
    steps: int = 0
    far: Far = field(default_factory=Far)
    notes: list[Far] = field(default_factory=list)
    """What each search state being searched noted so far, innermost last."""
    failed: dict[State, Far] = field(default_factory=dict)
    """States known to have no reading, with what searching them noted."""
    read: dict[tuple[int, int, int], tuple[list[tuple[Any, int, int]], tuple[int, str] | None]] = field(
        default_factory=dict
    )
    """Candidates by ``(id(kind), pos, mentions)``, with the error the kind raised there."""
    single_flags: frozenset[str] = field(init=False)
    """Names of the flags given at most once (whether one is set changes what may follow)."""

    def __post_init__(self) -> None:
        self.single_flags = frozenset(f.name for f in self.flags if not f.many)

    def expect(self, pos: int, label: str) -> None:
        self.far.expected(pos, label)
        if self.notes:
            self.notes[-1].expected(pos, label)

    def fail_with(self, pos: int, message: str) -> None:
        self.far.failed(pos, message)
        if self.notes:
            self.notes[-1].failed(pos, message)

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise InputSyntaxError(TOO_COMPLEX, usage=self.usage)

    def cands(self, kind: Kind, pos: int, mentions: int) -> list[tuple[Any, int, int]]:
        """Candidates as ``(value, end, mentions used)``; range errors are remembered, not raised.

        Read once per kind and place (several search states reach the same place); the error
        the kind raised there is noted again each time."""
        key = (id(kind), pos, mentions)
        known = self.read.get(key)
        if known is None:
            known = self.read[key] = self._cands(kind, pos, mentions)
        out, error = known
        if error is not None:
            self.fail_with(*error)
        return out

    def _cands(
        self, kind: Kind, pos: int, mentions: int
    ) -> tuple[list[tuple[Any, int, int]], tuple[int, str] | None]:
        out: list[tuple[Any, int, int]] = []
        if not kind.consumes_text and mentions < len(self.env.mentions):
            out.append((self.env.mentions[mentions], pos, mentions + 1))
        if pos >= len(self.text):
            return out, None
        try:
            out.extend((v, e, mentions) for v, e in kind.candidates(self.text, pos, self.env))
        except KindError as err:
            return out, (err.pos, err.message)
        except InputSyntaxError as err:
            return out, (pos, err.message)
        return out, None

    def more(self, got: dict[str, Any], name: str, value: Any) -> list[Any]:
        """The list ``name`` with ``value`` added; more than :data:`MAX_LIST` ends the parse."""
        values: list[Any] = got.get(name, [])
        if len(values) >= MAX_LIST:
            raise InputSyntaxError(TOO_MANY, usage=self.usage)
        return [*values, value]

    def run(self, pi: int, pos: int, got: dict[str, Any], mentions: int) -> dict[str, Any] | None:
        """Depth-first: fill params[pi:] and flags from ``pos``; the first full reading wins.

        At each point: the next positional argument, else a flag, else (when that argument is
        optional) the arguments after it.

        Whether a state has a reading depends only on ``pi``, ``pos``, ``mentions``, which
        once-only flags are set and whether the current ``many`` argument has a value — not on
        the values — so a state that failed once is not searched again; what searching it
        noted is noted again instead (the error reported stays the same)."""
        self.tick()
        pos = skip_space(self.text, pos)
        at_end = pos >= len(self.text)
        p = self.params[pi] if pi < len(self.params) else None
        filled = frozenset(k for k in got if k in self.single_flags or (p is not None and k == p.name))
        state = (pi, pos, mentions, filled)
        known = self.failed.get(state)
        if known is not None:
            self.far.absorb(known)
            if self.notes:
                self.notes[-1].absorb(known)
            return None
        self.notes.append(Far())
        found: dict[str, Any] | None = None
        # a reading found ends the whole search: only the failures below need the notes
        if p is not None:
            found = self.try_param(p, pi, pos, got, mentions)
            if found is not None:
                return found
            if not at_end or (p.required and not got.get(p.name)):
                self.expect(pos, p.shown)
        if not at_end:
            found = self.try_flags(pi, pos, got, mentions)
            if found is not None:
                return found
        if p is not None:
            if not p.required or (p.many and got.get(p.name)):
                found = self.run(pi + 1, pos, got, mentions)
        elif at_end:
            return got
        else:
            self.expect(pos, "")
        if found is not None:
            return found
        noted = self.notes.pop()
        if self.notes:
            self.notes[-1].absorb(noted)
        self.failed[state] = noted
        return None

    def try_param(
        self, p: Any, pi: int, pos: int, got: dict[str, Any], mentions: int
    ) -> dict[str, Any] | None:
        """Each reading of the next positional argument ``p`` at ``pos``, searched on from there
        (a ``many`` argument stays the current one)."""
        for value, end, used in self.cands(p.kind, pos, mentions):
            if end == pos and used == mentions:
                continue
            if p.many:
                found = self.run(pi, end, {**got, p.name: self.more(got, p.name, value)}, used)
            else:
                found = self.run(pi + 1, end, {**got, p.name: value}, used)
            if found is not None:
                return found
        return None

    def try_flags(self, pi: int, pos: int, got: dict[str, Any], mentions: int) -> dict[str, Any] | None:
        """Each flag not yet set (or repeatable) read at ``pos``, searched on from there; each
        flag that had no reading is noted as expected here."""
        for f in self.flags:
            if not f.many and f.name in got:
                continue
            for value, end, used in self.cands(f.kind, pos, mentions):
                if end == pos and used == mentions:
                    continue
                new = {**got, f.name: self.more(got, f.name, value) if f.many else value}
                found = self.run(pi, end, new, used)
                if found is not None:
                    return found
            self.expect(pos, f.shown)
        return None


__all__ = ["MAX_LIST", "MAX_STEPS", "TOO_COMPLEX", "TOO_MANY", "Far", "KindError", "Search", "skip_space"]
