"""The bundled fonts (see README.md in this folder): ``font(size)`` for Pillow.

``font(size)`` is a :class:`FallbackFont`: a Pillow ``FreeTypeFont`` on the bundled CJK face
(WenQuanYi Micro Hei, GB2312 subset) that draws every character it lacks from the bundled DejaVu
Sans (Latin, Greek, Cyrillic, many symbols: ☠ ⌛ ✖), and every character neither has (荀彧's 彧,
traditional 龍, emoji) as the visible box :data:`MISSING` (☐) — never as nothing.  Draw with it as
with any Pillow font: ``draw.text(xy, text, font=font(24))``; ``textlength``/``textbbox`` agree.

Which font has a character is read from each font's ``cmap`` table (:func:`coverage`); Pillow
gives no such query and fontTools is not a dependency.
"""

from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FONT_PATH = Path(__file__).with_name("wqy-microhei-gb2312.ttf")
FALLBACK_PATH = Path(__file__).with_name("DejaVuSans.ttf")
MISSING = "☐"
"""Drawn for a character no bundled font has (U+2610 BALLOT BOX from DejaVu Sans: a full-height
box, where the CJK font's □ is a small square that reads as punctuation)."""


@lru_cache(maxsize=4)
def coverage(path: Path) -> frozenset[int]:
    """The code points a TrueType font maps (cmap subtables of format 4 and 12)."""
    data = path.read_bytes()
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap = 0
    for i in range(num_tables):
        tag, _check, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    points: set[int] = set()
    if not cmap:
        return frozenset()
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    for i in range(count):
        platform, _encoding, sub = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if platform not in (0, 3):
            continue
        base = cmap + sub
        fmt = struct.unpack_from(">H", data, base)[0]
        if fmt == 4:
            points |= _format4(data, base)
        elif fmt == 12:
            groups = struct.unpack_from(">I", data, base + 12)[0]
            for g in range(groups):
                start, end, _glyph = struct.unpack_from(">III", data, base + 16 + 12 * g)
                points.update(range(start, end + 1))
    return frozenset(points)


def _format4(data: bytes, base: int) -> set[int]:
    seg_x2 = struct.unpack_from(">H", data, base + 6)[0]
    segs = seg_x2 // 2
    ends = struct.unpack_from(f">{segs}H", data, base + 14)
    starts = struct.unpack_from(f">{segs}H", data, base + 16 + seg_x2)
    deltas = struct.unpack_from(f">{segs}h", data, base + 16 + 2 * seg_x2)
    range_at = base + 16 + 3 * seg_x2
    offsets = struct.unpack_from(f">{segs}H", data, range_at)
    points: set[int] = set()
    for k in range(segs):
        for c in range(starts[k], ends[k] + 1):
            if c == 0xFFFF:
                continue
            if offsets[k] == 0:
                glyph = (c + deltas[k]) & 0xFFFF
            else:
                at = range_at + 2 * k + offsets[k] + 2 * (c - starts[k])
                glyph = struct.unpack_from(">H", data, at)[0]
                glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
            if glyph:
                points.add(c)
    return points


class FallbackFont(ImageFont.FreeTypeFont):
    """The CJK face, with per-character fallback to DejaVu Sans and then to :data:`MISSING`.

    Text the CJK face covers (after missing characters became :data:`MISSING`) goes straight to
    Pillow; mixed text is laid out run by run on a common baseline.
    """

    def __init__(self, size: int) -> None:
        super().__init__(str(FONT_PATH), size)
        self._fallback = ImageFont.truetype(str(FALLBACK_PATH), size)

    def font_variant(self, **kwargs: Any) -> FallbackFont:  # type: ignore[override]
        return font(int(kwargs.get("size", self.size)))

    # -------------------------------------------------------------- runs
    def runs(self, text: str) -> list[tuple[ImageFont.FreeTypeFont, str]]:
        """``text`` split into (font, text) runs; uncovered characters become :data:`MISSING`."""
        main, extra = coverage(FONT_PATH), coverage(FALLBACK_PATH)
        out: list[tuple[ImageFont.FreeTypeFont, str]] = []
        for ch in text:
            code = ord(ch)
            if 0xFE00 <= code <= 0xFE0F or code in (0x200D, 0x200B):
                continue  # variation selectors / joiners: part of the mark before them
            if code in main or ch in "\n\r\t":
                f: ImageFont.FreeTypeFont = self
            elif code in extra:
                f = self._fallback
            else:
                f, ch = self._fallback, MISSING
            if out and out[-1][0] is f:
                out[-1] = (f, out[-1][1] + ch)
            else:
                out.append((f, ch))
        return out

    def visible(self, text: str) -> str:
        """``text`` as this font draws it when there is no second font (tests, plain widths)."""
        return "".join(t for _f, t in self.runs(text))

    def _simple(self, text: Any) -> tuple[bool, Any]:
        if not isinstance(text, str):
            return True, text
        runs = self.runs(text)
        if all(f is self for f, _t in runs):
            return True, "".join(t for _f, t in runs)
        return False, runs

    def _base(self, f: ImageFont.FreeTypeFont, method: str, *args: Any, **kwargs: Any) -> Any:
        cls = ImageFont.FreeTypeFont
        return getattr(cls, method)(f, *args, **kwargs)

    # -------------------------------------------------------------- Pillow's font interface
    def getlength(self, text: Any, *args: Any, **kwargs: Any) -> float:  # type: ignore[override]
        simple, value = self._simple(text)
        if simple:
            return self._base(self, "getlength", value, *args, **kwargs)
        return sum(self._base(f, "getlength", t, *args, **kwargs) for f, t in value)

    def getbbox(self, text: Any, *args: Any, **kwargs: Any) -> tuple[float, float, float, float]:  # type: ignore[override]
        simple, value = self._simple(text)
        if simple:
            return self._base(self, "getbbox", value, *args, **kwargs)
        # getbbox(text, mode, direction, features, language, stroke_width, anchor)
        anchor = kwargs.get("anchor") or (args[5] if len(args) > 5 else None)
        image, (left, top) = self._compose(value, anchor)
        return (left, top, left + image.size[0], top + image.size[1])

    def getmask2(self, text: Any, mode: str = "", *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:  # type: ignore[override]
        simple, value = self._simple(text)
        if simple:
            return self._base(self, "getmask2", value, mode, *args, **kwargs)
        anchor = kwargs.get("anchor") or (args[4] if len(args) > 4 else None)
        image, offset = self._compose(value, anchor, mode or "L")
        return image.im, offset

    def getmask(self, text: Any, mode: str = "", *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return self.getmask2(text, mode, *args, **kwargs)[0]

    def _compose(
        self, runs: list[tuple[ImageFont.FreeTypeFont, str]], anchor: str | None, mode: str = "L"
    ) -> tuple[Image.Image, tuple[int, int]]:
        """Runs drawn side by side on one baseline; offset as Pillow's ``getmask2`` gives it."""
        ascent, descent = self.getmetrics()
        placed, width = [], 0.0
        for f, t in runs:
            placed.append((f, t, width, self._base(f, "getbbox", t, anchor="ls")))
            width += self._base(f, "getlength", t)
        x0 = min(int(at + b[0]) for _f, _t, at, b in placed)
        y0 = min(int(b[1]) for *_r, b in placed)
        x1 = max(int(at + b[2]) + 1 for _f, _t, at, b in placed)
        y1 = max(int(b[3]) + 1 for *_r, b in placed)
        image = Image.new("L" if mode not in ("1", "L") else mode, (max(1, x1 - x0), max(1, y1 - y0)), 0)
        draw = ImageDraw.Draw(image)
        for f, t, at, _b in placed:
            draw.text((at - x0, -y0), t, fill=255, font=f, anchor="ls")
        anchor = anchor or "la"
        dx = {"l": 0.0, "m": -width / 2, "r": -width}.get(anchor[0], 0.0)
        dy = {"a": ascent, "t": -y0, "m": (ascent - descent) / 2, "s": 0.0, "d": -descent, "b": -y1}.get(
            anchor[1], ascent
        )
        return image, (int(x0 + dx), int(y0 + dy))


@lru_cache(maxsize=32)
def font(size: int = 16) -> FallbackFont:
    """The bundled CJK font at ``size`` pixels with per-character fallback (cached)."""
    return FallbackFont(size)


def fit(text: str, f: ImageFont.FreeTypeFont | FallbackFont, width: float) -> str:
    """``text`` cut with … so that it is at most ``width`` px long in ``f`` ("" when not even …
    fits): the one way the pictures shorten a name or a line."""
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…" if text else ""


__all__ = ["FALLBACK_PATH", "FONT_PATH", "MISSING", "FallbackFont", "coverage", "fit", "font"]
