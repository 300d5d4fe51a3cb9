"""Python hooks for what pack data cannot say (``python: <name>`` in an effect list).

Each hook is a settlement generator ``(game, ctx) -> Gen`` using the engine's operations, and
each ships with a test (tests/rules/moe).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ops import Ask_

if TYPE_CHECKING:
    from ..engine import Ctx, Game, Gen


def retrial_with_hand_card(game: Game, ctx: Ctx) -> Gen:
    """改判 (test pack): replace the judgment card with one of your hand cards (8.24)."""
    hand = list(game.hand(ctx.me))
    if not hand:
        return
    (cid,) = yield Ask_("choose_cards", ctx.me, "retrial", options=hand, lo=1, hi=1)
    yield from game.retrial(ctx.me, ctx.data, cid)
