"""The shared font loader: every character a player can type draws something visible."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from chronodice.render.fonts import FALLBACK_PATH, FONT_PATH, MISSING, coverage, font


def ink_columns(text: str, size: int = 40) -> list[int]:
    """Inked pixels per character cell of ``text`` drawn alone (cells from the font's own widths)."""
    f = font(size)
    out = []
    for ch in text:
        img = Image.new("L", (size * 3, size * 2), 0)
        ImageDraw.Draw(img).text((size // 2, size // 4), ch, fill=255, font=f)
        out.append(sum(1 for v in img.tobytes() if v > 96))
    return out


def test_cmap_reading() -> None:
    cjk, latin = coverage(FONT_PATH), coverage(FALLBACK_PATH)
    assert ord("荀") in cjk and ord("彧") not in cjk and ord("龍") not in cjk
    assert ord("Æ") in latin and ord("☠") in latin and ord("中") not in latin
    assert ord(MISSING) in latin


def test_characters_outside_gb2312_are_visible() -> None:
    # 彧 (GBK, not GB2312), traditional 龍騎, an emoji with a skin tone, one with a selector
    for text in ("彧", "龍騎士", "🎉", "👍🏻"):
        assert all(n > 20 for n in ink_columns(text)), text
    img = Image.new("L", (120, 80), 0)
    ImageDraw.Draw(img).text((10, 10), "❤️", fill=255, font=font(40))
    assert img.getbbox() is not None
    assert font(20).visible("荀彧") == "荀" + MISSING
    assert font(20).visible("❤️🎉") == "❤" + MISSING  # ❤ from DejaVu, its selector dropped


def test_fallback_font_draws_symbols_and_latin() -> None:
    f = font(40)
    runs = f.runs("☠死亡 Ærwyn")
    assert [t for _f, t in runs] == ["☠", "死亡 ", "Æ", "rwyn"]
    assert runs[0][0] is not f and runs[1][0] is f
    assert all(n > 20 for n in ink_columns("☠Æ"))


def test_measuring_agrees_with_drawing() -> None:
    f = font(32)
    for text in ("普通中文 abc", "☠龍 Ω 🎉 x"):
        img = Image.new("L", (600, 100), 0)
        draw = ImageDraw.Draw(img)
        draw.text((10, 20), text, fill=255, font=f)
        left, top, right, bottom = draw.textbbox((10, 20), text, font=f)
        box = img.getbbox()
        assert box is not None
        assert abs(box[0] - left) <= 3 and abs(box[2] - right) <= 3, (text, box, (left, right))
        assert top - 3 <= box[1] and box[3] <= bottom + 3
        assert abs(draw.textlength(text, font=f) - (right - left)) < 12


def test_anchors_on_mixed_text() -> None:
    """Centre/right anchors place mixed-font text like Pillow places plain text."""
    f = font(32)
    for anchor in ("la", "mm", "rs", "ms"):
        img = Image.new("L", (600, 200), 0)
        draw = ImageDraw.Draw(img)
        draw.text((300, 100), "☠龍 Ω", fill=255, font=f, anchor=anchor)
        box = img.getbbox()
        bbox = draw.textbbox((300, 100), "☠龍 Ω", font=f, anchor=anchor)
        assert box is not None
        assert abs(box[0] - bbox[0]) <= 3 and abs(box[2] - bbox[2]) <= 3, (anchor, box, bbox)
        if anchor[0] == "m":
            assert abs((box[0] + box[2]) / 2 - 300) <= 4
        if anchor[0] == "r":
            assert abs(box[2] - 300) <= 4


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="荀彧龍騎士甲 aÆΩж☠❤️🎉👍🏻\u200d·—（）0.5t", min_size=1, max_size=12))
def test_any_mix_draws_within_its_box(text: str) -> None:
    f = font(24)
    img = Image.new("L", (700, 80), 0)
    draw = ImageDraw.Draw(img)
    draw.text((10, 20), text, fill=255, font=f)
    box = img.getbbox()
    left, top, right, bottom = draw.textbbox((10, 20), text, font=f)
    visible = f.visible(text).strip()
    assert (box is not None) == bool(visible), (text, box)
    if box is not None:
        assert left - 3 <= box[0] and box[2] <= right + 3 and top - 3 <= box[1] and box[3] <= bottom + 3
