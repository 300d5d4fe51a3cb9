"""The TimeLine renderer: text caps, sheet-style display, pictures that scale."""

from __future__ import annotations

import io

from PIL import Image

from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as b
from chronodice.rules.timeline import battle_actions as ba
from chronodice.rules.timeline.character import add_buff, import_sheet
from chronodice.rules.timeline.modifiers import make_buff
from chronodice.rules.timeline.sheet import Sheet


def big_battle(actions: int, people: int) -> b.BattleState:
    s = b.new_battle()
    refs = [b.ParticipantRef(i, f"角色{i}", str(i)) for i in range(people)]
    for k in range(actions):
        s, _, _ = b.record_action(s, refs[k % people], windup=1 + k % 7, impact=10 + k, attribute="strength")
    return s


def test_mayuribot_block_shape() -> None:
    s, _, _ = ba.attribute_action(
        b.new_battle(), b.ParticipantRef(1, "甲", "1"), "strength", 175.0, impact=150, note="重拳"
    )
    text = view.timeline_text(s, view.Display())
    assert "甲 : 150.0\n17.14t (17.14t) : 150.0 ⌛\n力量 : 重拳\n———————" in text
    assert "▶ 下一个行动：甲（17.14t）" in text


def test_sheet_display() -> None:
    sheet = view.Display(sheet=True)
    assert (sheet.windup(17.14), sheet.rate(350.0)) == ("17", "100")
    assert (view.Display().windup(17.14), view.Display().rate(350.0)) == ("17.14", "350")


def test_text_is_capped_for_many_participants() -> None:
    s = big_battle(500, 30)
    text = view.timeline_text(s, view.Display())
    assert len(text) <= 1500 and "另有18名角色" in text
    page = view.log_page(s, view.Display(), 2)
    assert page.startswith("战斗记录 第2/") and len(page) <= 1500
    assert view.log_page(s, view.Display(), 10**6).startswith("战斗记录 第36/36页（共530条）")


def test_picture_scales_with_a_long_battle() -> None:
    for actions in (3, 500):
        png = view.timeline_image(big_battle(actions, 8), view.Display())
        img = Image.open(io.BytesIO(png))
        assert img.width == 1080 and img.height < 2200  # pages of rows, not wider columns


def test_sheet_picture_and_buff_difference() -> None:
    char = add_buff(import_sheet(Sheet.standard()), make_buff("祝福", "物理", "10%", None, 10))
    text = view.character_text(char)
    assert "力量: 192.5 (+17.5)" in text and "意志: 150.0\n" in text
    assert view.sheet_image(char).startswith(b"\x89PNG")
