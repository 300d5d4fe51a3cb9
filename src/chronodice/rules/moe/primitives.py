"""The interpreter of pack effect primitives (glossary operations as YAML): each
``{name: arguments}`` of an effect list runs ``_e_<name>``, a settlement generator.

The primitives for zones and card faces (cards on a character, 打出, 置入, 移出游戏, 代替,
替换, 观看, 展示, 亮出…) are in :mod:`.primitives_cards`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Ctx, Gen
from .ops import Ask_
from .state import SkillInst

if TYPE_CHECKING:
    from .engine import Game


class PrimitivesMixin:
    """Effect primitives (mixed into :class:`~.engine.Game`)."""

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
        """A令B弃置: B chooses which (8.8); ``any: true``: any number, none included (5.7).
        ``var`` records how many were discarded."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        zones = arg.get("zones", ["hand"])
        pool = [c for z in zones for c in self.zone(f"{z}:{seat}")]
        if arg.get("any"):
            chosen = yield from self.choose_own(seat, pool, 1, "discard", optional=True, hi=len(pool))
        else:
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
