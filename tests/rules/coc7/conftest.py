"""A scripted RNG for the CoC engine and roll tests (the shared one in tests/helpers)."""

from __future__ import annotations

from helpers import Scripted

__all__ = ["Scripted"]
