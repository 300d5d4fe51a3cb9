"""Timings, triggered skills, card and skill use, and the interpreter of pack effect primitives.

A timing (7.4) is fired with :meth:`EffectsMixin.fire`: for every living seat from the
current-turn player in 下家 order, the seat's candidate handlers (character skills, equipment
skills) are collected; with several, the seat chooses the order; passive (5.1) and awakening
(5.3) skills resolve without a prompt, 可 skills ask first; then the seat's 奥秘 pause (3.9), the
same whichever 奥秘 it holds (:mod:`.windows`).  Each resolution is a
settlement pushed on the stack, so anything it does is nested inside the firing settlement.

1.3.2: while a weapon's skill is used, or its attack range is (a use with a target at distance
above 1), the weapon is locked on that frame: no operation inside the settlement may pick it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chronodice.core.errors import IllegalAction

from .base import Ctx, Frame, Gen
from .cards import VirtualCard
from .expressions import ExpressionsMixin
from .ops import Ask_
from .primitives import PrimitivesMixin
from .primitives_cards import CARD_ARGS, CardPrimitivesMixin
from .state import ALL, PHASES, SkillInst

if TYPE_CHECKING:
    from .engine import Game

PRIMITIVES: tuple[str, ...] = (
    "draw",
    "fill_hand",
    "discard_own",
    "discard_seq",
    "discard_all",
    "discard_other",
    "obtain_from",
    "give",
    "damage",
    "lose_hp",
    "recover",
    "recover_to",
    "change_max_hp",
    "gain_faith",
    "pay_faith",
    "pindian",
    "exchange",
    "judge",
    "arrange_top",
    "cancel_target",
    "change_user",
    "offset",
    "nullify",
    "prevent_damage",
    "transfer_damage",
    "modify",
    "ignore_armour",
    "skip_phases",
    "skip_turn",
    "extra_turn",
    "extra_phase",
    "choose_player",
    "choose_option",
    "if",
    "gain_skill",
    "lose_skill",
    "lose_all_skills",
    "hand_limit",
    "mark",
    "respond_as",
    "set",
    "python",
    *CARD_ARGS,
)
"""Effect primitive names (glossary operations); see the ``_e_<name>`` methods."""


def nested_effects(op: str, arg: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    """Sub-effect lists of one primitive (for validation)."""
    if not isinstance(arg, dict):
        return []
    out = [
        (k, arg[k]) for k in ("then", "else", "win", "tie", "red", "black") if isinstance(arg.get(k), list)
    ]
    if op == "choose_option":
        for i, opt in enumerate(arg.get("options", [])):
            out.append((f"options[{i}]", opt.get("effect", [])))
    return out


class EffectsMixin(ExpressionsMixin, PrimitivesMixin, CardPrimitivesMixin):
    """Timings, skills and card use (mixed into :class:`~.engine.Game`)."""

    # ================================================================== timings
    def fire(self: Game, timing: str, about: int | None, data: dict[str, Any] | None = None) -> Gen:
        """Fire ``timing`` about seat ``about`` (7.4).  Handlers may mutate ``data``."""
        data = data if data is not None else {}
        data["_about"] = about
        self.trace.append((timing, about, len(self.stack)))
        if self.state.winners is not None or timing not in self.timings_used:
            return
        for seat in self.action_order():
            done: list[str] = []
            while True:
                if not self.p(seat).alive:
                    break
                cands = [h for h in self.handlers(seat, timing, about, data) if h[0] not in done]
                if not cands:
                    break
                if len(cands) == 1:
                    h = cands[0]
                else:
                    idx = yield Ask_(
                        "order", seat, "order", options=[h[1] for h in cands], info={"timing": timing}
                    )
                    h = cands[idx]
                done.append(h[0])
                ctx = Ctx(me=seat, target=about, data=data)
                yield from h[2](ctx)
                if data.get("_stop_timing"):
                    return
            yield from self.secret_pause(seat, timing, about, data)
            if data.get("_stop_timing"):
                return

    def handlers(
        self: Game, seat: int, timing: str, about: int | None, data: dict[str, Any]
    ) -> list[tuple[str, str, Callable[[Ctx], Gen]]]:
        """Visible candidates of ``seat`` at ``timing`` (skills, equipment): (key, display key,
        runner).  奥秘 are not among them: they get the uniform pause of :mod:`.windows`."""
        out: list[tuple[str, str, Callable[[Ctx], Gen]]] = []
        for inst in self.skill_insts(seat):
            sd = self.sdef(inst.key)
            if sd.timing != timing or not self._watch_ok(sd.watch, seat, about):
                continue
            ctx = Ctx(me=seat, target=about, data=data, skill=inst)
            if not self.skill_available(seat, inst, ctx):
                continue
            out.append((f"s{inst.uid}", inst.key, self._skill_runner(inst, timing)))
        for cid in self.equip(seat):
            for key in self.cdef(self.card(cid).key).skills:
                sd = self.sdef(key)
                if sd.timing != timing or not self._watch_ok(sd.watch, seat, about):
                    continue
                if self.equipment_invalid(seat, cid):
                    continue
                ctx = Ctx(me=seat, target=about, data=data, source_card=cid)
                if not self.eval(ctx, sd.condition):
                    continue
                out.append((f"e{cid}:{key}", key, self._equip_runner(cid, key, timing)))
        return out

    @staticmethod
    def _watch_ok(watch: str, seat: int, about: int | None) -> bool:
        if watch == "any":
            return True
        if watch == "others":
            return about is not None and about != seat
        return about == seat

    def skill_available(self: Game, seat: int, inst: SkillInst, ctx: Ctx) -> bool:
        sd = self.sdef(inst.key)
        if sd.kind in ("limited", "awakening") and inst.used_game >= 1:
            return False
        self._refresh_counters(inst)
        if sd.per_turn is not None and inst.used_turn >= sd.per_turn:
            return False
        if sd.per_phase is not None and inst.used_phase >= sd.per_phase:
            return False
        if sd.per_round is not None and inst.used_round >= sd.per_round:
            return False
        if sd.faith_cost > self.p(seat).faith:
            return False
        return bool(self.eval(ctx, sd.condition))

    def _refresh_counters(self: Game, inst: SkillInst) -> None:
        st = self.state
        if inst.turn_stamp != st.turn_no:
            inst.turn_stamp, inst.used_turn = st.turn_no, 0
        stamp = st.turn_no * 10 + (PHASES.index(st.turn.phase) if st.turn.phase else 9)
        if inst.phase_stamp != stamp:
            inst.phase_stamp, inst.used_phase = stamp, 0
        if inst.round_stamp != st.round:
            inst.round_stamp, inst.used_round = st.round, 0

    def mark_used(self: Game, inst: SkillInst) -> None:
        self._refresh_counters(inst)
        inst.used_game += 1
        inst.used_turn += 1
        inst.used_phase += 1
        inst.used_round += 1

    def trigger_info(self: Game, timing: str, ctx: Ctx) -> dict[str, Any]:
        """What triggered an optional effect, for the "是否发动" prompt: the timing, whom it is
        about and the settlement's characters, card and number (JSON data).  A card whose face
        the asked seat may not know (a 奥秘 being placed face down) is left out."""
        d = ctx.data
        info: dict[str, Any] = {"timing": timing, "about": ctx.target}
        for k in ("source", "victim", "user", "n", "attribute", "who"):
            v = d.get(k)
            if isinstance(v, (int, str)) and not isinstance(v, bool):
                info[k] = v
        card = d.get("card")
        if isinstance(card, VirtualCard) and all(self.is_known_to(c, ctx.me) for c in card.subcards):
            info["card"] = card.key
        names = d.get("names")
        if isinstance(names, list):
            info["names"] = [str(x) for x in names]
        return info

    def _skill_runner(self: Game, inst: SkillInst, timing: str) -> Callable[[Ctx], Gen]:
        def run(ctx: Ctx) -> Gen:
            sd = self.sdef(inst.key)
            optional = sd.kind in ("trigger", "limited", "faith")
            if optional:
                info = {"skill": inst.key, "trigger": self.trigger_info(timing, ctx)}
                ok = yield Ask_("invoke", ctx.me, "invoke", info=info)
                if not ok:
                    return
            ctx.skill = inst
            yield from self.run_skill(ctx.me, inst, ctx)

        return run

    def _equip_runner(self: Game, cid: int, key: str, timing: str) -> Callable[[Ctx], Gen]:
        def run(ctx: Ctx) -> Gen:
            sd = self.sdef(key)
            if sd.kind == "trigger":
                info = {"skill": key, "card": cid, "trigger": self.trigger_info(timing, ctx)}
                ok = yield Ask_("invoke", ctx.me, "invoke", info=info)
                if not ok:
                    return
            frame = self.push(Frame("skill", ctx.me, {"skill": key}, locked=[cid]))
            try:
                self.emit("skill", who=ctx.me, skill=key)
                yield from self.run_effects(ctx, list(sd.effect))
            finally:
                self.pop(frame)

        return run

    def flip_secret(self: Game, cid: int, timing: str, ctx: Ctx) -> Gen:
        """3.9: flip the 奥秘 face up, then its effect; it then goes to the discard pile."""
        self.set_known(cid, [ALL])
        self.emit("secret_flip", who=ctx.me, card=cid)
        yield from self.move([cid], "processing", reason="secret", by=ctx.me)
        ctx.card = VirtualCard.of(self.card(cid))
        ctx.source_card = cid
        yield from self.run_effects(ctx, list(self.cdef(self.card(cid).key).effect))
        if cid in self.zone("processing"):
            yield from self.move([cid], "discard", reason="secret", quiet=True)

    def run_skill(
        self: Game, seat: int, inst: SkillInst, ctx: Ctx, cost_cards: list[int] | None = None
    ) -> Gen:
        """Use a skill: count it, pay its faith and costs, then its effect, as one settlement."""
        sd = self.sdef(inst.key)
        frame = self.push(Frame("skill", seat, {"skill": inst.key}))
        try:
            self.mark_used(inst)
            if sd.faith_cost:
                self.pay_faith(seat, sd.faith_cost)
            self.emit("skill", who=seat, skill=inst.key, target=ctx.target if sd.timing is None else None)
            if cost_cards:
                yield from self.discard(seat, cost_cards, by=seat, reason="cost")
            yield from self.run_effects(ctx, list(sd.cost))
            yield from self.fire("skill.used", seat, {"skill": inst.key})
            yield from self.run_effects(ctx, list(sd.effect))
        finally:
            self.pop(frame)

    # ================================================================== card use (8.2)
    def card_targets(
        self: Game, user: int, key: str, *, ignore_distance: bool = False
    ) -> tuple[str, list[int]]:
        """Legal targets of ``user`` using a ``key`` card: (mode, seats)."""
        cd = self.cdef(key)
        extra: dict[str, Any] = {}
        if ignore_distance or self.modifier_total(user, "ignore_distance") > 0:  # 7.6
            extra = {"in_range": lambda a, b: a != b, "distance": lambda a, b: 0 if a == b else 1}
        ctx = Ctx(me=user, card=VirtualCard(key=key))

        def ok(t: int) -> bool:
            return bool(self.eval(ctx, cd.target_filter, t=t, **extra))

        seats = self.alive_seats()
        if cd.category == "equipment" or cd.action_kind == "secret" or cd.targets == "self":
            return "self", [user] if ok(user) else []
        if cd.targets == "none":
            return "none", []
        if cd.targets == "one":
            return "one", [t for t in seats if ok(t)]
        if cd.targets == "all_others":
            return "all", [t for t in self.action_order(user) if t != user and ok(t)]
        if cd.targets == "all_injured":
            return "all", [t for t in self.action_order(user) if self.p(t).injured and ok(t)]
        return "all", [t for t in self.action_order(user) if ok(t)]

    def can_use_card(self: Game, user: int, key: str) -> bool:
        cd = self.cdef(key)
        if not cd.use_in_play:
            return False
        if not self.eval(Ctx(me=user, card=VirtualCard(key=key)), cd.can_use):
            return False
        if cd.per_turn is not None and self.state.turn.attacks >= cd.per_turn:
            return False
        if cd.action_kind == "secret" and any(self.card(c).key == key for c in self.secrets(user)):
            return False  # 3.5: at most one 奥秘 of a name
        mode, targets = self.card_targets(user, key)
        if mode in ("one", "self", "all") and not targets:
            return False
        return True

    def use_card(
        self: Game, user: int, vcard: VirtualCard, targets: list[int], *, response: bool = False
    ) -> Gen:
        """The use procedure (8.2, 7.5–7.8): declare, choose targets, per-target settlement, finish."""
        cd = self.cdef(vcard.key)
        data: dict[str, Any] = {
            "user": user,
            "card": vcard,
            "targets": list(targets),
            "cancelled": [],
            "offset": [],
            "nullified": [],
            "response": response,
        }
        frame = self.push(Frame("use", user, data))
        weapon = self.weapon(user)
        if weapon is not None and not response and any(self.distance(user, t) > 1 for t in targets):
            frame.locked.append(weapon)  # 1.3.2: its attack range is being used
        hidden = cd.action_kind == "secret"
        try:
            if vcard.subcards:
                # 3.9: a 奥秘 is used face down: the group learns only that one was placed
                yield from self.move(
                    list(vcard.subcards), "processing", reason="use", by=user, quiet=True, face_down=hidden
                )
            if not hidden:
                self.emit("use", user=user, card=vcard.to_dict(), targets=list(targets), response=response)
            if cd.per_turn is not None and not response:
                self.state.turn.attacks += 1
            yield from self.fire("use.declared", user, data)
            for t in list(data["targets"]):
                yield from self.fire("use.become_target", t, data)
            live = [t for t in data["targets"] if t not in data["cancelled"]]
            if cd.category == "equipment":
                yield from self._equip_by_use(user, vcard)
            elif cd.action_kind == "secret":
                yield from self.move(
                    list(vcard.subcards), f"secret:{user}", reason="secret", by=user, face_down=True
                )
            elif not response:
                bonus = yield from self._talent_bonus(user, cd)
                if cd.targets == "none":
                    yield from self.run_effects(
                        Ctx(me=user, card=vcard, data=data), self._effect_list(cd, bonus)
                    )
                elif data["targets"] and not live:
                    self.emit("use_void", user=user)
                else:
                    for t in live:
                        yield from self._effect_on(frame, t, bonus)
            yield from self.fire("use.finished", user, data)
        finally:
            self.pop(frame)
        left = [c for c in vcard.subcards if c in self.zone("processing")]
        if left:
            yield from self.move(left, "discard", reason="use", quiet=True)

    @staticmethod
    def _effect_list(cd: Any, bonus: bool) -> list[dict[str, Any]]:
        return list(cd.bonus) if bonus and cd.bonus else list(cd.effect)

    def _talent_bonus(self: Game, user: int, cd: Any) -> Gen:
        """2.5: bonus when the talent meets the need; otherwise the shortfall may be paid in faith."""
        if cd.talent is None:
            return False
        have = self.talent(user, cd.talent.kind)
        short = cd.talent.need - have
        if short <= 0:
            return True
        if self.p(user).faith < short:
            return False
        ok = yield Ask_("invoke", user, "talent", info={"kind": cd.talent.kind, "pay": short})
        if ok:
            self.pay_faith(user, short)
        return bool(ok)

    def _effect_on(self: Game, frame: Frame, t: int, bonus: bool) -> Gen:
        data = frame.data
        vcard: VirtualCard = data["card"]
        cd = self.cdef(vcard.key)
        if t in data["cancelled"] or not self.p(t).alive:
            return
        data["current"] = t
        yield from self.fire("use.before_effect", t, data)
        if t in data["nullified"] or t in data["cancelled"]:
            return  # 7.5 无效
        if cd.nullifiable:  # every living character but the user, holding a 反制 or not
            got = yield from self.respond_window(
                [s for s in self.action_order() if s != data["user"]],
                [self.pack.rules.nullify_card],
                "nullify",
                {"user": data["user"], "card": vcard.key, "target": t},
            )
            if got is not None:
                data["offset"].append(t)
                yield from self.fire("use.offset", t, data)
                return
        if cd.offset_by:
            used = yield from self.ask_respond(
                t, list(cd.offset_by), "offset", {"user": data["user"], "card": vcard.key}
            )
            if used is not None:
                data["offset"].append(t)  # 7.7
                yield from self.fire("use.offset", t, data)
                return
        if t in data["offset"]:
            return
        yield from self.fire("use.effect", t, data)
        yield from self.run_effects(
            Ctx(me=data["user"], target=t, card=vcard, data=data), self._effect_list(cd, bonus)
        )

    def _equip_by_use(self: Game, user: int, vcard: VirtualCard) -> Gen:
        (cid,) = vcard.subcards
        slot = self.cdef(vcard.key).slot
        old = self.weapon(user) if slot == "weapon" else self.armour(user)
        yield from self.move([cid], f"equip:{user}", reason="equip", by=user)
        if old is not None:
            yield from self.discard(user, [old], by=user, reason="replace_equip")

    def play_card(self: Game, seat: int, cid: int) -> Gen:
        """8.3 打出: declare, processing, discard pile."""
        yield from self.move([cid], "processing", reason="play", by=seat)
        self.emit("play", who=seat, card=cid)  # after the move: its face is public now
        yield from self.fire("play.responded", seat, {"card": cid})
        yield from self.move([cid], "discard", reason="play", quiet=True)

    def transfer_target(self: Game, frame: Frame, old: int, new: int) -> None:
        """5.8(1): change one target; the new one must pass the legality check without distance."""
        data = frame.data
        key = data["card"].key
        _mode, legal = self.card_targets(data["user"], key, ignore_distance=True)
        if new not in legal or new in data["targets"]:
            raise IllegalAction("该角色不是这张牌的合法目标")
        data["targets"][data["targets"].index(old)] = new
