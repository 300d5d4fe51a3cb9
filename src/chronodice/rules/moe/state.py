"""The serialisable state of one 萌E game: players, zones, flow (glossary §3, §4, §6).

Everything here is plain data: ``GameState.to_dict()`` is canonical JSON-able data and
``GameState.digest()`` a hash of it, used for replay equality (moe-engine.md §2.5).  Rules live in
:mod:`.engine`; this module only knows the shapes and the derived numbers that need no rules:

>>> p = Player(seat=0, user="1", character="x", hp=-2, max_hp=4)
>>> p.hp_value, p.lost_hp
(0, 4)
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

SCHEMA_VERSION = 1

PHASES: tuple[str, ...] = ("prepare", "cast", "draw", "play", "discard", "finish")
"""6.3: 准备、施法、摸牌、行动、弃牌、结束."""

PHASE_NAMES: dict[str, str] = {
    "prepare": "准备阶段",
    "cast": "施法阶段",
    "draw": "摸牌阶段",
    "play": "行动阶段",
    "discard": "弃牌阶段",
    "finish": "结束阶段",
}

ALL = -1
"""In ``GameState.known``: the card's face is known to everybody."""


@dataclass
class SkillInst:
    """One skill a character has.  Two copies of a same-named skill are independent (2.4)."""

    uid: int
    key: str
    origin: str = "character"  # character | gained
    used_game: int = 0
    used_turn: int = 0
    used_phase: int = 0
    used_round: int = 0
    turn_stamp: int = -1
    phase_stamp: int = -1
    round_stamp: int = -1


@dataclass
class Player:
    """One seat: the character's numbers (4.x), skills (5.x) and per-seat flags.

    ``hp`` may go below 0 (4.3); ``hp_value`` never does (4.4).
    """

    seat: int
    user: str
    character: str
    name: str = ""
    hp: int = 0
    max_hp: int = 0
    faith: int = 0
    max_faith: int = 0
    talents: dict[str, int] = field(default_factory=dict)
    gender: str = ""
    skills: list[SkillInst] = field(default_factory=list)
    alive: bool = True
    marks: dict[str, int] = field(default_factory=dict)
    hand_limit_mods: list[list[Any]] = field(default_factory=list)
    """4.5/4.10 changes in order: ["为", n] sets, ["加", n] adds, ["视为", n] fixes the value read."""
    auto: bool = False
    timeouts: int = 0
    team: int = -1
    damaged_round: int = -1
    flags: dict[str, Any] = field(default_factory=dict)

    @property
    def hp_value(self) -> int:
        return max(self.hp, 0)

    @property
    def lost_hp(self) -> int:
        """4.6: max HP minus HP *value*."""
        return self.max_hp - self.hp_value

    @property
    def injured(self) -> bool:
        """5.23."""
        return self.hp_value < self.max_hp


@dataclass
class TurnState:
    """The current turn (6.3/6.4): which phases were skipped and by which skip operation."""

    seat: int = -1
    extra: bool = False
    phase: str = ""
    skipped: dict[str, int] = field(default_factory=dict)
    """phase -> id of the skip operation (adjacent phases skipped by one op hide their 'between')."""
    skip_used: list[str] = field(default_factory=list)
    attacks: int = 0
    skip_turn: bool = False


@dataclass
class GameState:
    """All data of a game.  ``cards`` maps a card id to ``[key, suit, rank]``."""

    pack: str = ""
    map: str = ""
    players: list[Player] = field(default_factory=list)
    cards: dict[int, list[Any]] = field(default_factory=dict)
    zones: dict[str, list[int]] = field(default_factory=dict)
    known: dict[int, list[int]] = field(default_factory=dict)
    round: int = 0
    turn_no: int = 0
    cursor: int = -1
    extra_turns: list[int] = field(default_factory=list)
    turn: TurnState = field(default_factory=TurnState)
    skipped_turns: list[int] = field(default_factory=list)
    winners: list[int] | None = None
    result: str = ""
    next_uid: int = 1
    started: bool = False
    schema_version: int = SCHEMA_VERSION

    # ------------------------------------------------------------------ (de)serialisation
    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON-able data (a deep copy; written by hand because ``asdict`` is slow)."""
        players = []
        for p in self.players:
            d = dict(p.__dict__)
            d["skills"] = [dict(s.__dict__) for s in p.skills]
            d["talents"] = dict(p.talents)
            d["marks"] = dict(p.marks)
            d["hand_limit_mods"] = [list(m) for m in p.hand_limit_mods]
            d["flags"] = json.loads(json.dumps(p.flags)) if p.flags else {}
            players.append(d)
        turn = dict(self.turn.__dict__)
        turn["skipped"] = dict(self.turn.skipped)
        turn["skip_used"] = list(self.turn.skip_used)
        return {
            "pack": self.pack,
            "map": self.map,
            "players": players,
            "cards": {str(k): list(v) for k, v in self.cards.items()},
            "zones": {k: list(v) for k, v in self.zones.items()},
            "known": {str(k): list(v) for k, v in self.known.items()},
            "round": self.round,
            "turn_no": self.turn_no,
            "cursor": self.cursor,
            "extra_turns": list(self.extra_turns),
            "turn": turn,
            "skipped_turns": list(self.skipped_turns),
            "winners": list(self.winners) if self.winners is not None else None,
            "result": self.result,
            "next_uid": self.next_uid,
            "started": self.started,
            "schema_version": self.schema_version,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        if d.get("schema_version") != SCHEMA_VERSION:
            raise ValueError(f"unsupported 萌E state schema {d.get('schema_version')!r}")
        d = copy.deepcopy(d)  # never share lists with the caller's data (a stored snapshot)
        players = []
        for p in d["players"]:
            p = dict(p)
            p["skills"] = [SkillInst(**s) for s in p["skills"]]
            players.append(Player(**p))
        turn = TurnState(**d["turn"])
        rest = {k: v for k, v in d.items() if k not in ("players", "turn", "cards", "known")}
        return cls(
            players=players,
            turn=turn,
            cards={int(k): list(v) for k, v in d["cards"].items()},
            known={int(k): list(v) for k, v in d["known"].items()},
            **rest,
        )

    def digest(self) -> str:
        blob = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    # ------------------------------------------------------------------ zone helpers
    def zone_of(self, card_id: int) -> str:
        for name, ids in self.zones.items():
            if card_id in ids:
                return name
        raise KeyError(card_id)

    def check_conservation(self) -> None:
        """Every card id is in exactly one zone (raises AssertionError otherwise)."""
        seen: dict[int, str] = {}
        for name, ids in self.zones.items():
            for cid in ids:
                if cid in seen:
                    raise AssertionError(f"card {cid} in {seen[cid]} and {name}")
                seen[cid] = name
        missing = set(self.cards) - set(seen)
        extra = set(seen) - set(self.cards)
        if missing or extra:
            raise AssertionError(f"cards missing {sorted(missing)} unknown {sorted(extra)}")
