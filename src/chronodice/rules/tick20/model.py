"""State of a D20 tick-initiative combat, as JSON-serialisable pydantic models.

Field names follow ``shared/rules/tick20.md`` §2.2.  One :class:`Combat` per group; it carries
its own ``schema_version`` and a short event log (undo is the store's session log).  ``main``/``cur``
are BASE's 主要先攻 M / 当前先攻 C; in the SPD variant ``cur`` is the 先攻值 I and ``main`` the
rolled or placed value (used when a pending late joiner enters at the next round).

No I/O, no clock, no randomness here.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PlainSerializer, PrivateAttr

from chronodice.core.plain import frozen, thawed

SCHEMA_VERSION = 1


class Variant(str, Enum):
    """BASE = seed 002 chapter 3; SPD = seed 004 追加规则."""

    BASE = "base"
    SPD = "spd"


class Phase(str, Enum):
    SETUP = "setup"
    ACTIVE = "active"
    ENDED = "ended"


class DurationKind(str, Enum):
    TICKS = "ticks"
    ROUNDS = "rounds"
    TURNS = "turns"
    UNTIL_TICK_END = "tick_end"
    UNTIL_ROUND_END = "round_end"
    FOCUS = "focus"
    PERMANENT = "permanent"
    CONDITION = "condition"


class Duration(BaseModel):
    """How long an effect lasts (tick20.md §2.6)."""

    kind: DurationKind = DurationKind.PERMANENT
    amount: int = 0
    boundary: Literal["start", "end"] = "end"
    anchor: str | None = None
    condition: str = ""
    dice: str = ""
    hidden: bool = False


class InitMod(BaseModel):
    """A typed initiative modifier carried by an effect."""

    value: int
    type: str = "通用"


class Effect(BaseModel):
    id: int
    name: str
    bearer: str
    source: str | None = None
    description: str = ""
    duration: Duration = Field(default_factory=Duration)
    remaining: int | None = None
    end_round: int | None = None
    born_seq: int = 0
    born_g: int = 0
    born_round: int = 0
    init_mod: InitMod | None = None
    parent: int | None = None
    concentration: bool = False
    check_mod: InitMod | None = None
    """A typed modifier on every check its bearer makes while it lasts (issue 26: 「效果改变检定」)."""
    edge: Literal["优势", "劣势"] | None = None
    """Advantage or disadvantage on its bearer's checks while it lasts."""


class InitRoll(BaseModel):
    """The initiative check behind a value; ``die`` None = a fixed placement."""

    dice: list[int] = Field(default_factory=list)
    die: int | None = None
    total: int = 0
    nat: Literal["N1", "N20"] | None = None
    passive: bool = False
    edge: Literal["优势", "劣势"] | None = None
    two_die: bool = False
    doubles: int | None = None

    @property
    def settles(self) -> bool:
        """沉淀 moves only active single-d20 rolls (A15)."""
        return self.die is not None and not self.passive and not self.two_die


class TotalAction(BaseModel):
    name: str
    total: int
    paid: int = 0
    paid_this_turn: int = 0


class Wound(BaseModel):
    level: int
    tags: list[str] = Field(default_factory=list)


class BodyPart(BaseModel):
    name: str
    vital: bool = False
    wounds: list[Wound] = Field(default_factory=list)
    severed: bool = False
    """<欠损> by a 切断 damage, whatever its wounds."""
    temp: int = 0
    """临时生命: how many wounds it can take in the part's place."""
    temp_wounds: list[Wound] = Field(default_factory=list)


class Gauge(BaseModel):
    cap: int = 5
    hp: int = 5


class Health(BaseModel):
    """BASE: wounds per body part and SP; SPD: Hit Gauges and Mind Gauges."""

    parts: list[BodyPart] = Field(default_factory=list)
    sp: int | None = None
    sp_max: int | None = None
    hg: list[Gauge] = Field(default_factory=list)
    mg: list[Gauge] = Field(default_factory=list)
    crisis: int = 3
    mp_debt: int = 0
    dissolved: bool = False
    """<解体>: takes no more turns."""
    dead: bool = False
    """SP at −max: dead, takes no more turns."""
    minion: bool = False
    """`杂兵`: the damage tags' minion forms apply."""
    resist: dict[str, int] = Field(default_factory=dict)
    vuln: dict[str, int] = Field(default_factory=dict)
    fort: int = 0
    """Modifier of her 强韧防御 (the bot's 濒死检定 and 力竭 check)."""
    dying_exempt: bool = False
    """A 濒死检定 大成功: no more checks until the scene ends or a new wound."""
    coma: list[str] = Field(default_factory=list)
    """Why she is <昏迷> (濒死, 力竭); empty = awake."""
    faults: list[str] = Field(default_factory=list)
    """杂兵 hit by 故障: the whole character is <故障>."""
    attr_loss: dict[str, int] = Field(default_factory=dict)
    """Attribute points lost in this combat (002 属性: "属性值最低只能被降至0"), by Chinese name;
    her checks read the card less these (``.属性 名 力量-3``)."""
    zeroed: list[str] = Field(default_factory=list)
    """Attributes at 0 (002 属性: 昏迷 / <解体> / 「无认知」)."""
    long_rest_unit: int = 0
    """The 单元 (:attr:`Combat.unit`) in which she last completed a 长休; 0 = none yet (002 长休:
    "角色在同一单元内最多完成1次长休")."""


class PreTurn(BaseModel):
    """What TURN START changed, so that a delay can put it back (tick20.md §2.4 DELAY)."""

    ap: int = 0
    mov: int = 0
    ma_used: bool = False
    ra_used: bool = False
    actions_left: int = 0
    effects: list[Effect] = Field(default_factory=list)


class Combatant(BaseModel):
    id: str
    name: str
    controller: str | None = None
    side: str = "敌方"
    lv: int = 0
    join_seq: int = 0
    manual_rank: int = 0
    roll: InitRoll | None = None
    init_mod: int = 0
    main: int = 0
    cur: int = 0
    mod_total: int = 0
    spd_base: int = 0
    pending: bool = False
    surprised: bool = False
    hidden: bool = False
    turns_this_round: int = 0
    turns_total: int = 0
    turn_started: bool = False
    busy: bool = False
    ap: int = 0
    ap_max: int = 3
    mov: int = 0
    speed: int = 0
    ma_used: bool = False
    ra_used: bool = False
    ta: TotalAction | None = None
    actions_left: int = 0
    adv_turn: int = -1
    pre_turn: PreTurn | None = None
    health: Health = Field(default_factory=Health)
    note: str = ""
    card: str = ""
    """The group's NPC card she was added from (``.ri 3# 哥布林`` → 哥布林), read by her checks
    and attacks; empty for a player (her controller's card) or an NPC without a card."""
    dr: int = 0
    """Her DR (002 伤害减免) from the card, what a one-command attack (``.atk``) subtracts."""
    defeated: bool = False
    """Marked defeated by the GM (``.init 击败``: fled, surrendered, HP gone): takes no more turns."""

    @property
    def gm_played(self) -> bool:
        return self.controller is None

    @property
    def shown(self) -> str:
        """Her name as a message to the group may carry it: ``???`` when hidden (the engine's
        refusals are answered where the command came from, and the name of a hidden NPC is the
        GM's to reveal)."""
        return "???" if self.hidden else self.name


class Options(BaseModel):
    """Per-combat switches (``.init begin`` / ``.init meta``)."""

    model_config = ConfigDict(extra="ignore")
    """Older stored states still carry ``undo_depth``; unknown keys are dropped on load."""

    variant: Variant = Variant.BASE
    settle: bool = False
    ap_max: int = 3
    ap_start: int = 0
    actions_per_turn: int = 1
    delay_rule: Literal["next_tick", "literal"] = "next_tick"
    carry_rule: Literal["carry", "reset"] = "carry"
    remind: bool = True
    hp_display: Literal["show", "fuzzy", "hide"] = "fuzzy"
    defense: Literal["passive", "roll"] = "passive"
    """How a one-command attack (``.atk``) finds the target's DEF when none is declared: her
    passive 闪避 (10 + modifiers) or a rolled defence check (002 防御检定) — the GM's choice."""
    name: str = ""


def _empty_data() -> Mapping[str, Any]:
    return MappingProxyType({})


EventData = Annotated[
    Mapping[str, Any],
    AfterValidator(frozen),
    PlainSerializer(thawed, return_type=dict[str, Any]),
]
"""An event's ``data``: read-only all the way down (:func:`~chronodice.core.plain.frozen`), JSON as a dict."""


class Event(BaseModel):
    """Something the engine did; the renderer turns it into Chinese text.

    Frozen, ``data`` included (:data:`EventData`): the store's codec
    (:class:`chronodice.services.tick20.codec.CombatCodec`) hands the events of the log a text
    was written from to every combat decoded from that text, so a logged event is never
    changed; trying raises (``ValidationError`` on a field, ``TypeError`` in ``data``).
    A changed event is a new one: ``Event(...)``, or ``model_copy(update=...)`` with any new
    ``data`` passed through :func:`~chronodice.core.plain.frozen` (``model_copy`` does not validate)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    kind: str
    round: int = 0
    tick: int = 0
    data: EventData = Field(default_factory=_empty_data)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Event:
        """Itself: a frozen event is shared, never copied (``copy.deepcopy`` of a combat, or
        ``model_copy(deep=True)``, keeps its log's events; a read-only mapping has no copy)."""
        return self


class Combat(BaseModel):
    model_config = ConfigDict(extra="ignore")
    """Older stored states still carry an ``undo`` stack of snapshots; dropped on load."""

    schema_version: int = SCHEMA_VERSION
    options: Options = Field(default_factory=Options)
    phase: Phase = Phase.SETUP
    round: int = 0
    tick: int = 20
    g: int = 0
    seq: int = 0
    turn_no: int = 0
    current: str | None = None
    queue: list[str] = Field(default_factory=list)
    acted: list[tuple[str, int]] = Field(default_factory=list)
    round_order: list[str] = Field(default_factory=list)
    combatants: list[Combatant] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list)
    owner: str | None = None
    gms: list[str] = Field(default_factory=list)
    advantage: dict[str, int] = Field(default_factory=dict)
    next_cid: int = 1
    next_eid: int = 1
    next_join: int = 1
    empty_rounds: int = 0
    round_turns: int = 0
    waiting: bool = False
    advanced_at: float = 0.0
    """Wall-clock time of the last turn advance, written by the caller (the bot's service) to
    recognise near-simultaneous ``.init next`` messages; the engine never reads it."""
    advanced_by: str | None = None
    session_id: str = ""
    """Drawn when the combat begins (:func:`chronodice.core.ids.session_id`): tells it from the
    next combat in the same row (a web link is bound to it)."""
    unit: int = 1
    """The current 单元 (002 时间: "一个单元由数个连续的片段构成"; usually a day), counted from 1;
    the GM starts the next with ``.init 单元`` (at most one 长休 each, :attr:`Health.long_rest_unit`)."""
    log: list[Event] = Field(default_factory=list)
    held: list[Event] = Field(default_factory=list)
    """Events of turn advances the group has not been shown yet: the turn went on to a hidden
    combatant (its turns are the GM's), so they wait for the next visible turn card — the group
    then reads the lines it would have read without the hidden combatant, only later."""
    _in_place: bool = PrivateAttr(default=False)
    _released: list[Event] = PrivateAttr(default_factory=list)

    # ------------------------------------------------------------------ ownership
    @property
    def in_place(self) -> bool:
        """Whether transitions change this combat itself (see ``engine.own``)."""
        return self._in_place

    def give_away(self) -> Combat:
        """Hand this combat over to the transitions that follow: they change it in place instead
        of copying it first (it is a fresh parse nobody else holds).  Returns it."""
        self._in_place = True
        return self

    @property
    def released(self) -> list[Event]:
        """The held events this command let go (set by the service that moved the turn on to a
        visible combatant, see ``services.tick20.hiding.hold``); not stored."""
        return self._released

    def release(self) -> None:
        """Move :attr:`held` to :attr:`released` (the next visible turn card shows them)."""
        self._released, self.held = [*self._released, *self.held], []

    # ------------------------------------------------------------------ lookups
    @property
    def variant(self) -> Variant:
        return self.options.variant

    def get(self, cid: str) -> Combatant:
        for c in self.combatants:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def maybe(self, cid: str | None) -> Combatant | None:
        if cid is None:
            return None
        for c in self.combatants:
            if c.id == cid:
                return c
        return None

    def effect(self, eid: int) -> Effect | None:
        for e in self.effects:
            if e.id == eid:
                return e
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON form without default-valued fields (``from_dict`` fills them in again)."""
        return self.model_dump(mode="json", exclude_defaults=True) | {"schema_version": self.schema_version}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Combat:
        version = data.get("schema_version", SCHEMA_VERSION)
        if version != SCHEMA_VERSION:
            raise ValueError(f"unsupported tick20 schema_version {version}")
        return cls.model_validate(data)


__all__ = [
    "SCHEMA_VERSION",
    "BodyPart",
    "Combat",
    "Combatant",
    "Duration",
    "DurationKind",
    "Effect",
    "Event",
    "EventData",
    "Gauge",
    "Health",
    "InitMod",
    "InitRoll",
    "Options",
    "Phase",
    "PreTurn",
    "TotalAction",
    "Variant",
    "Wound",
]
