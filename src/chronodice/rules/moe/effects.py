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
from .expr import evaluate
from .ops import Ask_
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


def _half(x: int) -> int:
    """4.16: half rounds down."""
    return x // 2


def _diff(a: int, b: int) -> int:
    """4.11: absolute difference."""
    return abs(a - b)


class EffectsMixin:
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

    # ================================================================== most / least (4.13, 4.14)
    def most(self: Game, what: str, *, least: bool = False) -> list[int]:
        """Seats tied for the most (least) of ``what``; for *things* (hand cards), nobody when
        nobody has any (4.14); for *values* (hp_value) ties all count (4.13)."""
        vals = {s: self._measure(s, what) for s in self.alive_seats()}
        if not vals:
            return []
        if what == "hand" and all(v == 0 for v in vals.values()):
            return []
        best = min(vals.values()) if least else max(vals.values())
        if what == "hand" and least and best == 0:
            pass
        return [s for s, v in vals.items() if v == best]

    def _measure(self: Game, seat: int, what: str) -> int:
        if what == "hand":
            return len(self.hand(seat))
        if what == "hp_value":
            return self.p(seat).hp_value
        if what == "faith":
            return self.p(seat).faith
        raise ValueError(what)

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
        if ignore_distance:
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
        self.emit("play", who=seat, card=cid)
        yield from self.move([cid], "processing", reason="play", by=seat)
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

    # ================================================================== effect interpreter
    def run_effects(self: Game, ctx: Ctx, effects: list[dict[str, Any]]) -> Gen:
        for eff in effects:
            if ctx.vars.get("_stop"):
                return
            ((op, arg),) = eff.items()
            yield from getattr(self, f"_e_{op}")(ctx, arg if arg is not None else {})

    def _n(self: Game, ctx: Ctx, arg: dict[str, Any], default: int = 1) -> int:
        return int(self.eval(ctx, arg.get("n", default)))

    def _e_draw(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            yield from self.draw(seat, self._n(ctx, arg))

    def _e_fill_hand(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            yield from self.fill_hand(seat, self._n(ctx, arg))

    def _e_discard_own(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """A令B弃置: B chooses which (8.8).  ``var`` records how many were discarded."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        zones = arg.get("zones", ["hand"])
        pool = [c for z in zones for c in self.zone(f"{z}:{seat}")]
        chosen = yield from self.choose_own(seat, pool, self._n(ctx, arg), "discard")
        yield from self.discard(seat, chosen, by=seat)
        ctx.vars[arg.get("var", "discarded")] = len(chosen)

    def _e_discard_seq(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """5.9 依次: one discard event per card."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        for _ in range(self._n(ctx, arg)):
            chosen = yield from self.choose_own(seat, list(self.hand(seat)), 1, "discard")
            if not chosen:
                break
            yield from self.discard(seat, chosen, by=seat)

    def _e_discard_all(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        done = yield from self.discard_all(seat, tuple(arg.get("zones", ["hand"])))
        ctx.vars[arg.get("var", "discarded")] = len(done)

    def _e_discard_other(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """A弃置B的牌: A chooses, hand cards blind (3.7); 奥秘 only when the effect says so (3.10)."""
        actor, owner = self.who(ctx, arg.get("who")), self.who(ctx, arg.get("of"), "target")
        if actor is None or owner is None or not self.p(owner).alive:
            return
        picked = yield from self.blind_pick(
            actor, owner, self._n(ctx, arg), tuple(arg.get("zones", ["hand", "equip"])), "discard_other"
        )
        yield from self.discard(owner, picked, by=actor)

    def _e_obtain_from(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        actor, owner = self.who(ctx, arg.get("who")), self.who(ctx, arg.get("of"), "target")
        if actor is None or owner is None or not self.p(owner).alive:
            return
        picked = yield from self.blind_pick(
            actor, owner, self._n(ctx, arg), tuple(arg.get("zones", ["hand", "equip"])), "obtain"
        )
        yield from self.obtain(actor, picked)

    def _e_give(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """8.12 with distribution: up to ``max`` hand cards to other characters, each ≥ 1."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        hand = [c for c in self.hand(seat) if c not in self.locked_cards()]
        others = [s for s in self.action_order(seat) if s != seat]
        hi = min(int(arg.get("max", 1)), len(hand))
        if hi < 1 or not others:
            return
        ans = yield Ask_(
            "distribute",
            seat,
            "give",
            options=hand,
            lo=int(arg.get("min", 1)),
            hi=hi,
            optional=True,
            info={"to": others},
        )
        if ans:
            yield from self.give(seat, ans)

    def _e_damage(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        victim = self.who(ctx, arg.get("to"), "target")
        src = arg.get("from", "me")
        source = None if src is None or src == "none" else self.who(ctx, src)
        if victim is None:
            return
        attr = arg.get("attribute")
        if attr is None and ctx.card is not None:
            attr = ctx.card.attribute or self.cdef(ctx.card.key).attribute
        channel = ctx.card.key if ctx.card is not None else (ctx.skill.key if ctx.skill else None)
        yield from self.damage(source, victim, self._n(ctx, arg), attribute=attr, channel=channel)

    def _e_lose_hp(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            yield from self.lose_hp(seat, self._n(ctx, arg))

    def _e_recover(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"), "target" if ctx.target is not None else "me")
        if seat is not None:
            yield from self.recover(seat, self._n(ctx, arg))

    def _e_recover_to(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            yield from self.recover_to(seat, self._n(ctx, arg))

    def _e_change_max_hp(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            yield from self.change_max_hp(seat, self._n(ctx, arg))

    def _e_gain_faith(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            self.gain_faith(seat, self._n(ctx, arg))
        return
        yield

    def _e_pay_faith(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            self.pay_faith(seat, self._n(ctx, arg))
        return
        yield

    def _e_pindian(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        a, b = self.who(ctx, arg.get("who")), self.who(ctx, arg.get("with"), "target")
        if a is None or b is None or not self.hand(a) or not self.hand(b):
            return
        winner, loser = yield from self.pindian(a, b)
        ctx.vars["winner"], ctx.vars["loser"] = winner, loser
        yield from self.run_effects(ctx, list(arg.get("win" if winner is not None else "tie", [])))

    def _e_exchange(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        a, b = self.who(ctx, arg.get("a")), self.who(ctx, arg.get("b"), "target")
        if a is not None and b is not None:
            yield from self.exchange(a, b, arg.get("zone", "hand"))

    def _e_judge(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        cid = yield from self.judge(seat)
        ctx.vars["judge_card"] = cid
        branch = "red" if self.card(cid).colour == "red" else "black"
        yield from self.run_effects(ctx, list(arg.get(branch, [])))

    def _e_arrange_top(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """Look at the top n deck cards (8.18) and put them back in any order."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        top = self.take_top(self._n(ctx, arg, 3))
        self.view(seat, top)
        if len(top) < 2:
            return
        order = yield Ask_("arrange", seat, "arrange", options=list(top), lo=len(top), hi=len(top))
        deck = self.zone("deck")
        del deck[: len(top)]
        deck[0:0] = list(order)

    def _e_cancel_target(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if "cancelled" in ctx.data and seat is not None and seat not in ctx.data["cancelled"]:
            ctx.data["cancelled"].append(seat)
            self.emit("cancel_target", who=seat)
        return
        yield

    def _e_change_user(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """5.17: the card now counts as used by another character; both have used it."""
        new = self.who(ctx, arg.get("to"))
        if new is None or "user" not in ctx.data:
            return
        for f in reversed(self.stack):
            if f.kind == "use" and f.data is ctx.data:
                f.owner = new
                break
        ctx.data.setdefault("users", [ctx.data["user"]])
        if new not in ctx.data["users"]:
            ctx.data["users"].append(new)
        ctx.data["user"] = new
        self.emit("change_user", who=new)
        return
        yield

    def _e_offset(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"), "target")
        if "offset" in ctx.data and seat is not None:
            ctx.data["offset"].append(seat)
        return
        yield

    def _e_nullify(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"), "target")
        if "nullified" in ctx.data and seat is not None:
            ctx.data["nullified"].append(seat)
        return
        yield

    def _e_prevent_damage(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        ctx.data["prevented"] = True
        return
        yield

    def _e_transfer_damage(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """5.8(2): prevent this damage; after its settlement ends the new victim takes the same."""
        to = self.who(ctx, arg.get("to"))
        if to is None:
            return
        ctx.data["orig_n"] = ctx.data["n"]
        ctx.data["prevented"] = True
        ctx.data["transfer_to"] = to
        self.emit("transfer", victim=ctx.data["victim"], to=to)
        return
        yield

    def _e_modify(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        field = arg["field"]
        ctx.data[field] = ctx.data.get(field, 0) + int(self.eval(ctx, arg.get("add", 0)))
        return
        yield

    def _e_ignore_armour(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        for f in reversed(self.stack):
            if f.kind == "use" and f.owner == ctx.me:
                f.ignore_armour.extend(t for t in f.data["targets"] if t not in f.ignore_armour)
                break
        return
        yield

    def _e_skip_phases(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        ok = self.skip_phases(list(arg["phases"]))
        ctx.vars["skipped"] = ok
        return
        yield

    def _e_skip_turn(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            self.skip_turn(seat)
        return
        yield

    def _e_extra_turn(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            self.grant_extra_turn(seat)
        return
        yield

    def _e_extra_phase(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        yield from self.extra_phase(arg["phase"])

    def _e_choose_player(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        flt = arg.get("filter", "True")
        legal = [t for t in self.action_order() if self.eval(ctx, flt, t=t)]
        var = arg.get("var", "chosen")
        if not legal:
            ctx.vars[var] = None
            if not arg.get("optional"):
                ctx.vars["_stop"] = True
            return
        ans = yield Ask_(
            "choose_players",
            seat,
            arg.get("reason", "choose_player"),
            options=legal,
            lo=1,
            hi=1,
            optional=bool(arg.get("optional")),
        )
        ctx.vars[var] = ans[0] if ans else None
        if not ans and not arg.get("optional"):
            ctx.vars["_stop"] = True

    def option_feasible(self: Game, ctx: Ctx, opt: dict[str, Any]) -> bool:
        return bool(self.eval(ctx, opt.get("feasible", "True")))

    def _e_choose_option(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """5.25: options whose effects are all impossible are not offered."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        opts = [o for o in arg["options"] if self.option_feasible(ctx, o)]
        if not opts:
            return
        if len(opts) == 1:
            idx = 0
        else:
            idx = yield Ask_("choose_option", seat, "option", options=[o["label"] for o in opts])
        ctx.vars["option"] = opts[idx]["label"]
        yield from self.run_effects(ctx, list(opts[idx].get("effect", [])))

    def _e_if(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        branch = "then" if self.eval(ctx, arg["cond"]) else "else"
        yield from self.run_effects(ctx, list(arg.get(branch, [])))

    def _e_set(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        for k, v in arg.items():
            ctx.vars[k] = self.eval(ctx, v)
        return
        yield

    def _e_gain_skill(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            self.add_skill(seat, arg["skill"], origin="gained")
        return
        yield

    def _e_lose_skill(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            p = self.p(seat)
            p.skills = [s for s in p.skills if s.key != arg["skill"]]
        return
        yield

    def _e_lose_all_skills(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """5.5: character skills only; equipment skills are not the character's skills."""
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            self.p(seat).skills = []
            self.emit("lose_all_skills", who=seat)
        return
        yield

    def _e_hand_limit(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            self.p(seat).hand_limit_mods.append([arg["op"], self._n(ctx, arg)])
        return
        yield

    def _e_mark(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        if seat is not None:
            p = self.p(seat)
            p.marks[arg["name"]] = max(0, p.marks.get(arg["name"], 0) + self._n(ctx, arg))
            if p.marks[arg["name"]] == 0:
                del p.marks[arg["name"]]
        return
        yield

    def _e_respond_as(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """视为使用 the needed response card (8.11.1): a virtual card, nothing moves."""
        ctx.data["done"] = True
        self.emit("as_if", who=ctx.me, card=ctx.data["names"][0])
        return
        yield

    def _e_python(self: Game, ctx: Ctx, arg: Any) -> Gen:
        from .packs import hooks

        name = arg if isinstance(arg, str) else arg["name"]
        fn = getattr(hooks, name)
        yield from fn(self, ctx)

    def add_skill(self: Game, seat: int, key: str, *, origin: str = "character") -> SkillInst:
        inst = SkillInst(uid=self.state.next_uid, key=key, origin=origin)
        self.state.next_uid += 1
        self.p(seat).skills.append(inst)
        return inst
