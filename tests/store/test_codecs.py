"""What the session codecs promise the store, held by the production codecs themselves:

1. TimeLine (``BattleCodec``, ``immutable``): the store may hand one decoded battle to several
   commands (its one cache), so no part of a battle can change in place.  Its types hold no
   mutable container (walked recursively), the values of played battles hold none either, and
   trying raises.
2. D20 (``CombatCodec``): a logged event cannot change (``Event`` is frozen, its data included).
3. Both: ``encode(state, prev)`` (reusing ``prev``'s plain parts) gives the plain value
   ``encode(state, None)`` gives, and decoding its text gives the state back, at every step of
   played scenes.
"""

from __future__ import annotations

import collections.abc
import copy
import dataclasses
import random
import types
import typing
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, field, make_dataclass
from typing import Any, Literal, Union

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from chronodice.core.errors import ChronoDiceError
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.durations import parse_duration
from chronodice.rules.tick20.health import default_parts
from chronodice.rules.tick20.model import Combat, Event, Health, Variant
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import battle_actions as ba
from chronodice.rules.timeline import interactions as ix
from chronodice.rules.timeline.battle_state import Action, BattleState, frozen_mapping
from chronodice.rules.timeline.character import Weapon
from chronodice.services.tick20.codec import CombatCodec
from chronodice.services.timeline.codec import BattleCodec
from chronodice.store import patch as jpatch

# ====================================================================== 1. TimeLine: frozen
_LEAF_TYPES = (str, int, float, bool, type(None))
_READ_ONLY_MAPPINGS = (collections.abc.Mapping,)
"""``Mapping`` has no item assignment: the battle's constructors make every one a
``MappingProxyType`` (:func:`frozen_mapping`; the played battles below check the values)."""


def mutable_parts(tp: Any, where: str = "", seen: set[type] | None = None) -> list[str]:
    """Where the type ``tp`` lets a value be changed in place: a ``list``, ``dict``, ``set``, any
    other mutable container or unknown type, a dataclass that is not frozen; a frozen
    dataclass's fields, tuples' items and read-only mappings' keys and values are walked."""
    seen = set() if seen is None else seen
    origin = typing.get_origin(tp)
    if tp is Any or tp in _LEAF_TYPES or origin is Literal:
        return []
    if origin in (Union, types.UnionType):
        return [bad for arg in typing.get_args(tp) for bad in mutable_parts(arg, where, seen)]
    if origin is tuple:
        args = [a for a in typing.get_args(tp) if a is not Ellipsis]
        return [bad for arg in args for bad in mutable_parts(arg, f"{where}[]", seen)]
    if origin in _READ_ONLY_MAPPINGS:
        return [bad for arg in typing.get_args(tp) for bad in mutable_parts(arg, f"{where}{{}}", seen)]
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not tp.__dataclass_params__.frozen:  # type: ignore[attr-defined]
            return [f"{where or tp.__name__}: {tp.__name__} is not a frozen dataclass"]
        if tp in seen:
            return []
        seen.add(tp)
        hints = typing.get_type_hints(tp)
        return [
            bad
            for f in dataclasses.fields(tp)
            for bad in mutable_parts(hints[f.name], f"{tp.__name__}.{f.name}", seen)
        ]
    return [f"{where}: {tp!r} can be changed in place"]


def mutable_values(value: Any, where: str = "state") -> list[str]:
    """Where the value ``value`` holds something that can be changed in place (see
    :func:`mutable_parts`; here ``Any`` is walked too, as the value it is)."""
    if isinstance(value, _LEAF_TYPES):
        return []
    if type(value) is tuple:
        return [bad for i, v in enumerate(value) for bad in mutable_values(v, f"{where}[{i}]")]
    if type(value) is types.MappingProxyType:
        return [bad for k, v in value.items() for bad in mutable_values(v, f"{where}[{k!r}]")]
    if dataclasses.is_dataclass(value) and type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return [
            bad
            for f in dataclasses.fields(value)
            for bad in mutable_values(getattr(value, f.name), f"{where}.{f.name}")
        ]
    return [f"{where}: a {type(value).__name__}"]


def test_no_field_of_a_battle_can_hold_a_mutable_container() -> None:
    assert mutable_parts(BattleState) == []


@dataclass(frozen=True)
class Deep:
    notes: tuple[dict[str, int], ...] | None = None


@dataclass
class Loose:
    n: int = 0


@dataclass(frozen=True)
class Outer:
    deep: Deep
    loose: Loose | None
    fine: collections.abc.Mapping[str, tuple[int, ...]]


def test_the_type_walk_finds_a_list_a_dict_and_a_dataclass_that_is_not_frozen() -> None:
    """The walk above is the one that would catch a ``list`` field added to ``Action`` (the
    battle's ``actions`` are walked down to it)."""
    tags = ("tags", list[str], field(default_factory=list))
    with_list = make_dataclass("Action", [tags], bases=(Action,), frozen=True)
    holder = make_dataclass("Holder", [("actions", tuple[with_list, ...])], frozen=True)  # type: ignore[valid-type]
    assert mutable_parts(holder) == ["Action.tags: list[str] can be changed in place"]
    assert mutable_parts(Outer) == [
        "Deep.notes[]: dict[str, int] can be changed in place",
        "Outer.loose: Loose is not a frozen dataclass",
    ]


def test_nothing_in_a_battle_can_be_changed_in_place() -> None:
    state = played_battle(random.Random(3), 120)
    action = next(a for a in state.actions if a.weapon is not None)
    who = next(p for p in state.participants if p.ammo)
    assert state.initiative is not None and mutable_values(state) == []
    with pytest.raises(FrozenInstanceError):
        action.impact = 99.0  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        state.participants[0].status = "dead"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        state.events[0].delta = 1.0  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        state.actions = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        action.weapon["after"] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        who.ammo["7"] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        state.initiative["passive_start"] = 0.0  # type: ignore[index]
    with pytest.raises(TypeError):
        state.actions[0] = action  # type: ignore[index]


def test_a_frozen_mapping_is_read_only_all_the_way_down() -> None:
    got = frozen_mapping({"a": [1, {"b": [2]}], "c": {"d": 3}})
    assert mutable_values(got) == [] and got == {"a": (1, {"b": (2,)}), "c": {"d": 3}}
    with pytest.raises(TypeError):
        got["c"]["d"] = 4  # type: ignore[index]
    with pytest.raises(TypeError):
        frozen_mapping({"a": {1, 2}})  # not JSON: refused rather than kept mutable
    state = BattleState(initiative={"key": "c1", "passive_start": 1.5})
    assert type(state.initiative) is types.MappingProxyType
    assert BattleCodec().decode(jpatch.dumps(BattleCodec().encode(state, None))) == state


# ====================================================================== TimeLine scenes
JIA = bt.ParticipantRef(1, "甲", "10001")
YI = bt.ParticipantRef(2, "乙", "10002")
BING = bt.ParticipantRef(3, "丙", "10003")
NPC = bt.ParticipantRef(9, "哥布林", "99999", npc=True)
REFS = (JIA, YI, BING, NPC)
REVOLVER = Weapon(
    name="左轮", type="artillery", damage=3, cast=0.5, load=6, current_load=6, reload_time=4, uid=7
)
SCALPEL = Weapon(name="手术刀", type="amplifier", attribute="dexterity", damage=10, uid=3)
BATTLE_OPS = (
    "act", "act", "aim", "cancel", "cancel_id", "leave", "hp", "mp", "fire", "reload", "scalpel",
    "stun", "advance", "open", "initiative",
)  # fmt: skip


def battle_step(s: BattleState, op: str, who: int, t: float) -> BattleState:
    """One ``.bat``-like transition of ``s`` (as the service makes it); refused ones raise."""
    ref = REFS[who]
    n = 1 + int(t * 7) % max(1, len(s.actions))
    if op == "act":
        return bt.record_action(s, ref, windup=t, impact=10.0 + t, attribute="strength")[0]
    if op == "aim":
        target = REFS[(who + 1) % len(REFS)].key
        return bt.record_action(s, ref, windup=t, impact=5.0, attribute="dexterity", target=target)[0]
    if op == "cancel":
        return bt.cancel_action(s, ref.key)[0]
    if op == "cancel_id":
        return bt.cancel_action(s, None, n)[0]
    if op == "leave":
        return bt.leave(s, ref.key)[0]
    if op in ("hp", "mp"):
        hit = n if s.actions and t > 15 else None
        return bt.resource_event(s, ref.key, op, -t, max(0.0, 28 - t), 30.0, hit=hit)[0]  # type: ignore[arg-type]
    if op == "fire":
        return ba.artillery_action(s, ref, REVOLVER, 1 + int(t) % 3)[0]
    if op == "reload":
        return ba.artillery_action(s, ref, REVOLVER, None)[0]
    if op == "scalpel":
        return ba.amplifier_action(s, ref, SCALPEL, 20 + t)[0]
    if op == "stun":
        return ix.apply_control(s, n, ref.key, t / 3)[0]
    if op == "advance":
        return bt.advance(s, s.clock + t / 5)[0]
    if op == "open":
        return bt.open_battle(s, [r for r in REFS if r is not ref])[0]
    return bt.set_initiative(s, ref.key)[0]


def play_battle(
    steps: list[tuple[str, int, float]], check: Callable[[BattleState, BattleState], None]
) -> BattleState:
    """``steps`` played from a new battle; ``check(old, new)`` after each transition made."""
    s = bt.new_battle("s1")
    for op, who, t in steps:
        try:
            new = battle_step(s, op, who, t)
        except ChronoDiceError:
            continue
        check(s, new)
        s = new
    return s


def random_battle_steps(rng: random.Random, n: int) -> list[tuple[str, int, float]]:
    return [
        (rng.choice(BATTLE_OPS), rng.randrange(len(REFS)), round(rng.uniform(0, 30), 2)) for _ in range(n)
    ]


def played_battle(rng: random.Random, n: int) -> BattleState:
    return play_battle(
        [("act", 0, 5.0), ("initiative", 0, 0.0), ("fire", 1, 1.0), *random_battle_steps(rng, n)],
        lambda _o, _n: None,
    )


class BattleEncoding:
    """The store's chain for a battle: each new state encoded reusing the previous plain form,
    compared with an encoding from scratch."""

    def __init__(self) -> None:
        self.codec = BattleCodec()
        self.plain: Any = self.codec.encode(bt.new_battle("s1"), None)
        self.steps = 0

    def __call__(self, old: BattleState, new: BattleState) -> None:
        plain = self.codec.encode(new, (old, self.plain))
        fresh = self.codec.encode(new, None)
        text = jpatch.dumps(plain)
        assert text == jpatch.dumps(fresh)
        assert plain == fresh and jpatch.dumps(plain) == text
        assert self.codec.decode(text) == new
        assert mutable_values(new) == []
        self.plain = plain
        self.steps += 1


BATTLE_STEPS = st.lists(
    st.tuples(
        st.sampled_from(BATTLE_OPS),
        st.integers(0, len(REFS) - 1),
        st.floats(0, 30, allow_nan=False).map(lambda x: round(x, 2)),
    ),
    max_size=60,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BATTLE_STEPS)
def test_a_battle_encodes_and_dumps_at_every_step_as_from_scratch(
    steps: list[tuple[str, int, float]],
) -> None:
    play_battle(steps, BattleEncoding())


def test_a_long_battle_encodes_and_dumps_at_every_step_as_from_scratch() -> None:
    """Six hundred transitions of every kind (the Hypothesis scenes are short)."""
    check = BattleEncoding()
    state = play_battle(
        [("act", 0, 5.0), ("initiative", 0, 0.0), *random_battle_steps(random.Random(11), 600)], check
    )
    assert check.steps > 300 and len(state.actions) > 100 and state.initiative is not None
    assert {e.kind for e in state.events} >= {"join", "hp", "mp", "stun", "advance", "initiative"}
    assert any(a.cancelled for a in state.actions) and any(a.kind == "reload" for a in state.actions)


# ====================================================================== 2. D20: frozen events
def combat_in_play(seed: int = 0, turns: int = 12) -> Combat:
    state = E.new_combat("gm")
    for i in range(5):
        state = E.add_combatant(state, f"怪{i}", value=4 + 3 * i, health=Health(parts=default_parts())).state
    state = E.start(state, dice=[]).state
    cids = [c.id for c in state.combatants]
    state = E.set_sp(state, cids[0], maximum=6).state
    state = E.add_effect(state, cids[1], "迟缓", parse_duration("2轮"), source=cids[2]).state
    for k in range(turns):
        state = E.end_turn(state, dice=[]).state
        if k % 4 == 1:
            state = E.wound(state, cids[k % 5], "躯干", level=1, dice=[10]).state
    return state


def test_a_logged_event_cannot_be_changed() -> None:
    state = combat_in_play()
    state = E.add_effect(state, state.combatants[0].id, "祝福").state  # permanent: in the summary
    state = E.end(state).state
    end = state.log[-1]
    assert end.kind == "end" and end.data["turns"] and end.data["effects"]
    with pytest.raises(ValidationError):
        end.kind = "start"  # type: ignore[misc]
    with pytest.raises(ValidationError):
        end.round = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        end.data["rounds"] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        end.data["turns"]["c1"] = 0  # type: ignore[index]
    with pytest.raises(AttributeError):
        end.data["effects"].append(("c1", "x"))  # type: ignore[attr-defined]
    changed = end.model_copy(update={"round": 99})
    assert changed.round == 99 and end.round != 99
    again = copy.deepcopy(state)  # a copy of the combat shares its log's events
    assert again == state and again.log[-1] is end and state.model_copy(deep=True).log[-1] is end


def test_an_event_keeps_no_reference_to_what_it_was_made_from() -> None:
    notes = ["力竭"]
    ev = Event(kind="sp", data={"notes": notes, "check": {"dice": [3]}})
    notes.append("later")
    assert ev.data["notes"] == ("力竭",) and ev.data["check"] == {"dice": (3,)}
    assert ev.model_dump(mode="json") == {
        "kind": "sp",
        "round": 0,
        "tick": 0,
        "data": {"notes": ["力竭"], "check": {"dice": [3]}},
    }
    assert Event.model_validate_json(ev.model_dump_json()) == ev


# ====================================================================== 3. D20 encoding
COMBAT_OPS = (
    "next",
    "next",
    "next",
    "skip",
    "delay",
    "wound",
    "sp",
    "effect",
    "uneffect",
    "ap",
    "join",
    "defeat",
)


def combat_step(c: Combat, op: str, who: int, n: int) -> Combat:
    """One ``.init``-like transition of ``c`` (changed in place once given away)."""
    cids = [x.id for x in c.combatants]
    cid = cids[who % len(cids)]
    if op == "next":
        return E.end_turn(c, dice=[n]).state
    if op == "skip":
        return E.end_turn(c, skip=True, dice=[]).state
    if op == "delay":
        return E.delay(c).state
    if op == "wound":
        return E.wound(c, cid, ("躯干", "头部", "臂部", "腿部")[n % 4], level=1 + n % 3, dice=[n]).state
    if op == "sp":
        return E.set_sp(c, cid, delta=-(n % 5), maximum=None if n % 2 else 6, dice=[n]).state
    if op == "effect":
        return E.add_effect(c, cid, f"效果{n % 3}", parse_duration(f"{1 + n % 3}轮"), source=cids[0]).state
    if op == "uneffect":
        return E.remove_effect(c, cid).state
    if op == "ap":
        return E.spend_ap(c, c.current or cid, n % 3, "FA").state
    if op == "join":
        return E.add_combatant(c, f"援军{n}", value=n, health=Health(parts=default_parts())).state
    return E.set_defeated(c, cid, True).state


COMBAT_STEPS = st.lists(
    st.tuples(st.sampled_from(COMBAT_OPS), st.integers(0, 5), st.integers(1, 20)), min_size=5, max_size=50
)


def play_combat(steps: list[tuple[str, int, int]], variant: Variant = Variant.BASE) -> int:
    """``steps`` played the store's way on a combat that is already long: each step decodes
    the text written before it, changes that combat in place and encodes it reusing the
    previous plain form (a refused step writes nothing); each encoding is compared with one
    from scratch.  Returns how many steps were written."""
    codec = CombatCodec()
    start = combat_in_play(turns=30) if variant is Variant.BASE else spd_combat()
    plain = codec.encode(start, None)
    text = jpatch.dumps(plain)
    written = 0
    for op, who, n in steps:
        work = codec.decode(text)
        try:
            new = combat_step(work.give_away(), op, who, n)
        except ChronoDiceError:
            continue
        new_plain = codec.encode(new, (work, plain))
        fresh = codec.encode(new, None)
        new_text = jpatch.dumps(new_plain)
        assert new_text == jpatch.dumps(fresh) == jpatch.dumps(new.to_dict())
        assert new_plain == fresh
        assert codec.decode(new_text) == Combat.model_validate_json(new_text)
        plain, text = new_plain, new_text
        written += 1
    return written


def spd_combat() -> Combat:
    state = E.new_combat("gm", variant=Variant.SPD)
    for i in range(4):
        state = E.add_combatant(state, f"N{i}", value=8 + 5 * i, spd_base=i).state
    state = E.start(state, dice=[]).state
    for _ in range(10):
        state = E.end_turn(state, dice=[]).state
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(COMBAT_STEPS, st.sampled_from([Variant.BASE, Variant.SPD]))
def test_a_combat_encodes_and_dumps_at_every_step_as_from_scratch(
    steps: list[tuple[str, int, int]], variant: Variant
) -> None:
    play_combat(steps, variant)


def test_a_long_combat_encodes_and_dumps_at_every_step_as_from_scratch() -> None:
    rng = random.Random(5)
    steps = [(rng.choice(COMBAT_OPS), rng.randrange(6), rng.randint(1, 20)) for _ in range(200)]
    assert play_combat(steps) > 120


def test_a_step_that_replaces_a_logged_event_is_encoded_as_from_scratch() -> None:
    """Events are never changed, but a rule may put a new one in an old one's place: it is a
    new object, so it is converted, not taken from the previous text."""
    codec = CombatCodec()
    state = combat_in_play()
    plain = codec.encode(state, None)
    text = jpatch.dumps(plain)
    work = codec.decode(text)
    work.log = [work.log[0].model_copy(update={"tick": work.log[0].tick + 1}), *work.log[1:]]
    new_plain = codec.encode(work, (work, plain))
    assert jpatch.dumps(new_plain) == jpatch.dumps(codec.encode(work, None)) != text
