"""Per-group session state of the D10 pool system: declared and spent defence bonus successes.

Seed 003 «附加成功的使用»: a defender declares how many defence bonus successes to use *before*
the attack roll; after the attack those points are lost for the round, and they come back at the
defender's next action.  A declaration not made before the roll counts as none.

State is JSON-serialisable and versioned; transitions are pure and return the new state plus
events (the service writes the state with compare-and-set and renders the events).

Readings taken where the seed is silent:

* a new declaration replaces an earlier, unused one (it is not added to it);
* the declaration is used by the next attack made against that character, whoever makes it;
* the defender's "next action" is an explicit ``.ww 行动`` (by the player or a GM) or any attack
  the defender makes; it restores the spent points and cancels an unused declaration.
* named NPCs (no card) are tracked under ``n<名字>``: the GM declares for them (``.ww 防御 2 守卫``)
  with no total to check against; their attack is their action.
* one declaration may name amounts for several coming attacks (``2/1``: 2 against the next
  attack, 1 against the one after), each amount used by one attack roll; together they may not
  exceed what is left of the total.
* 传奇 defence loss (seed: «当人物的基础防御归0时…失去传奇敏捷和传奇感知带来的防御附加成功»):
  ``legend`` is how many of the character's defence bonus successes come from 传奇敏捷/传奇感知.
  When the defender's base defence is 0 for an attack (declared with the defence, or given with
  the attack), a declaration is worth only what is left of the non-legendary points: ordinary
  points count first, so a declaration loses ``max(0, declared - (total - legend - spent))``.
  The whole declaration is still spent (the seed: 失去宣言点数).  For an NPC without a total the
  total is what it has declared and spent, so it loses ``min(declared, legend)``.
* a character with nothing declared and nothing spent is not tracked: declaring 0 with nothing
  spent stores nothing, and an action with nothing to restore leaves the defence as it was.
* every command of the group's D10 combat (攻击, 分配, 防御, 行动, 防御 clr) is one step of the
  session (:func:`step` counts it), also when it changed no defence: ``.undo`` takes back exactly
  the last of them and never reaches past it (issue 39: after a ``.ww 分配`` that spent no defence,
  ``.undo`` reverted the ``.ww 攻击`` before it without a word).  Undoing such a step changes
  nothing but the count; the ``.undo`` reply names the command it took back.

>>> s = Pool10Session()
>>> s, ev = declare_defence(s, "c1", "艾拉", amount=3, total=5)
>>> s, used, ev = take_defence(s, "c1")
>>> used, s.defence["c1"].spent, available(s, "c1", total=5)
(3, 3, 2)
>>> s, ev = new_action(s, "c1")
>>> available(s, "c1", total=5)
5
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from typing import Any

from chronodice.core.errors import IllegalAction, InputSyntaxError

SCHEMA_VERSION = 1
MAX_TRACKED = 200
MAX_QUEUED = 20


@dataclass(frozen=True)
class DefenceState:
    """One character's defence bonus successes this round."""

    name: str
    declared: int = 0
    """Declared for the next attack against this character (not yet used)."""
    spent: int = 0
    """Used this round; restored at the character's next action."""
    queue: tuple[int, ...] = ()
    """Declared for the attacks after the next one, in order (``.ww 防御 2/1``)."""
    total: int | None = None
    """The character's defence bonus successes (the card's); ``None`` for an NPC."""
    legend: int = 0
    """How many of them come from 传奇敏捷/传奇感知 (lost while the base defence is 0)."""
    base_zero: bool = False
    """The defender declared with base defence 0 (冲锋, 高速…): its legendary points are lost."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "declared": self.declared, "spent": self.spent}
        if self.queue:
            out["queue"] = list(self.queue)
        if self.total is not None:
            out["total"] = self.total
        if self.legend:
            out["legend"] = self.legend
        if self.base_zero:
            out["base_zero"] = True
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DefenceState:
        total = data.get("total")
        return cls(
            name=str(data["name"]),
            declared=int(data["declared"]),
            spent=int(data["spent"]),
            queue=tuple(int(x) for x in data.get("queue", ())),
            total=None if total is None else int(total),
            legend=int(data.get("legend", 0)),
            base_zero=bool(data.get("base_zero", False)),
        )

    @property
    def pending(self) -> tuple[int, ...]:
        """Every declared amount not yet used, next first."""
        return (self.declared, *self.queue) if self.declared or self.queue else ()


@dataclass(frozen=True)
class Pool10Session:
    """The group's pool-system state, keyed by character key (``c<id>`` for a card)."""

    defence: dict[str, DefenceState] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION
    steps: int = 0
    """Commands of the group's D10 combat so far (:func:`step`)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "defence": {k: v.to_dict() for k, v in sorted(self.defence.items())},
            "steps": self.steps,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Pool10Session:
        if not data:
            return cls()
        version = int(data.get("schema_version", SCHEMA_VERSION))
        if version > SCHEMA_VERSION:
            raise IllegalAction("会话数据来自更新的版本，无法读取")
        return cls(
            defence={k: DefenceState.from_dict(v) for k, v in dict(data.get("defence", {})).items()},
            schema_version=SCHEMA_VERSION,
            steps=int(data.get("steps", 0)),
        )


@dataclass(frozen=True)
class DefenceDeclared:
    key: str
    name: str
    amount: int
    replaced: int
    """An earlier unused declaration this one replaced (0 if none)."""
    queue: tuple[int, ...] = ()
    """Amounts declared for the attacks after the next one."""
    base_zero: bool = False


@dataclass(frozen=True)
class DefenceUsed:
    key: str
    name: str
    amount: int
    """Declared points spent by this attack."""
    legend_lost: int = 0
    """Of those, points worth nothing because the base defence was 0 (传奇 loss)."""

    @property
    def effective(self) -> int:
        """Points that cancel the attacker's natural successes."""
        return self.amount - self.legend_lost


@dataclass(frozen=True)
class DefenceRestored:
    key: str
    name: str
    restored: int
    dropped: int
    """An unused declaration cancelled by the action."""


Event = DefenceDeclared | DefenceUsed | DefenceRestored


def available(state: Pool10Session, key: str, *, total: int) -> int:
    """Defence bonus successes the character can still declare this round."""
    d = state.defence.get(key)
    return max(0, total - (d.spent if d else 0))


def npc_key(name: str) -> str:
    """The session key of a named NPC (no card): ``n<名字>``."""
    return f"n{name}"


def find_key(state: Pool10Session, name: str) -> str | None:
    """The tracked character called ``name``: an NPC of that name first, then a card's."""
    if npc_key(name) in state.defence:
        return npc_key(name)
    return next((k for k, d in state.defence.items() if d.name == name), None)


def close_names(state: Pool10Session, name: str) -> list[str]:
    """Tracked characters whose name is close to ``name`` but not it — the 艾琳 a GM meant when
    he typed ``@艾拉`` (issue 26).  Close: at least half alike (:func:`difflib.get_close_matches`).

    >>> s = Pool10Session(defence={"c1": DefenceState("艾琳", declared=2), "n守卫": DefenceState("守卫", declared=1)})
    >>> close_names(s, "艾拉"), close_names(s, "狼"), close_names(s, "艾琳")
    (['艾琳'], [], [])
    """
    names = sorted({d.name for d in state.defence.values() if d.name and d.name != name})
    return get_close_matches(name, names, n=6, cutoff=0.5)


def declare_defence(
    state: Pool10Session,
    key: str,
    name: str,
    *,
    amount: int | tuple[int, ...],
    total: int | None,
    legend: int = 0,
    base_zero: bool = False,
) -> tuple[Pool10Session, list[Event]]:
    """Declare defence bonus successes for the next attack (``amount``), or for the next few
    attacks in order (a tuple).  ``total``: the card's defence bonus successes (``None``: an NPC,
    nothing to check against); ``legend``: how many of them are 传奇; ``base_zero``: the
    defender's base defence is 0 for these attacks."""
    amounts = (amount,) if isinstance(amount, int) else tuple(amount)
    if not amounts or any(a < 0 for a in amounts):
        raise InputSyntaxError("宣言的防御附加成功不能为负数")
    if len(amounts) > MAX_QUEUED:
        raise InputSyntaxError(f"一次最多为{MAX_QUEUED}次攻击宣言防御")
    if legend < 0 or (total is not None and legend > total):
        raise InputSyntaxError(f"传奇防御附加成功应为0到{total}")
    old = state.defence.get(key, DefenceState(name=name))
    if total is not None:
        left = available(state, key, total=total)
        if sum(amounts) > left:
            raise IllegalAction(
                f"<{name}> 本轮可用的防御附加成功只剩{left}（共{total}），不能宣言{'/'.join(map(str, amounts))}"
            )
    if key not in state.defence and len(state.defence) >= MAX_TRACKED:
        raise IllegalAction("本群记录的防御宣言太多，请GM先 .ww 防御 clr")
    new = replace(
        old,
        name=name,
        declared=amounts[0],
        queue=amounts[1:],
        total=total,
        legend=legend if total is not None or legend else old.legend,
        base_zero=base_zero,
    )
    events: list[Event] = [DefenceDeclared(key, name, amounts[0], old.declared, amounts[1:], base_zero)]
    if not new.pending and new.spent == 0:  # nothing to track: not a change by itself
        if key not in state.defence:
            return state, events
        rest = {k: v for k, v in state.defence.items() if k != key}
        return replace(state, defence=rest), events
    return replace(state, defence={**state.defence, key: new}), events


def legend_loss(d: DefenceState) -> int:
    """Points of the next declaration lost while the base defence is 0 (ordinary points first).

    >>> legend_loss(DefenceState("甲", declared=3, total=5, legend=2))
    0
    >>> legend_loss(DefenceState("甲", declared=3, spent=1, total=5, legend=2))
    1
    >>> legend_loss(DefenceState("守卫", declared=3, spent=2, legend=2))  # an NPC: no total
    2
    """
    total = d.total if d.total is not None else d.declared + d.spent + sum(d.queue)
    ordinary_left = max(0, total - d.legend - d.spent)
    return max(0, d.declared - ordinary_left)


def take_defence(
    state: Pool10Session, key: str, *, base_zero: bool = False
) -> tuple[Pool10Session, int, list[Event]]:
    """An attack is rolled against ``key``: its next declaration (if any) is used up and spent.
    Returns the points that cancel natural successes (less the 传奇 loss when the base defence
    is 0: ``base_zero`` here, or declared with the defence)."""
    d = state.defence.get(key)
    if d is None or not d.pending:
        return state, 0, []
    lost = legend_loss(d) if (base_zero or d.base_zero) and d.legend else 0
    queue = d.queue
    new = replace(d, declared=queue[0] if queue else 0, queue=queue[1:], spent=d.spent + d.declared)
    used = DefenceUsed(key, d.name, d.declared, lost)
    return replace(state, defence={**state.defence, key: new}), used.effective, [used]


def new_action(state: Pool10Session, key: str) -> tuple[Pool10Session, list[Event]]:
    """The character acts: spent defence comes back; an unused declaration lapses."""
    d = state.defence.get(key)
    if d is None or (d.spent == 0 and not d.pending):  # nothing to restore: no change
        return state, []
    rest = {k: v for k, v in state.defence.items() if k != key}
    return replace(state, defence=rest), [DefenceRestored(key, d.name, d.spent, sum(d.pending))]


def clear(state: Pool10Session) -> tuple[Pool10Session, list[Event]]:
    """Forget every declaration and spent point (a GM ending the fight)."""
    events: list[Event] = [
        DefenceRestored(k, d.name, d.spent, sum(d.pending)) for k, d in state.defence.items()
    ]
    return replace(state, defence={}), events


def step(state: Pool10Session) -> Pool10Session:
    """``state`` after one more command of the group's D10 combat: each is a step of the session
    log of its own, so ``.undo`` never passes over one (module docstring).

    >>> step(step(Pool10Session())).to_dict()["steps"]
    2
    """
    return replace(state, steps=state.steps + 1)


__all__ = [
    "DefenceDeclared",
    "DefenceRestored",
    "DefenceState",
    "DefenceUsed",
    "Event",
    "Pool10Session",
    "available",
    "clear",
    "close_names",
    "declare_defence",
    "find_key",
    "legend_loss",
    "new_action",
    "npc_key",
    "step",
    "take_defence",
]
