"""Response windows and 奥秘 pauses that look the same to the group whoever holds what.

A spectator must learn nothing from whether, when or for whom the game waits (issue 27), so the
engine never decides to ask by looking at hidden cards:

* **Response windows** (抵消 with 防御, 救援 with 恢复 at 濒死, 反制): every seat that could answer
  at a real table is asked, whether or not it holds a matching card — the target for 抵消, every
  living character except the card's user for 反制 (nobody is asked to counter their own card),
  every living character not yet declined for 救援.  Several seats are asked *at once* in one
  window (:class:`~.base.Ask` with ``seats``): each answers privately (a one-tap ``pass`` when it
  holds nothing), and the first seat in 下家 order from the current-turn player that answers with
  a card wins once every seat before it has passed.  One deadline for the whole window; a timeout
  is a pass for every seat still waiting, whatever it holds.
* **奥秘 pauses**: at a timing some 奥秘 of the pack listens to, every seat with at least one
  face-down 奥秘 (a public count) gets the same pause whenever the public part of *any* pack
  奥秘's condition holds for it — whichever 奥秘 it really has.  Its options are its own
  matching 奥秘 (possibly none).  A seat's pause comes after its visible skills at that timing
  (the order prompt only ever lists public effects), and a flip is followed by another pause
  while it still has face-down 奥秘, so the number of pauses does not count matching 奥秘 either.

A 奥秘's ``secret_condition`` must therefore read public facts only (not ``has_secret``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Ask, Ctx, Gen
from .cards import VirtualCard

if TYPE_CHECKING:
    from .engine import Game


class WindowsMixin:
    """Response windows and 奥秘 pauses (mixed into :class:`~.engine.Game`)."""

    def respond_window(
        self: Game, seats: list[int], names: list[str], reason: str, info: dict[str, Any]
    ) -> Gen:
        """ "需使用" a card named in ``names``, asked of ``seats`` at once.  A visible effect that
        视为 answers (an armour's judgement, a skill) is offered first, seat by seat.  Returns
        ``None`` when nobody answers, else ``{"seat", "card", "passed"}`` (``card`` is
        ``"virtual"`` for a 视为 answer; ``passed``: the seats before it that declined)."""
        for s in seats:
            if not self.p(s).alive:
                continue
            data: dict[str, Any] = {"names": names, "done": False, "reason": reason, **info}
            yield from self.fire("respond.need", s, data)
            if data["done"]:
                return {"seat": s, "card": "virtual", "passed": []}
        live = [s for s in seats if self.p(s).alive]
        if not live:
            return None
        choices = {s: [c for c in self.hand(s) if self.card(c).key in names] for s in live}
        got = yield Ask(
            "respond",
            live[0],
            reason,
            options=list(choices[live[0]]),
            optional=True,
            info=info,
            seats=live,
            choices=choices,
        )
        if got is None:
            return None
        yield from self.use_card(got["seat"], VirtualCard.of(self.card(got["card"])), [], response=True)
        return got

    def ask_respond(self: Game, seat: int, names: list[str], reason: str, info: dict[str, Any]) -> Gen:
        """A window of one seat: the card used, ``"virtual"`` or ``None``."""
        got = yield from self.respond_window([seat], names, reason, info)
        return None if got is None else got["card"]

    # ------------------------------------------------------------------ 奥秘
    def secret_trigger_point(
        self: Game, seat: int, timing: str, about: int | None, data: dict[str, Any]
    ) -> bool:
        """Whether ``seat`` gets a 奥秘 pause: it has a face-down 奥秘 and the condition of some
        pack 奥秘 listening to ``timing`` holds for it (public facts only)."""
        if not self.secrets(seat) or not self.p(seat).alive:
            return False
        ctx = Ctx(me=seat, target=about, data=data)
        return any(
            self.eval(ctx, cd.secret_condition)
            for cd in self.pack.cards.values()
            if cd.secret_timing == timing
        )

    def secret_pause(self: Game, seat: int, timing: str, about: int | None, data: dict[str, Any]) -> Gen:
        """The seat's 奥秘 pause at ``timing`` (see the module text); flips what it chooses."""
        while self.secret_trigger_point(seat, timing, about, data) and not data.get("_stop_timing"):
            mine = [
                cid
                for cid in self.secrets(seat)
                if self.cdef(self.card(cid).key).secret_timing == timing
                and self.eval(
                    Ctx(me=seat, target=about, data=data, source_card=cid),
                    self.cdef(self.card(cid).key).secret_condition,
                )
            ]
            ctx = Ctx(me=seat, target=about, data=data)
            info = {"trigger": self.trigger_info(timing, ctx)}
            got = yield Ask(
                "respond",
                seat,
                "secret",
                options=mine,
                optional=True,
                info=info,
                seats=[seat],
                choices={seat: mine},
            )
            if got is None:
                return
            yield from self.flip_secret(got["card"], timing, Ctx(me=seat, target=about, data=data))
