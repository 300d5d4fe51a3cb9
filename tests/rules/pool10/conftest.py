"""Shared helpers for the pool10 engine tests: a scripted d10."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest


class ScriptedRandom(random.Random):
    """A ``random.Random`` whose ``randint`` returns scripted faces, in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 10), (a, b)
        if self.calls >= len(self.faces):
            raise AssertionError(f"script exhausted after {self.calls} dice")
        face = self.faces[self.calls]
        self.calls += 1
        return face


@pytest.fixture
def scripted() -> type[ScriptedRandom]:
    return ScriptedRandom
