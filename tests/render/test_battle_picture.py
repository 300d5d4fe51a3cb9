"""The ``.bat 图`` picture: readable on a phone, every item visible, pages for long battles."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image, ImageDraw

from chronodice.render import battle_picture as pic
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as b


def battle(actions: int, people: int = 8) -> b.BattleState:
    s = b.new_battle()
    refs = [b.ParticipantRef(i, f"角色{i}", str(i)) for i in range(people)]
    for k in range(actions):
        s, _, _ = b.record_action(s, refs[k % people], windup=1 + k % 7, impact=10 + k, attribute="strength")
    return s


def sizes_used(
    monkeypatch: pytest.MonkeyPatch, state: b.BattleState, **kw: object
) -> tuple[set[int], Image.Image]:
    """Render and record every font size the picture asked for."""
    used: set[int] = set()
    real = pic.font

    def spy(size: int = 16):  # type: ignore[no-untyped-def]
        used.add(size)
        return real(size)

    monkeypatch.setattr(pic, "font", spy)
    png = view.timeline_image(state, view.Display(), **kw)  # type: ignore[arg-type]
    return used, Image.open(io.BytesIO(png))


@pytest.mark.parametrize("actions", [0, 3, 100, 500])
def test_smallest_text_is_24px_at_1080_display_width(monkeypatch: pytest.MonkeyPatch, actions: int) -> None:
    used, img = sizes_used(monkeypatch, battle(actions))
    assert min(used) * 1080 / img.width >= 24, (min(used), img.width)
    assert img.width == 1080 and img.height < 2600


def test_smallest_rendered_glyph_is_24px_high() -> None:
    """Measured on the pixels, not the requested size: a full-height hanzi of the smallest text."""
    img = Image.new("L", (200, 100), 0)
    ImageDraw.Draw(img).text((10, 10), "量", fill=255, font=pic.font(pic.SMALL))
    box = img.getbbox()
    assert box is not None and (box[3] - box[1]) * 1080 / pic.WIDTH >= 24


def test_each_action_its_own_row_and_events_at_their_time() -> None:
    s = battle(6, 3)
    s, _ = b.resource_event(s, "c1", "hp", -40.0, 0.0, 150.0)  # kills 角色1
    rows = pic.chart_rows(s)
    assert [r.action.id for r in rows if r.action] == sorted(a.id for a in s.actions)
    kinds = [r.event.kind for r in rows if r.event]
    assert kinds == ["hp", "death"]
    death = next(r for r in rows if r.event and r.event.kind == "death")
    assert death.time == s.events[-1].time


def test_pages_count_back_from_the_present() -> None:
    s = battle(100)
    rows = pic.chart_rows(s)
    pages = pic.page_count(s)
    assert pages == -(-100 // pic.ROWS_PER_PAGE)
    assert pic.page_rows(rows, pages, pages) == rows[-pic.ROWS_PER_PAGE :]
    assert len(pic.page_rows(rows, 1, pages)) == 100 - (pages - 1) * pic.ROWS_PER_PAGE
    first = Image.open(io.BytesIO(view.timeline_image(s, view.Display(), page=1)))
    assert first.width == 1080


def test_vitals_from_cards_and_events() -> None:
    s = battle(2, 2)
    s, _ = b.resource_event(s, "c0", "hp", -30.0, 120.0, 150.0)
    v = pic.vitals_from_events(s, {"c1": pic.Vitals(80.0, 100.0, 50.0, 60.0)})
    assert v["c0"].line() == "体力 120.0/150.0"
    assert v["c1"].line() == "体力 80.0/100.0  意志 50.0/60.0"
    text = view.timeline_text(s, view.Display(), vitals={"c1": pic.Vitals(80.0, 100.0, 50.0, 60.0)})
    assert "体力 120.0/150.0\n———————" in text and "体力 80.0/100.0  意志 50.0/60.0\n———————" in text


def test_fast_for_500_actions() -> None:
    s = battle(500)
    view.timeline_image(s, view.Display())
    t = time.perf_counter()
    view.timeline_image(s, view.Display())
    assert time.perf_counter() - t < 1.5


def test_sheet_picture_is_readable_at_1080(monkeypatch: pytest.MonkeyPatch) -> None:
    from chronodice.rules.timeline.character import import_sheet
    from chronodice.rules.timeline.sheet import Sheet

    used: set[int] = set()
    real = view.font

    def spy(size: int = 16):  # type: ignore[no-untyped-def]
        used.add(size)
        return real(size)

    monkeypatch.setattr(view, "font", spy)
    img = Image.open(io.BytesIO(view.sheet_image(import_sheet(Sheet.standard("荀彧")))))
    assert min(used) * 1080 / img.width >= 24
