"""Text of the turn card and the combat list (tick20.md §4.4), player and GM views."""

from __future__ import annotations

from chronodice.render import tick20 as R
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.durations import parse_duration
from chronodice.rules.tick20.model import Combat


def combat() -> Combat:
    st = E.new_combat("gm")
    st, _ = E.add_combatant(st, "艾琳", value=17, controller="2")
    st, _ = E.add_combatant(st, "哥布林a", value=12)
    st, _ = E.add_combatant(st, "X", value=25)
    st, _ = E.add_combatant(st, "伏兵", value=9, hidden=True)
    st, _ = E.start(st)
    return st


def test_turn_card_layout() -> None:
    st = combat()
    st, _ = E.end_turn(st)  # X at t20 → 艾琳 t17
    st, _ = E.add_effect(st, "c2", "迟缓", parse_duration("3刻"), source="c1")
    st, events = E.end_turn(st)  # → 哥布林a at t12; 迟缓 ended at the t14 start
    card = R.turn_card(st, events).splitlines()
    assert card == [
        "⚔ 第1轮 · 第12刻（基础）",
        "▶ 哥布林a 的回合　AP 3/3",
        "  结束：哥布林a的迟缓（艾琳）",
        # the hidden 伏兵 (t9) is left out: when a hidden NPC acts is the GM's (issue 12)
        "  接下来：第4刻 X → 第2轮 第17刻 艾琳 → 第2轮 第12刻 哥布林a",
    ]


def test_player_turn_line_and_round_start() -> None:
    st = combat()
    for _ in range(5):  # X t20, 艾琳 t17, 哥布林a t12, 伏兵 t9, X t4
        st, events = E.end_turn(st)
    card = R.turn_card(st, events)
    assert card.splitlines()[0] == "—— 第2轮开始 ——"
    assert "▶ 艾琳 的回合 @艾琳　AP 3/3　（可 .延后）" in card


def test_list_player_and_gm_views() -> None:
    st = combat()
    st, _ = E.end_turn(st)
    st, _ = E.add_effect(st, "c1", "守护", parse_duration("1回合"), source="c1")
    player = R.combat_list(st)
    assert player.splitlines()[0] == "第1轮 · 第17刻（基础）　当前：艾琳"
    assert "25(当前4)  X　AP 3/3　已行动" in player
    assert "▶ 17  艾琳　AP 3/3　[守护 剩1回合]" in player
    assert "伏兵" not in player and "???" not in player
    gm = R.combat_list(st, gm=True)
    assert "伏兵" in gm


def test_hidden_duration_shows_question_mark_to_players() -> None:
    st = combat()
    d = parse_duration("2轮").model_copy(update={"hidden": True})
    st, _ = E.add_effect(st, "c2", "诅咒", d)
    assert "[诅咒 剩?]" in R.effects_text(st, "c2", gm=False)
    assert "[诅咒 剩2轮]" in R.effects_text(st, "c2", gm=True)


def test_the_engines_refusals_do_not_name_a_hidden_combatant() -> None:
    """A refusal is answered in the group: the name of a hidden NPC (the GM's to reveal) is ???
    there, also where nobody typed it (two ``.init next`` at once while it is its turn)."""
    import pytest

    from chronodice.core.errors import IllegalAction

    st = combat()
    while st.current is None or not st.get(st.current).hidden:
        st, _ = E.end_turn(st)
    with pytest.raises(IllegalAction) as refused:
        E.end_turn(st, expected_turn=st.turn_no - 1)
    assert "???" in str(refused.value) and "伏兵" not in str(refused.value)
    with pytest.raises(IllegalAction) as refused:
        E.remove(st, st.current)
    assert str(refused.value).startswith("??? 正在回合中")
