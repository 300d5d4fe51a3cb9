"""CoC 7th sanity: what a ``.sc`` costs and which insanity checks it calls for.

The check itself is :func:`chronodice.rules.coc7.checks.judge` against current 理智 (so the
group's ``.setcoc`` rule decides 大成功/大失败).  Loss: the success side on a success (大成功
included), the failure side on a failure, and the failure side's *maximum* on a 大失败 (rule
book).  The new value never goes below 0.

Insanity (rule book): losing 5 or more in one go calls for an 智力 roll for temporary insanity;
losing a fifth or more of one's sanity within one game day is indefinite insanity.  Our reading
of "one day" ("累计"): losses are added per card since the start of the current *calendar* day
(UTC+8, where the groups play), against the 理智 the card had before the first loss of that day;
the service keeps that running total on the card (``data["coc7"]["san_day"]``).  With no card
(``.sc 1/1d6 60``) only the loss of this roll counts.  Indefinite insanity is announced once, on
the roll that crosses the fifth.

>>> r = sanity_result(60, 6, day_start=60, day_lost_before=6)
>>> r.new_san, r.temporary, r.indefinite
(54, True, True)
>>> sanity_result(60, 4, day_start=60, day_lost_before=0).temporary
False
"""

from __future__ import annotations

from dataclasses import dataclass

from .checks import CheckOutcome, Level


def loss_for(outcome: CheckOutcome, success_loss: int, failure_loss: int, failure_max: int) -> int:
    """Which loss applies: success side, failure side, or the failure side's maximum (大失败)."""
    if outcome.level == Level.FUMBLE:
        return failure_max
    if outcome.level.success:
        return success_loss
    return failure_loss


@dataclass(frozen=True)
class SanityResult:
    old_san: int
    loss: int
    new_san: int
    temporary: bool
    """Lost 5 or more in one go: an 智力 roll decides temporary insanity."""
    indefinite: bool
    """This roll took the day's total to a fifth or more of the day's starting sanity."""
    day_lost: int
    """The day's total loss after this roll."""

    @property
    def zero(self) -> bool:
        return self.new_san <= 0


def sanity_result(san: int, loss: int, *, day_start: int, day_lost_before: int) -> SanityResult:
    """Apply ``loss`` to ``san``; ``day_start``: sanity before the day's first loss."""
    loss = max(0, loss)
    new = max(0, san - loss)
    lost = san - new
    total = day_lost_before + lost
    indefinite = lost > 0 and total * 5 >= day_start and day_lost_before * 5 < day_start
    return SanityResult(
        old_san=san, loss=lost, new_san=new, temporary=lost >= 5, indefinite=indefinite, day_lost=total
    )


__all__ = ["SanityResult", "loss_for", "sanity_result"]
