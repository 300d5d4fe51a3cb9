"""Pack primitives for zones and card faces: cards on a character (3.1, 8.7), 移出游戏 (8.7),
任意数量 (5.7), 转移 a target (5.8(1)), 打出 (8.3), 置入 (8.4), 代替 (8.16), 替换 (8.17),
观看 (8.18), 展示 (8.19) and 亮出 (8.20); the expression functions most/least (4.13, 4.14) and
``pile_count``; and the locked 视为 of a status skill (8.11.2, ``treat_as``).

Decisions where the glossary is silent:

* Cards on a character (``pile``) are face up (8.7: 移出游戏的牌须正面朝上), public, owned by
  nobody; they go to the discard pile when the character dies.
* 打出 on request (``play``) always asks the seat, holding a matching card or not (the same
  one-tap pass either way), so the group cannot tell whether it held one (issue 27).
* 代替/替换 work on the judgement card before it takes effect (``judge.before_effective``): the
  chosen hand card is 打出 into its place; 代替 discards the old judgement card, 替换 gives it to
  the character who replaced it.
* 观看 goes to the viewer alone (a private message); 展示 and 亮出 are public.
* A new target after 转移 is not "成为目标" again (so two transfer skills cannot ping-pong).

>>> sorted(CARD_ARGS)[:3]
['move_pile', 'play', 'put_equipment']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chronodice.core.errors import IllegalAction

from .base import Ask, Ctx, Gen

if TYPE_CHECKING:
    from .engine import Game

_W, _N = "who", "n"
CARD_ARGS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # primitive: (allowed keys, required keys), merged into :data:`.packcheck.ARGS`
    "put_on_character": (frozenset({_W, _N, "zone", "pile", "any", "var"}), frozenset({"pile"})),
    "move_pile": (frozenset({_W, _N, "pile", "dest", "var"}), frozenset({"pile"})),
    "remove_from_game": (frozenset({_W, "of", _N, "zones"}), frozenset()),
    "transfer_target": (frozenset({"to"}), frozenset({"to"})),
    "play": (frozenset({_W, "names", "then", "else"}), frozenset({"names"})),
    "put_equipment": (frozenset({_W, "to", "var"}), frozenset()),
    "substitute": (frozenset({_W}), frozenset()),
    "replace": (frozenset({_W}), frozenset()),
    "view": (frozenset({_W, "of"}), frozenset()),
    "show": (frozenset({_W, _N, "red", "black"}), frozenset()),
    "reveal": (frozenset({_W, _N, "filter"}), frozenset()),
}
"""Arguments of the primitives of this module."""

CARD_FUNCTIONS: dict[str, int] = {"most": 2, "least": 2, "pile_count": 2}
"""Expression functions of this module and their number of arguments."""

MEASURES: tuple[str, ...] = ("hand", "equip", "hp_value", "max_hp", "lost_hp", "faith")
"""What ``most``/``least`` compare: things (hand, equip: 4.14) and values (the rest: 4.13)."""
THINGS = ("hand", "equip")

PILE_SOURCES = ("hand", "owned", "deck")
PILE_DESTINATIONS = ("hand", "discard")


def card_arg_problems(op: str, arg: dict[str, Any], cards: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, message) for values of this module's primitives that must come from a fixed set
    or name a card of the pack (``packcheck`` adds them to the pack's problems)."""
    out: list[tuple[str, str]] = []
    if op == "play":
        names = arg.get("names")
        if not isinstance(names, list) or not names:
            out.append(("names", "应为卡牌键的列表（如 [attack]）"))
        else:
            out.extend(("names", f"卡牌「{str(k)[:40]}」不存在") for k in names if k not in cards)
    if op == "put_on_character" and arg.get("zone", "hand") not in PILE_SOURCES:
        out.append(("zone", f"应为 {'、'.join(PILE_SOURCES)}"))
    if op == "move_pile" and arg.get("dest", "discard") not in PILE_DESTINATIONS:
        out.append(("dest", f"应为 {'、'.join(PILE_DESTINATIONS)}"))
    if op in ("put_on_character", "move_pile") and not isinstance(arg.get("pile"), str):
        out.append(("pile", "应为牌堆的名字（文字，如 星）"))
    return out


class CardPrimitivesMixin:
    """The primitives of the module text (mixed into :class:`~.engine.Game`)."""

    # ------------------------------------------------------------------ expressions
    def card_functions(self: Game) -> dict[str, Any]:
        """``most(s, what)``/``least(s, what)`` (4.13, 4.14) and ``pile_count(s, name)``."""
        return {
            "most": lambda s, what: s in self.most(what),
            "least": lambda s, what: s in self.most(what, least=True),
            "pile_count": lambda s, name: len(self.zone(f"pile:{s}:{name}")) if s is not None else 0,
        }

    def most(self: Game, what: str, *, least: bool = False) -> list[int]:
        """Living seats tied for the most (least) ``what``: ties all count (4.13, 4.14); for a
        thing (hand cards, equipment) nobody when no character has any (4.14)."""
        if what not in MEASURES:
            raise ValueError(f"most/least: unknown measure {what!r}")
        vals = {s: self.measure(s, what) for s in self.alive_seats()}
        if not vals or (what in THINGS and not any(vals.values())):
            return []
        best = min(vals.values()) if least else max(vals.values())
        return [s for s, v in vals.items() if v == best]

    def measure(self: Game, seat: int, what: str) -> int:
        p = self.p(seat)
        table = {
            "hand": lambda: len(self.hand(seat)),
            "equip": lambda: len(self.equip(seat)),
            "hp_value": lambda: p.hp_value,
            "max_hp": lambda: p.max_hp,
            "lost_hp": lambda: p.lost_hp,
            "faith": lambda: p.faith,
        }
        return int(table[what]())

    # ------------------------------------------------------------------ 8.11.2 locked 视为
    def treated_faces(self: Game, seat: int) -> dict[str, str]:
        """``{card key: key it counts as}`` from the seat's status skills' ``treat_as`` (8.11.2,
        a locked rule: the card is only ever used as the other card)."""
        out: dict[str, str] = {}
        for inst in self.skill_insts(seat):
            out.update(self.sdef(inst.key).treat_as)
        return out

    # ------------------------------------------------------------------ 3.1, 8.7
    def _e_put_on_character(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """Put ``n`` cards (``any: true``: any number, 5.7) from the hand, the owned cards or the
        deck top onto the character card as pile ``pile`` (face up, 移出游戏)."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None or not self.p(seat).alive:
            return
        src = arg.get("zone", "hand")
        n = self._n(ctx, arg)
        if src == "deck":
            cids = self.take_top(n)
        else:
            pool = list(self.hand(seat) if src == "hand" else self.owned(seat))
            if arg.get("any"):
                cids = yield from self.choose_own(seat, pool, 1, "put_pile", optional=True, hi=len(pool))
            else:
                cids = yield from self.choose_own(seat, pool, n, "put_pile")
        yield from self.put_on_character(seat, list(cids), str(arg["pile"]))
        ctx.vars[arg.get("var", "moved")] = len(cids)

    def _e_move_pile(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """Take ``n`` cards (all without ``n``) of the pile into the hand or the discard pile."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        pile = list(self.zone(f"pile:{seat}:{arg['pile']}"))
        if "n" in arg and self._n(ctx, arg) < len(pile):
            pile = yield from self.choose_own(seat, pile, self._n(ctx, arg), "take_pile")
        if arg.get("dest", "discard") == "hand":
            yield from self.obtain(seat, pile, reason="pile")
        else:
            yield from self.move(pile, "discard", reason="pile", by=seat)
        ctx.vars[arg.get("var", "moved")] = len(pile)

    def _e_remove_from_game(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """8.7: ``who`` removes ``n`` of ``of``'s cards from the game (hand blind, 3.7)."""
        actor, owner = self.who(ctx, arg.get("who")), self.who(ctx, arg.get("of"), "target")
        if actor is None or owner is None or not self.p(owner).alive:
            return
        zones = tuple(arg.get("zones", ["hand", "equip"]))
        if actor == owner:
            pool = [c for z in zones for c in self.zone(f"{z}:{owner}")]
            picked = yield from self.choose_own(actor, pool, self._n(ctx, arg), "remove")
        else:
            picked = yield from self.blind_pick(actor, owner, self._n(ctx, arg), zones, "remove")
        if picked:
            self.emit("removed", by=actor, of=owner, cards=list(picked))
            yield from self.remove_from_game(list(picked))

    # ------------------------------------------------------------------ 5.8(1)
    def _e_transfer_target(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """5.8(1): the card's target ``about`` becomes ``to`` when ``to`` passes the legality
        check without distance; otherwise nothing happens."""
        new, old = self.who(ctx, arg.get("to")), ctx.data.get("_about")
        frame = next((f for f in reversed(self.stack) if f.kind == "use" and f.data is ctx.data), None)
        if new is None or old is None or frame is None or old not in frame.data["targets"]:
            return
        try:
            self.transfer_target(frame, old, new)
        except IllegalAction:
            return
        self.emit("transfer_target", old=old, new=new, card=frame.data["card"].key)
        return
        yield

    # ------------------------------------------------------------------ 8.3
    def _e_play(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """8.3: ``who`` may 打出 a card named in ``names``; ``then`` if it did, ``else`` if not.
        The seat is asked whether or not it holds one (module text)."""
        seat = self.who(ctx, arg.get("who"), "target")
        if seat is None or not self.p(seat).alive:
            return
        names = list(arg["names"])
        mine = [c for c in self.hand(seat) if self.card(c).key in names and c not in self.locked_cards()]
        got = yield Ask(
            "respond",
            seat,
            "play_card",
            options=mine,
            optional=True,
            info={"names": names, "user": ctx.me, **({"card": ctx.card.key} if ctx.card else {})},
            seats=[seat],
            choices={seat: mine},
        )
        if got is not None:
            yield from self.play_card(seat, got["card"])
        yield from self.run_effects(ctx, list(arg.get("then" if got is not None else "else", [])))

    # ------------------------------------------------------------------ 8.4
    def _e_put_equipment(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """8.4 (not by use): ``who`` puts an equipment card from its hand into the empty slot of
        that kind in ``to``'s equipment area (``to`` defaults to ``who``)."""
        seat = self.who(ctx, arg.get("who"))
        to = self.who(ctx, arg.get("to"), "me") if "to" in arg else seat
        if seat is None or to is None or not self.p(to).alive:
            return
        free = {"weapon": self.weapon(to) is None, "armour": self.armour(to) is None}
        pool = [c for c in self.hand(seat) if free.get(self.cdef(self.card(c).key).slot or "", False)]
        picked = yield from self.choose_own(seat, pool, 1, "put_equipment")
        for cid in picked:
            yield from self.put_equipment(to, cid)
        ctx.vars[arg.get("var", "moved")] = len(picked)

    # ------------------------------------------------------------------ 8.16, 8.17
    def _judge_swap(self: Game, ctx: Ctx, arg: dict[str, Any], keep_old: bool) -> Gen:
        seat = self.who(ctx, arg.get("who"))
        old = ctx.data.get("card")
        if seat is None or not isinstance(old, int) or old not in self.zone("processing"):
            return
        picked = yield from self.choose_own(seat, list(self.hand(seat)), 1, "retrial")
        if not picked:
            return
        (new,) = picked
        if keep_old:
            yield from self.replace(seat, new, old)
        else:
            yield from self.substitute(seat, new, old)
        ctx.data["card"] = new

    def _e_substitute(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """8.16 代替: a hand card takes the judgement card's place; the old one is discarded."""
        yield from self._judge_swap(ctx, arg, keep_old=False)

    def _e_replace(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """8.17 替换: a hand card takes the judgement card's place; ``who`` obtains the old one."""
        yield from self._judge_swap(ctx, arg, keep_old=True)

    # ------------------------------------------------------------------ 8.18–8.20
    def _e_view(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """8.18: ``who`` looks at all of ``of``'s hand cards, privately; nothing moves."""
        seat, of = self.who(ctx, arg.get("who")), self.who(ctx, arg.get("of"), "target")
        if seat is None or of is None:
            return
        self.view(seat, list(self.hand(of)))
        return
        yield

    def _e_show(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """8.19: ``who`` shows ``n`` hand cards of its choice to everyone (they stay in the hand);
        ``red``/``black`` run by the colour of the first shown card."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        picked = yield from self.choose_own(seat, list(self.hand(seat)), self._n(ctx, arg), "show")
        if not picked:
            return
        yield from self.show(seat, list(picked))
        branch = "red" if self.card(picked[0]).colour == "red" else "black"
        yield from self.run_effects(ctx, list(arg.get(branch, [])))

    def _e_reveal(self: Game, ctx: Ctx, arg: dict[str, Any]) -> Gen:
        """8.20: reveal the top ``n`` deck cards into processing; ``who`` obtains those passing
        ``filter`` (``card``, ``card_colour`` name the revealed card), the rest are discarded."""
        seat = self.who(ctx, arg.get("who"))
        if seat is None:
            return
        cids = yield from self.reveal_top(seat, self._n(ctx, arg))
        flt = arg.get("filter", "True")
        keep = [
            c for c in cids if self.eval(ctx, flt, card=self.card(c).key, card_colour=self.card(c).colour)
        ]
        if keep and self.p(seat).alive:
            yield from self.obtain(seat, keep, reason="reveal")
        rest = [c for c in cids if c in self.zone("processing")]
        yield from self.move(rest, "discard", reason="reveal", quiet=True)
