"""The bundled CJK font (see README.md in this folder): ``font(size)`` for Pillow."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_PATH = Path(__file__).with_name("wqy-microhei-gb2312.ttf")


@lru_cache(maxsize=16)
def font(size: int = 16) -> ImageFont.FreeTypeFont:
    """The bundled CJK font at ``size`` pixels (cached)."""
    return ImageFont.truetype(str(FONT_PATH), size)
