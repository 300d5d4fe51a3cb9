"""Card operations (glossary §8) and HP operations (§4, §5.16–5.24) as settlement generators.

Each operation fires its timings through :meth:`EffectsMixin.fire`, so skills can insert
settlements (7.4).  Decisions the glossary leaves open, settled here:

* Hand order is private; another character's hidden hand cards are only ever picked *by
  position after a 3.7 shuffle*, which is done only when the owner holds at least two.  The
  8.22 "shuffle after obtaining" is therefore not performed separately (it is unobservable).
* Faith (4.2.1): after damage is applied, the source (if alive) and the victim each gain 1,
  capped at the maximum; a prevented damage gives none.  HP loss gives none.
* Dying (濒死, gap §5.1): when HP is 0 or less after a decrease, every living character is asked
  for 恢复 at once (one window, precedence from the current-turn player in 下家 order; each 恢复
  recovers 1; a character who declined is not asked again) while the dying character's HP is
  below 1; then death.  Rewards/penalties come from the map card and apply
  only when a source killed the character (5.16, 5.33).
* Empty deck (gap §5.5): shuffle the discard pile into a new deck; both empty → the game is a
  draw.
* Equipment put into an occupied slot not by use (8.4): it cannot be put; the card stays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chronodice.core.errors import IllegalAction

from .base import Ask, GameOver, Gen
from .hp import HpMixin
from .state import ALL

if TYPE_CHECKING:
    from .engine import Game

_PUBLIC = ("discard", "processing", "out")


def _owner_of(zone: str) -> int | None:
    if zone.startswith(("hand:", "equip:", "secret:", "pile:")):
        return int(zone.split(":")[1])
    return None


class OpsMixin(HpMixin):
    """Card operations (mixed into :class:`~.engine.Game`); HP ones come from :class:`~.hp.HpMixin`."""

    # ------------------------------------------------------------------ move (8.1)
    def move(
        self: Game,
        cids: list[int],
        to: str,
        *,
        reason: str = "move",
        by: int | None = None,
        face_down: bool = False,
        top: bool = False,
        quiet: bool = False,
    ) -> Gen:
        """Move ``cids`` at once to zone ``to``; fires cards.lost / cards.obtained once per owner."""
        if not cids:
            return []
        lost, origin = self._take_out(cids, to)
        dest = self.zone(to)
        if top:
            dest[0:0] = list(cids)
        else:
            dest.extend(cids)
        owner_to = _owner_of(to)
        was_public = [c for c in cids if ALL in self.state.known.get(c, ())]
        self._learn(cids, to, owner_to, face_down=face_down)
        if not quiet:
            self._emit_move(cids, to, origin, was_public, reason=reason, by=by, face_down=face_down)
        for owner, cs in lost.items():
            yield from self.fire("cards.lost", owner, {"cards": cs, "reason": reason, "to": to})
        if to.startswith("hand:"):
            yield from self.fire("cards.obtained", owner_to, {"cards": list(cids), "reason": reason})
        return list(cids)

    def _take_out(self: Game, cids: list[int], to: str) -> tuple[dict[int, list[int]], dict[int, str]]:
        """Take ``cids`` out of their zones: the cards each owner loses from hand or equipment
        (not counting a move within the same owner's zone kind), and where each card was."""
        lost: dict[int, list[int]] = {}
        origin: dict[int, str] = {}
        for cid in cids:
            z = self.state.zone_of(cid)
            origin[cid] = z
            self.state.zones[z].remove(cid)
            owner = _owner_of(z)
            if (
                owner is not None
                and z.startswith(("hand:", "equip:"))
                and z.split(":")[0] + ":" + str(owner) != to
            ):
                lost.setdefault(owner, []).append(cid)
        return lost, origin

    def _learn(self: Game, cids: list[int], to: str, owner_to: int | None, *, face_down: bool) -> None:
        """Who knows each moved card's face now."""
        for cid in cids:
            if to == "deck":
                self.set_known(cid, [])
            elif face_down or to.startswith(("hand:", "secret:")):
                # whoever saw the face still knows it (the previous owner too); the new owner sees
                # it; a face-down card passing through processing (a 奥秘 being used) stays hidden
                self.add_known(cid, [owner_to] if owner_to is not None else [])
            elif to in _PUBLIC or to.startswith(("equip:", "pile:")):
                self.set_known(cid, [ALL])

    def _emit_move(
        self: Game,
        cids: list[int],
        to: str,
        origin: dict[int, str],
        was_public: list[int],
        *,
        reason: str,
        by: int | None,
        face_down: bool,
    ) -> None:
        """The ``move`` event: the faces only where they land face up; the new owner and those
        who lost cards to another are told privately which."""
        owner_to = _owner_of(to)
        public_faces = not face_down and (to in _PUBLIC or to.startswith(("equip:", "pile:")))
        secret: dict[int, dict[str, Any]] = {}
        if owner_to is not None and not public_faces:
            secret[owner_to] = {"cards": list(cids)}
        for victim, cs in self._victims(cids, origin, to, by).items():
            secret.setdefault(victim, {})["lost"] = cs
        self.emit(
            "move",
            to=to,
            n=len(cids),
            reason=reason,
            by=by,
            froms=sorted({origin[c] for c in cids}),
            cards=list(cids) if public_faces else None,
            shown=[c for c in was_public if to.startswith("hand:")] or None,
            secret=secret or None,
        )

    def _victims(
        self: Game, cids: list[int], origin: dict[int, str], to: str, by: int | None
    ) -> dict[int, list[int]]:
        """Characters whose cards another character takes or discards (窃取/破坏): they are told
        privately which cards they lost."""
        out: dict[int, list[int]] = {}
        if by is None:
            return out
        for cid in cids:
            owner = _owner_of(origin[cid])
            if (
                owner is not None
                and owner != by
                and owner != _owner_of(to)
                and not origin[cid].startswith("pile:")
            ):
                out.setdefault(owner, []).append(cid)
        return out

    # ------------------------------------------------------------------ deck
    def take_top(self: Game, n: int) -> list[int]:
        """Ids of the top ``n`` deck cards (they stay in the deck until the caller moves them).

        When the deck runs short the discard pile is shuffled in under it; if both are empty
        the game ends in a draw (gap §5.5)."""
        deck = self.zone("deck")
        if len(deck) < n:
            pile = self.zone("discard")
            if pile:
                fresh = list(pile)
                pile.clear()
                self.shuffle(fresh)
                deck.extend(fresh)
                for cid in fresh:
                    self.set_known(cid, [])
                self.emit("reshuffle", n=len(fresh))
        if not deck and n > 0:
            self.state.winners = []
            self.state.result = "draw_empty_deck"
            self.emit("game_over", winners=[], result="draw_empty_deck")
            raise GameOver
        return list(deck[:n])

    def draw(self: Game, seat: int, n: int, *, reason: str = "draw") -> Gen:
        """8.14: obtain the top ``n`` deck cards."""
        if n <= 0 or not self.p(seat).alive:
            return []
        cids = self.take_top(n)
        yield from self.move(cids, f"hand:{seat}", reason=reason, by=seat)
        return cids

    def fill_hand(self: Game, seat: int, n: int) -> Gen:
        """8.15: draw up to ``n``; no effect (and no draw timing) when already at ``n`` or more."""
        k = n - len(self.hand(seat))
        if k <= 0:
            return []
        return (yield from self.draw(seat, k, reason="fill"))

    # ------------------------------------------------------------------ discard (8.8) & co.
    def discard(
        self: Game, owner: int, cids: list[int], *, by: int | None = None, reason: str = "discard"
    ) -> Gen:
        """Put cards of ``owner``'s area into processing, then the discard pile (one event)."""
        if not cids:
            return []
        yield from self.move(cids, "processing", reason=reason, by=by if by is not None else owner)
        still = [c for c in cids if c in self.zone("processing")]
        yield from self.move(still, "discard", reason=reason, by=by, quiet=True)
        yield from self.fire("cards.discarded", owner, {"cards": list(cids), "by": by})
        return list(cids)

    def discard_all(self: Game, seat: int, zones: tuple[str, ...] = ("hand",)) -> Gen:
        """8.25: "弃置所有手牌" with none counts as not performed (returns [])."""
        cids: list[int] = []
        for z in zones:
            cids.extend(self.zone(f"{z}:{seat}"))
        if not cids:
            return []
        return (yield from self.discard(seat, cids, by=seat))

    def blind_pick(self: Game, actor: int, owner: int, n: int, zones: tuple[str, ...], reason: str) -> Gen:
        """A picks ``n`` of B's cards: hand cards by position after a 3.7 shuffle, equipment by face."""
        hand = self.hand(owner)
        options: list[str] = []
        if "hand" in zones and hand:
            if len(hand) >= 2 and actor != owner:
                self.shuffle(hand)
                # the owner's hand order changed: they are told the new order (their numbers)
                self.emit("hand_shuffled", who=owner, by=actor, secret={owner: {"cards": list(hand)}})
            options.extend(f"h{i + 1}" for i in range(len(hand)))
        if "equip" in zones:
            options.extend(f"e{cid}" for cid in self.equip(owner) if cid not in self.locked_cards())
        if "secret" in zones:
            options.extend(f"s{i + 1}" for i in range(len(self.secrets(owner))))
        if not options:
            return []
        n = min(n, len(options))
        ans = yield Ask_(
            "choose_blind",
            actor,
            reason,
            options=options,
            lo=n,
            hi=n,
            info={"owner": owner, "equip": list(self.equip(owner))},
        )
        out = []
        for tok in ans:
            if tok.startswith("h"):
                out.append(hand[int(tok[1:]) - 1])
            elif tok.startswith("s"):
                out.append(self.secrets(owner)[int(tok[1:]) - 1])
            else:
                out.append(int(tok[1:]))
        return out

    def choose_own(
        self: Game,
        seat: int,
        cids: list[int],
        n: int,
        reason: str,
        *,
        optional: bool = False,
        hi: int | None = None,
    ) -> Gen:
        """The character picks ``n`` (to ``hi``) of their own cards; none to pick → []."""
        cids = [c for c in cids if c not in self.locked_cards()]
        if not cids:
            return []
        n = min(n, len(cids))
        hi = min(hi if hi is not None else n, len(cids))
        if n == len(cids) and hi == n and not optional:
            return list(cids)
        ans = yield Ask_("choose_cards", seat, reason, options=list(cids), lo=n, hi=hi, optional=optional)
        return list(ans)

    # ------------------------------------------------------------------ give (8.12)
    def give(self: Game, giver: int, distribution: list[list[Any]]) -> Gen:
        """One simultaneous move; each recipient's cards.obtained fires after all received."""
        for seat, cids in distribution:
            for c in cids:
                if self.state.zone_of(c) in (f"hand:{seat}", f"equip:{seat}"):
                    raise IllegalAction("不能把角色自己拥有的牌交给该角色")
        moved: list[tuple[int, list[int]]] = []
        for seat, cids in distribution:
            for c in cids:
                z = self.state.zone_of(c)
                self.state.zones[z].remove(c)
            moved.append((seat, list(cids)))
        lost = [c for _s, cs in moved for c in cs]
        for seat, cids in moved:
            self.hand(seat).extend(cids)
            for c in cids:
                self.set_known(c, [giver, seat])
            self.emit("give", by=giver, to=seat, n=len(cids), secret={seat: {"cards": cids}})
        yield from self.fire("cards.lost", giver, {"cards": lost, "reason": "give"})
        for seat, cids in moved:
            yield from self.fire("cards.obtained", seat, {"cards": cids, "reason": "give"})
        return moved

    def obtain(self: Game, seat: int, cids: list[int], *, reason: str = "obtain") -> Gen:
        """8.22: move cards into one's own hand."""
        return (yield from self.move(cids, f"hand:{seat}", reason=reason, by=seat))

    # ------------------------------------------------------------------ 8.7, 8.16, 8.17
    def put_on_character(
        self: Game, seat: int, cids: list[int], pile: str, *, face_down: bool = False
    ) -> Gen:
        return (yield from self.move(cids, f"pile:{seat}:{pile}", reason="put", by=seat, face_down=face_down))

    def remove_from_game(self: Game, cids: list[int]) -> Gen:
        return (yield from self.move(cids, "out", reason="remove"))

    def substitute(self: Game, seat: int, new: int, old: int) -> Gen:
        """8.16 代替: A goes where B is, B goes to the discard pile."""
        zone = self.state.zone_of(old)
        yield from self.move([new], zone, reason="substitute", by=seat)
        yield from self.move([old], "discard", reason="substitute", by=seat, quiet=True)

    def replace(self: Game, seat: int, new: int, old: int) -> Gen:
        """8.17 替换: A goes where B is, the character obtains B."""
        zone = self.state.zone_of(old)
        yield from self.move([new], zone, reason="replace", by=seat)
        yield from self.move([old], f"hand:{seat}", reason="replace", by=seat)

    def put_equipment(self: Game, seat: int, cid: int) -> Gen:
        """8.4: not by use — only into the matching empty slot; returns False when occupied."""
        slot = self.cdef(self.card(cid).key).slot
        if (self.weapon(seat) if slot == "weapon" else self.armour(seat)) is not None:
            return False
        yield from self.move([cid], f"equip:{seat}", reason="put", by=seat)
        return True

    # ------------------------------------------------------------------ 8.18–8.21
    def view(self: Game, viewer: int, cids: list[int]) -> None:
        """8.18: the viewer learns the faces; nothing moves, the cards stay hidden to others."""
        for c in cids:
            self.add_known(c, [viewer])
        self.emit("view", by=viewer, n=len(cids), secret={viewer: {"cards": list(cids)}})

    def show(self: Game, seat: int, cids: list[int]) -> Gen:
        """8.19: shown cards become known to everybody; they stay where they are."""
        for c in cids:
            self.set_known(c, [ALL])
        self.emit("show", by=seat, cards=list(cids))
        yield from self.fire("cards.shown", seat, {"cards": list(cids)})

    def reveal_top(self: Game, seat: int, n: int) -> Gen:
        """8.20: cards revealed from the deck top go to the processing area."""
        cids = self.take_top(n)
        yield from self.move(cids, "processing", reason="reveal", by=seat)
        return cids

    def exchange(self: Game, a: int, b: int, zone: str = "hand") -> Gen:
        """8.21: both put everything in processing at once, then each takes the other's."""
        ca, cb = list(self.zone(f"{zone}:{a}")), list(self.zone(f"{zone}:{b}"))
        yield from self.move(ca + cb, "processing", reason="exchange", by=a, quiet=True)
        secret = {a: {"cards": list(cb)}, b: {"cards": list(ca)}} if zone == "hand" else None
        self.emit("exchange", a=a, b=b, zone=zone, na=len(ca), nb=len(cb), secret=secret)
        for cid in cb:
            self.state.zones["processing"].remove(cid)
            self.zone(f"{zone}:{a}").append(cid)
            self.set_known(cid, [a, b] if zone == "hand" else [ALL])
        for cid in ca:
            self.state.zones["processing"].remove(cid)
            self.zone(f"{zone}:{b}").append(cid)
            self.set_known(cid, [a, b] if zone == "hand" else [ALL])
        yield from self.fire("cards.exchanged", a, {"with": b, "zone": zone})
        return ca, cb

    # ------------------------------------------------------------------ 8.24 judge
    def judge(self: Game, seat: int, reason: str = "judge") -> Gen:
        """Reveal the top card into processing; retrial skills may swap it before it takes effect."""
        (cid,) = self.take_top(1)
        yield from self.move([cid], "processing", reason="judge", by=seat)
        data: dict[str, Any] = {"card": cid, "who": seat, "reason": reason}
        yield from self.fire("judge.before_effective", seat, data)
        final = data["card"]
        self.emit("judge", who=seat, card=final)
        yield from self.fire("judge.effective", seat, data)
        left = [c for c in self.zone("processing") if c in (cid, final)]
        yield from self.move(left, "discard", reason="judge", quiet=True)
        return final

    def retrial(self: Game, seat: int, data: dict[str, Any], new: int) -> Gen:
        """Swap the judgment card: the new card enters processing, the old one goes to discard."""
        old = data["card"]
        yield from self.move([new], "processing", reason="retrial", by=seat)
        yield from self.move([old], "discard", reason="retrial", quiet=True)
        data["card"] = new

    # ------------------------------------------------------------------ 8.13 拼点
    def pindian(self: Game, a: int, b: int) -> Gen:
        """Each picks a hand card in private (one after the other, neither sees the other's),
        both are shown at once, ranks compare (A=1 … K=13).  Returns (winner, loser) or (None, None)."""
        if not self.hand(a) or not self.hand(b):
            raise IllegalAction("拼点需要双方都有手牌")
        ca = (
            yield Ask_("choose_cards", a, "pindian", options=list(self.hand(a)), lo=1, hi=1, info={"with": b})
        )[0]
        cb = (
            yield Ask_("choose_cards", b, "pindian", options=list(self.hand(b)), lo=1, hi=1, info={"with": a})
        )[0]
        yield from self.move([ca, cb], "processing", reason="pindian", quiet=True)
        self.emit("pindian", a=a, b=b, ca=ca, cb=cb)
        ra, rb = self.card(ca).rank, self.card(cb).rank
        data = {"a": a, "b": b, "ca": ca, "cb": cb, "ra": ra, "rb": rb}
        yield from self.fire("pindian.shown", a, data)
        yield from self.move([c for c in (ca, cb) if c in self.zone("processing")], "discard", quiet=True)
        winner = None if ra == rb else (a if ra > rb else b)
        self.emit("pindian_result", a=a, b=b, ra=ra, rb=rb, winner=winner)
        if winner is None:
            return None, None
        return (a, b) if winner == a else (b, a)


def Ask_(kind: str, seat: int, reason: str, **kw: Any) -> Any:
    return Ask(kind, seat, reason, **kw)
