"""A scripted RNG for the CoC engine and roll tests."""

from __future__ import annotations

import random
from collections.abc import Iterable


class Scripted(random.Random):
    """``randint`` returns the scripted values in order (each checked against its range)."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert a <= value <= b, (a, b, value)
        return value
