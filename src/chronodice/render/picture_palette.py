"""The battle picture's colours and its PNG encoding onto one fixed palette.

Ten participant colours (:data:`COLORS`), told apart on a phone and from the red of the
now-line and stuns; a participant keeps theirs for the whole battle
(:func:`chronodice.render.battle_rows.colour_index`).
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

Colour = tuple[int, int, int]

BG: Colour = (250, 248, 242)
STRIPE: Colour = (243, 240, 232)
HEAD: Colour = (228, 222, 208)
INK: Colour = (40, 40, 40)
MUTED: Colour = (120, 115, 105)
GRID: Colour = (215, 210, 200)
RED: Colour = (200, 40, 40)
GREEN: Colour = (20, 140, 80)
WHITE: Colour = (255, 255, 255)
COLORS: list[Colour] = [
    (52, 110, 220),  # blue
    (215, 120, 0),  # orange
    (20, 140, 80),  # green
    (150, 60, 170),  # purple
    (0, 135, 150),  # teal
    (160, 100, 40),  # brown
    (220, 60, 140),  # pink
    (90, 90, 200),  # indigo
    (110, 140, 20),  # olive
    (70, 70, 70),  # graphite
]


def tint(c: Colour, k: float = 0.22) -> Colour:
    """``c`` lightened towards white (``k`` of the colour left)."""
    r, g, b = (int(v * k + 255 * (1 - k)) for v in c)
    return (r, g, b)


RED_TINT: Colour = tint(RED, 0.15)


def _mix(a: Colour, b: Colour, k: float) -> Colour:
    r, g, bl = (round(x + (y - x) * k) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """A fixed palette: every colour drawn, and 4 anti-aliasing steps of each ink on each ground
    it is drawn on (255 colours at most).

    Mapping onto a fixed palette takes a few ms, where an adaptive quantizer takes ~60 ms and
    an RGB PNG's filters ~150 ms for a 1080×1900 page.
    """
    inks = [INK, MUTED, RED, GREEN, *COLORS]
    tints = [tint(c) for c in COLORS]
    colours = [BG, STRIPE, HEAD, INK, MUTED, GRID, RED, GREEN, WHITE, RED_TINT, *COLORS, *tints]
    pairs = [(i, g) for i in inks for g in (BG, STRIPE)] + [(INK, HEAD), (MUTED, HEAD)]
    pairs += [(WHITE, c) for c in COLORS] + [(INK, t) for t in tints] + [(INK, WHITE), (RED, RED_TINT)]
    for ink, ground in pairs:
        colours += [_mix(ground, ink, k / 5) for k in range(1, 5)]
    colours = list(dict.fromkeys(colours))[:256]
    colours += [INK] * (256 - len(colours))
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in colours for v in c])
    return pal


def png(img: Image.Image) -> bytes:
    """PNG of the page mapped onto :func:`palette` (a third of an RGB PNG's bytes, ~10× faster)."""
    buf = io.BytesIO()
    img.quantize(palette=palette(), dither=Image.Dither.NONE).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


__all__ = [
    "BG",
    "COLORS",
    "GREEN",
    "GRID",
    "HEAD",
    "INK",
    "MUTED",
    "RED",
    "RED_TINT",
    "STRIPE",
    "WHITE",
    "palette",
    "png",
    "tint",
]
