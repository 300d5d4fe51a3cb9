"""Persistence by input log + turn-start snapshots, and the pure step function.

A game's stored form is a :class:`dict` (JSON): the pack, the seed of the game's
``random.Random``, the seats, every applied input in order (answers, timeouts, auto-play and
admin actions), the latest turn-start snapshot (state + rng state + how many inputs it
includes) and the digest after the last input.  :func:`rebuild` resumes from the snapshot and
replays the inputs after it; :func:`replay_full` replays from the start.  Both must give the same
digest (checked by the tests and the soak).  Generators are never stored.

>>> rec = new_record("test", ["1", "2"], seed=7, map_key="melee", characters=["blank", "blank"])
>>> g = rebuild(rec)
>>> g.pending.kind, g.pending.seat
('play', 0)
"""

from __future__ import annotations

import random
from typing import Any

from chronodice.core.errors import IllegalAction

from .cards import rank_value
from .engine import Game
from .pack import Pack, load_pack
from .state import SCHEMA_VERSION, GameState, Player

RECORD_VERSION = 1


class DesyncError(RuntimeError):
    """A stored game cannot be rebuilt as it was: ``cause`` is ``pack_changed`` (the pack's hash
    differs from the one recorded when the game started), ``pack_missing`` (the pack no longer
    loads) or ``replay`` (replaying the log fails or gives another digest).  The way on is in
    :mod:`.recovery`."""

    def __init__(self, message: str, *, cause: str = "replay") -> None:
        super().__init__(message)
        self.cause = cause


_hashes: dict[int, tuple[Pack, str]] = {}


def pack_hash(pack: Pack) -> str:
    """``pack.content_hash()``, remembered per pack object (packs are cached and frozen)."""
    got = _hashes.get(id(pack))
    if got is None or got[0] is not pack:
        got = _hashes[id(pack)] = (pack, pack.content_hash())
    return got[1]


def load_checked(rec: dict[str, Any], *, check_pack: bool = True) -> Pack:
    """The record's pack, refusing one that no longer loads or whose content changed."""
    try:
        pack = load_pack(rec["pack"])
    except Exception as exc:
        raise DesyncError(f"pack {rec['pack']!r} does not load: {exc!r}", cause="pack_missing") from exc
    want = rec.get("pack_hash")
    if check_pack and want and pack_hash(pack) != want:
        raise DesyncError(
            f"pack {rec['pack']!r} changed since the game started: {want} -> {pack_hash(pack)}",
            cause="pack_changed",
        )
    return pack


def initial_state(pack: Pack, users: list[str]) -> GameState:
    st = GameState(pack=pack.pack)
    st.players = [Player(seat=i, user=u, character="") for i, u in enumerate(users)]
    st.cards = {i + 1: [k, s, rank_value(r)] for i, (k, s, r) in enumerate(pack.deck)}
    st.zones = {"deck": list(st.cards), "discard": [], "processing": [], "out": []}
    for p in st.players:
        for z in ("hand", "equip", "secret"):
            st.zones[f"{z}:{p.seat}"] = []
    return st


def new_record(
    pack_name: str,
    users: list[str],
    *,
    seed: int,
    map_key: str | None = None,
    characters: list[str] | None = None,
) -> dict[str, Any]:
    """A game about to start (``characters`` skips the character choice: tests, benchmarks)."""
    pack = load_pack(pack_name)
    return {
        "version": RECORD_VERSION,
        "schema_version": SCHEMA_VERSION,
        "pack": pack_name,
        "pack_hash": pack_hash(pack),
        "seed": seed,
        "users": list(users),
        "map": map_key,
        "characters": characters,
        "inputs": [],
        "snapshot": None,
        "digest": None,
    }


def _main(g: Game, rec: dict[str, Any]) -> Any:
    chars = rec.get("characters")
    if chars:
        for seat, key in enumerate(chars):
            g.assign_character(seat, key)
        g.pack = g.pack.model_copy(update={"characters": {k: g.pack.characters[k] for k in chars}})
    return g.main(rec.get("map"))


def _fresh(rec: dict[str, Any], *, check_pack: bool = True) -> Game:
    pack = load_checked(rec, check_pack=check_pack)
    g = Game(pack, initial_state(pack, rec["users"]), random.Random(rec["seed"]))
    return g


def _apply_input(g: Game, inp: dict[str, Any]) -> None:
    if "admin" in inp:
        admin(g, inp)
    else:
        g.submit(inp["seat"], inp["answer"], source=inp.get("source", "player"))


def replay_full(rec: dict[str, Any], *, check_pack: bool = True) -> Game:
    """Rebuild by replaying every input from the start (no snapshot)."""
    g = _fresh(rec, check_pack=check_pack)
    try:
        g.run(_main(g, rec))
        for inp in rec["inputs"]:
            _apply_input(g, inp)
    except Exception as exc:  # an input the game no longer accepts: the log does not replay
        raise DesyncError(f"replay failed: {exc!r}") from exc
    return g


def rebuild(rec: dict[str, Any], *, check: bool = True, check_pack: bool = True) -> Game:
    """Rebuild from the latest turn-start snapshot plus the inputs after it.  Raises
    :class:`DesyncError` when the pack changed (unless ``check_pack`` is false) or no longer
    loads, when an input does not replay, or (``check``) when the digest differs."""
    snap = rec.get("snapshot")
    if snap is None:
        g = replay_full(rec, check_pack=check_pack)
    else:
        pack = load_checked(rec, check_pack=check_pack)
        try:
            g = _from_snapshot(rec, snap, pack)
        except Exception as exc:
            raise DesyncError(f"replay from the snapshot failed: {exc!r}") from exc
    if check and rec.get("digest") is not None and g.state.digest() != rec["digest"]:
        raise DesyncError(f"digest {g.state.digest()} != stored {rec['digest']}")
    return g


def _from_snapshot(rec: dict[str, Any], snap: dict[str, Any], pack: Pack) -> Game:
    """The game at the snapshot (a turn start), then the inputs after it."""
    rng = random.Random()
    v, internal, gauss = snap["rng"]
    rng.setstate((v, tuple(internal), gauss))
    g = Game(pack, GameState.from_dict(snap["state"]), rng)
    chars = rec.get("characters")
    if chars:
        g.pack = pack.model_copy(update={"characters": {k: pack.characters[k] for k in chars}})
    g.serial = snap["serial"]
    g.rng_draws = snap["rng_draws"]
    g.inputs = list(rec["inputs"][: snap["inputs"]])
    if g.state.winners is None:
        g.run(g.loop())
    for inp in rec["inputs"][snap["inputs"] :]:
        _apply_input(g, inp)
    return g


def to_record(g: Game, rec: dict[str, Any]) -> dict[str, Any]:
    """The record after ``g`` advanced (pure: returns a new dict)."""
    out = dict(rec)
    out["inputs"] = list(g.inputs)
    out["snapshot"] = g.snapshots[-1] if g.snapshots else rec.get("snapshot")
    out["digest"] = g.state.digest()
    return out


def step(
    rec: dict[str, Any], seat: int, answer: Any, *, source: str = "player", serial: int | None = None
) -> tuple[dict[str, Any], Game, list[dict[str, Any]]]:
    """Pure transition: (record, input) → (new record, the game after it, output events)."""
    g = rebuild(rec)
    g.drain_events()
    g.submit(seat, answer, source=source, serial=serial)
    events = g.drain_events()
    return to_record(g, rec), g, events


def admin(g: Game, inp: dict[str, Any]) -> None:
    """Out-of-band inputs, logged like answers: concede (投降/kick), auto-play on/off, and ``ai``
    (the player hands the seat to the AI for the rest of the game: 托管 in the AI style, for
    good — ``auto`` no longer turns it off)."""
    op, seat = inp["admin"], inp["seat"]
    p = g.p(seat)
    if op == "concede":
        if not p.alive:
            raise IllegalAction("该角色已经死亡")
        p.flags["conceded"] = True
        p.auto = True
        g.emit("concede", who=seat, kicked=bool(inp.get("kicked")))
    elif op == "ai":
        if not p.alive:
            raise IllegalAction("该角色已经死亡")
        if p.flags.get("conceded"):
            raise IllegalAction("该角色已经投降")
        p.flags["ai"] = True
        p.auto = True
        p.timeouts = 0
        p.flags.pop("timeout_turn", None)
        g.emit("to_ai", who=seat)
    elif op == "auto":
        if p.flags.get("ai") and not inp["on"]:
            raise IllegalAction("该座位已交给AI，本局不能取消托管")
        p.auto = bool(inp["on"])
        p.timeouts = 0
        p.flags.pop("timeout_turn", None)
    else:
        raise IllegalAction(f"unknown admin op {op!r}")
    g.inputs.append(dict(inp))


def start(rec: dict[str, Any]) -> tuple[dict[str, Any], Game, list[dict[str, Any]]]:
    """Run a new record to its first request."""
    g = _fresh(rec)
    g.run(_main(g, rec))
    events = g.drain_events()
    return to_record(g, rec), g, events
