"""Fixtures for the dice tests: a scripted RNG that returns given die values in order."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest


class ScriptedRandom(random.Random):
    """A ``random.Random`` whose ``randint(1, faces)`` returns the scripted values in order.

    It checks every call asks for ``randint(1, faces)`` and that the scripted value fits, and
    records the faces asked for, so a test sees exactly which dice were rolled.
    """

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(0)
        self.values = list(values)
        self.faces: list[int] = []

    def randint(self, a: int, b: int) -> int:
        assert a == 1, a
        if not self.values:
            raise AssertionError(f"script exhausted (asked for a d{b})")
        value = self.values.pop(0)
        assert 1 <= value <= b, (value, b)
        self.faces.append(b)
        return value


@pytest.fixture
def scripted() -> Callable[..., ScriptedRandom]:
    """``scripted(6, 5, 3, 1)`` → an RNG rolling those values."""
    return lambda *values: ScriptedRandom(values)
