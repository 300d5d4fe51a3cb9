"""A battle's participants and actions are frozen all the way down: the store writes only the
actions that are new objects, so one changed in place would leave the stored battle behind what
the bot shows.  Trying raises at once; ``replace`` is the way."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError, replace

import pytest

from chronodice.rules.timeline.battle_state import Action, BattleState, Participant


def _battle() -> BattleState:
    p = Participant("c1", "甲", "10001", 1, ammo={"3": 6})
    a = Action(1, "c1", 0.0, 1.0, 10.0, weapon={"name": "左轮", "uid": 3, "before": 6, "after": 5})
    return BattleState(participants=(p,), actions=(a,))


def test_a_weapon_snapshot_and_ammunition_cannot_be_changed_in_place() -> None:
    state = _battle()
    action, who = state.actions[0], state.participants[0]
    with pytest.raises(TypeError):
        action.weapon["after"] = 4  # type: ignore[index]
    with pytest.raises(TypeError):
        who.ammo["3"] = 0  # type: ignore[index]
    with pytest.raises(FrozenInstanceError):
        action.impact = 99.0  # type: ignore[misc]
    changed = replace(who, ammo={**who.ammo, "3": 5})
    assert changed.ammo == {"3": 5} and who.ammo == {"3": 6}
    with pytest.raises(TypeError):
        changed.ammo["3"] = 1  # type: ignore[index]


def test_the_frozen_battle_reads_and_writes_as_before() -> None:
    state = _battle()
    data = state.to_dict()
    assert data["participants"][0]["ammo"] == {"3": 6} and type(data["participants"][0]["ammo"]) is dict
    assert data["actions"][0]["weapon"]["name"] == "左轮"
    again = BattleState.from_dict(json.loads(json.dumps(data)))
    assert again == state and again.actions[0].weapon == {"name": "左轮", "uid": 3, "before": 6, "after": 5}


def test_a_frozen_battle_can_still_be_deep_copied() -> None:
    import copy

    state = _battle()
    again = copy.deepcopy(state)
    assert again == state and again.actions[0].weapon is not state.actions[0].weapon
    with pytest.raises(TypeError):
        again.participants[0].ammo["3"] = 0  # type: ignore[index]
