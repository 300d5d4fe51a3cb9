"""HP and faith operations (§4, §5.16–5.24), dying and death, as settlement generators.

* Faith (4.2.1): after damage is applied, the source (if alive) and the victim each gain 1,
  capped at the maximum; a prevented damage gives none.  HP loss gives none.
* Dying (濒死, gap §5.1): when HP is 0 or less after a decrease, every living character is asked
  for 恢复 at once (one window, precedence from the current-turn player in 下家 order; each 恢复
  recovers 1; a character who declined is not asked again) while the dying character's HP is
  below 1; then death.  Rewards/penalties come from the map card and apply only when a source
  killed the character (5.16, 5.33).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chronodice.core.errors import IllegalAction

from .base import Frame, GameOver, Gen

if TYPE_CHECKING:
    from .engine import Game


class HpMixin:
    """HP, faith, damage, dying and death (mixed into :class:`~.engine.Game`)."""

    # ------------------------------------------------------------------ HP (4.x, 5.16–5.24)
    def gain_faith(self: Game, seat: int, n: int) -> None:
        p = self.p(seat)
        new = min(p.max_faith, p.faith + n)
        if new != p.faith:
            p.faith = new
            self.emit("faith", who=seat, faith=new)

    def pay_faith(self: Game, seat: int, n: int) -> None:
        p = self.p(seat)
        if p.faith < n:
            raise IllegalAction("信仰值不足")
        p.faith -= n
        self.emit("faith", who=seat, faith=p.faith)

    def damage(
        self: Game,
        source: int | None,
        victim: int,
        n: int,
        *,
        attribute: str | None = None,
        channel: Any = None,
    ) -> Gen:
        """A damage settlement (4.7, 5.16–5.20).  Returns the damage actually dealt (0 if prevented)."""
        if not self.p(victim).alive:
            return 0
        if source is not None and not self.p(source).alive:
            source = None
        parent = next((f for f in reversed(self.stack) if f.kind in ("use", "skill", "damage")), None)
        ignore = list(parent.ignore_armour) if parent is not None and parent.owner == source else []
        data: dict[str, Any] = {
            "source": source,
            "victim": victim,
            "n": n,
            "attribute": attribute,
            "channel": channel,
            "prevented": False,
            "transfer_to": None,
        }
        frame = self.push(Frame("damage", source, data, ignore_armour=ignore))
        try:
            if source is not None:
                yield from self.fire("damage.caused", source, data)
            if not data["prevented"]:
                yield from self.fire("damage.inflicted", victim, data)
            if (
                not data["prevented"]
                and self.prevents_attribute(victim, attribute)
                and not self.armour_ignored(victim)
            ):
                data["prevented"] = True
                self.emit("prevented", who=victim, attribute=attribute)
            if data["prevented"] or data["n"] < 1:
                yield from self.fire("damage.finished", victim, data)
                dealt = 0
            else:
                dealt = yield from self._apply_damage(frame, data)
        finally:
            self.pop(frame)
        to = data["transfer_to"]
        if to is not None:
            # 5.8(2): after the original settlement ends, the new victim takes the same damage
            yield from self.damage(data["source"], to, data["orig_n"], attribute=attribute, channel=channel)
        return dealt

    def _apply_damage(self: Game, frame: Frame, data: dict[str, Any]) -> Gen:
        victim, source, n = data["victim"], data["source"], data["n"]
        p = self.p(victim)
        p.hp -= n
        p.damaged_round = self.state.round
        self.emit("damage", source=source, victim=victim, n=n, attribute=data["attribute"], hp=p.hp)
        if source is not None:
            self.gain_faith(source, 1)
        self.gain_faith(victim, 1)
        if p.hp <= 0:
            yield from self.dying(victim, source)
        if source is not None and self.p(source).alive:
            yield from self.fire("damage.after_dealt", source, data)
        if self.p(victim).alive:
            yield from self.fire("damage.after_received", victim, data)
        yield from self.fire("damage.finished", victim, data)
        return n

    def lose_hp(self: Game, seat: int, n: int) -> Gen:
        """5.16: no source, no damage timings, no faith, no reward/penalty."""
        p = self.p(seat)
        if n <= 0 or not p.alive:
            return 0
        p.hp -= n
        self.emit("lose_hp", who=seat, n=n, hp=p.hp)
        yield from self.fire("hp.lost", seat, {"n": n})
        if p.hp <= 0:
            yield from self.dying(seat, None)
        return n

    def recover(self: Game, seat: int, n: int) -> Gen:
        """5.24: an uninjured character cannot recover (no timing); never above max HP."""
        p = self.p(seat)
        if n <= 0 or not p.alive or not p.injured:
            return 0
        new = min(p.hp + n, p.max_hp)
        gained = new - p.hp
        p.hp = new
        self.emit("recover", who=seat, n=gained, hp=p.hp)
        yield from self.fire("hp.recovered", seat, {"n": gained})
        return gained

    def recover_to(self: Game, seat: int, y: int) -> Gen:
        """5.24: "回复至Y" with Y above max HP means "回复至 max HP"."""
        p = self.p(seat)
        y = min(y, p.max_hp)
        if p.hp >= y:
            return 0
        return (yield from self.recover(seat, y - p.hp))

    def change_max_hp(self: Game, seat: int, delta: int) -> Gen:
        """4.2: lowering max HP clamps HP to it — not an HP loss; max HP 0 → death without source."""
        p = self.p(seat)
        p.max_hp += delta
        if p.hp > p.max_hp:
            p.hp = p.max_hp
        self.emit("max_hp", who=seat, max_hp=p.max_hp, hp=p.hp)
        yield from self.fire("max_hp.changed", seat, {"delta": delta})
        if p.max_hp <= 0 and p.alive:
            yield from self.die(seat, None)

    def dying(self: Game, seat: int, source: int | None) -> Gen:
        p = self.p(seat)
        self.emit("dying", who=seat, hp=p.hp)
        yield from self.fire("dying.enter", seat, {"source": source})
        rescue = self.pack.rules.rescue_card
        declined: set[int] = set()
        while p.alive and p.hp < 1:
            helpers = [h for h in self.action_order() if h not in declined]
            if not helpers:
                break
            got = yield from self.respond_window(helpers, [rescue], "rescue", {"dying": seat})
            if got is None:
                break
            declined.update(got["passed"])
            yield from self.recover(seat, 1)
        if p.alive and p.hp < 1:
            yield from self.die(seat, source)

    def die(self: Game, seat: int, source: int | None) -> Gen:
        p = self.p(seat)
        p.alive = False
        killer = source if source is not None and source != seat else None
        self.emit("death", who=seat, killer=killer)
        yield from self.fire("death", seat, {"killer": killer})
        cards = [*self.hand(seat), *self.equip(seat), *self.secrets(seat)]
        for z in list(self.state.zones):
            if z.startswith(f"pile:{seat}:"):
                cards.extend(self.state.zones[z])
        if cards:
            yield from self.move(cards, "discard", reason="death", quiet=True)
        if self.check_victory():
            raise GameOver
        if killer is not None and self.p(killer).alive:
            yield from self.reward(killer, seat)
        if self.check_victory():
            raise GameOver
