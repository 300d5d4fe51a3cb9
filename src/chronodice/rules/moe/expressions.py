"""Expressions of pack effects: the names and functions an expression sees, character
references (``who: target``); most/least (4.13, 4.14) are in :mod:`.primitives_cards`.

The function table is built once per game; :data:`.packcheck.FUNCTIONS` lists the same names
with their number of arguments (a test checks the two agree).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Ctx
from .cards import VirtualCard
from .expr import evaluate

if TYPE_CHECKING:
    from .engine import Game


def _half(x: int) -> int:
    """4.16: half rounds down."""
    return x // 2


def _diff(a: int, b: int) -> int:
    """4.11: absolute difference."""
    return abs(a - b)


class ExpressionsMixin:
    """Expression scope and character references (mixed into :class:`~.engine.Game`)."""

    # ================================================================== expressions
    def _functions(self: Game) -> dict[str, Any]:
        """The expression functions, built once per game."""
        fns = self.__dict__.get("_fns")
        if fns is not None:
            return fns
        g = self

        def kw(key: str | None, word: str) -> bool:
            return key is not None and (key == word or word in g.cdef(key).keywords)

        fns = {
            "hp": lambda s: g.p(s).hp,
            "hp_value": lambda s: g.p(s).hp_value,
            "max_hp": lambda s: g.p(s).max_hp,
            "lost_hp": lambda s: g.p(s).lost_hp,
            "faith": lambda s: g.p(s).faith,
            "max_faith": lambda s: g.p(s).max_faith,
            "hand_count": lambda s: len(g.hand(s)),
            "owned_count": lambda s: len(g.owned(s)),
            "secret_count": lambda s: len(g.secrets(s)),
            "hand_limit": lambda s: g.hand_limit(s),
            "distance": lambda a, b: g.distance(a, b),
            "in_range": lambda a, b: g.in_range(a, b),
            "injured": lambda s: g.p(s).injured,
            "alive": lambda s: s is not None and g.p(s).alive,
            "talent": lambda s, k: g.talent(s, k),
            "damaged_this_round": lambda s: g.p(s).damaged_round == g.state.round,
            "alive_count": lambda: g.alive_count(),
            "player_count": lambda: len(g.state.players),
            "gender": lambda s: g.p(s).gender,
            "half": _half,
            "diff": _diff,
            "keyword": kw,
            "has_secret": lambda s, key: any(g.card(c).key == key for c in g.secrets(s)),
        }
        fns.update(self.card_functions())  # most, least, pile_count (.primitives_cards)
        self.__dict__["_fns"] = fns
        return fns

    def scope(self: Game, ctx: Ctx, **extra: Any) -> dict[str, Any]:
        """Names an expression sees: the context's characters and data, plus the functions."""
        data = ctx.data
        card = ctx.card if ctx.card is not None else data.get("card")
        scope = dict(self._functions())
        scope.update(
            me=ctx.me,
            target=ctx.target,
            about=data.get("_about"),
            source=data.get("source"),
            victim=data.get("victim"),
            user=data.get("user"),
            attribute=data.get("attribute"),
            n=data.get("n", 0),
            names=data.get("names", []),
            card=card.key if isinstance(card, VirtualCard) else None,
            card_colour=card.colour if isinstance(card, VirtualCard) else None,
            phase=self.state.turn.phase,
            current=self.state.turn.seat,
            round=self.state.round,
        )
        scope.update(ctx.vars)
        scope.update(extra)
        return scope

    def eval(self: Game, ctx: Ctx, text: Any, **extra: Any) -> Any:
        return evaluate(text, self.scope(ctx, **extra))

    def who(self: Game, ctx: Ctx, spec: Any, default: str = "me") -> int | None:
        spec = default if spec is None else spec
        if isinstance(spec, int):
            return spec
        if spec == "me":
            return ctx.me
        if spec == "target":
            return ctx.target
        if spec in ("source", "victim", "user", "killer"):
            return ctx.data.get(spec)
        if spec == "current":
            return self.state.turn.seat
        if spec in ctx.vars:
            return ctx.vars[spec]
        raise ValueError(f"unknown character reference {spec!r}")
