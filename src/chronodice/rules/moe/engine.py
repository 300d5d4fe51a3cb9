"""The 萌E engine: an event stack of generators driven one decision at a time.

Every settlement is a generator (moe-engine.md §2.3): sub-settlements are entered with
``yield from`` (so an inserted event pauses the running one, glossary 7.4) and a decision is
``answer = yield Ask(...)``.  :class:`Game` is the only place that resumes the generator.  Nothing
here does I/O, reads a clock or touches the global ``random``: randomness comes from the injected
``random.Random`` and every decision comes in through :meth:`Game.submit`, which is logged, so a
game is rebuilt by replaying its inputs (:mod:`.record`).

Decisions taken where the glossary is silent (moe-engine.md §5), also listed in the help:

* Trigger order at one timing: the current-turn player first, then 下家 order; a player with
  several candidates chooses which goes first; passive skills (5.1) and awakening skills (5.3)
  are not asked, 可 skills ask once (5.6).
* Distance: seats around the living players, the shorter way, plus modifiers, at least 1.
* 手牌上限 "为"/"视为" (4.10): changes apply in order; 为 replaces the running value and later
  changes still apply; 视为 fixes the value read regardless of later changes.  A later HP change
  does not undo a 为 (为 replaces the HP-based base for good).
* Empty deck: the discard pile is shuffled into a new deck; when both are empty the game ends in a
  draw.  Max HP reduced to 0: death with no source.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from chronodice.core.errors import IllegalAction

from .base import Ask, Frame, GameOver, Gen
from .cards import Card, rank_value
from .effects import EffectsMixin
from .flow import FlowMixin
from .ops import OpsMixin
from .pack import CardDef, Pack, SkillDef
from .state import ALL, GameState, Player, SkillInst
from .windows import WindowsMixin


class Game(FlowMixin, OpsMixin, EffectsMixin, WindowsMixin):
    """One game: state + pack + rng, a running generator and the open request."""

    def __init__(self, pack: Pack, state: GameState, rng: random.Random) -> None:
        self.pack = pack
        self.state = state
        self.rng = rng
        self.rng_draws = 0
        self.pending: Ask | None = None
        self.serial = 0
        self.inputs: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.trace: list[tuple[str, int | None, int]] = []
        self.stack: list[Frame] = []
        self.snapshots: list[dict[str, Any]] = []
        self.on_step: Callable[[Game], None] | None = None
        self.on_emit: Callable[[Game, dict[str, Any]], None] | None = None
        """Called with each output event as it is emitted (the soak audits hidden cards here)."""
        self._gen: Gen | None = None
        self.result_value: Any = None
        self._cards: dict[int, Card] = {}
        self.timings_used: set[str] = {s.timing for s in pack.skills.values() if s.timing} | {
            c.secret_timing for c in pack.cards.values() if c.secret_timing
        }
        """Timings some handler listens to: firing any other timing skips the handler scan."""

    # ================================================================== driver
    def run(self, gen: Gen) -> None:
        """Start ``gen`` (the game's main settlement, or a test script) and run to the first ask."""
        self._gen = gen
        self._advance(None)

    def _advance(self, value: Any) -> None:
        assert self._gen is not None
        try:
            ask = self._gen.send(value)
        except StopIteration as stop:
            self._gen = None
            self.pending = None
            self.result_value = stop.value
            return
        except GameOver:
            self._gen = None
            self.pending = None
            self.stack.clear()
            return
        self.serial += 1
        ask.serial = self.serial
        self.pending = ask

    @property
    def finished(self) -> bool:
        return self.state.winners is not None

    def submit(self, seat: int, answer: Any, *, source: str = "player", serial: int | None = None) -> Any:
        """Apply one decision.  Raises :class:`IllegalAction` (nothing changes) when illegal."""
        ask = self.pending
        if ask is None:
            raise IllegalAction("当前没有等待中的请求")
        if serial is not None and serial != ask.serial:
            raise IllegalAction("该请求已过期")
        if seat not in ask.waiting:
            raise IllegalAction("现在不是在等你的回应")
        value = validate_answer(ask.for_seat(seat), answer)
        self.inputs.append({"serial": ask.serial, "seat": seat, "answer": value, "source": source})
        if source == "player":
            self.state.players[seat].timeouts = 0
            self.state.players[seat].flags.pop("timeout_turn", None)
        elif source == "timeout":
            # one AFK turn is one timeout however many requests it left unanswered (play,
            # discard, responses…); two turns in a row put the player on 托管
            p = self.state.players[seat]
            if p.flags.get("timeout_turn") != self.state.turn_no:
                p.flags["timeout_turn"] = self.state.turn_no
                p.timeouts += 1
            if p.timeouts >= 2:
                p.auto = True
        resume = ask.record(seat, value) if ask.seats else value
        if resume is not ...:  # a window stays open until its answers decide it
            self._advance(resume)
        if self.on_step is not None:
            self.on_step(self)
        return value

    # ================================================================== randomness
    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates with the injected rng; each call counts one logged draw."""
        self.rng_draws += 1
        self.rng.shuffle(items)

    # ================================================================== output
    def emit(self, kind: str, *, secret: dict[int, dict[str, Any]] | None = None, **public: Any) -> None:
        """An output event: ``public`` fields for everyone, ``secret[seat]`` only for that seat."""
        ev: dict[str, Any] = {"t": kind, **public}
        if secret:
            ev["secret"] = {str(k): v for k, v in secret.items()}
        self.events.append(ev)
        if self.on_emit is not None:
            self.on_emit(self, ev)

    def drain_events(self) -> list[dict[str, Any]]:
        out, self.events = self.events, []
        return out

    # ================================================================== lookups
    def p(self, seat: int) -> Player:
        return self.state.players[seat]

    def card(self, cid: int) -> Card:
        c = self._cards.get(cid)
        if c is None:
            key, suit, rank = self.state.cards[cid]
            c = self._cards[cid] = Card(cid, key, suit, rank_value(rank))
        return c

    def cdef(self, key: str) -> CardDef:
        return self.pack.cards[key]

    def sdef(self, key: str) -> SkillDef:
        return self.pack.skills[key]

    def zone(self, name: str) -> list[int]:
        return self.state.zones.setdefault(name, [])

    def hand(self, seat: int) -> list[int]:
        return self.zone(f"hand:{seat}")

    def equip(self, seat: int) -> list[int]:
        return self.zone(f"equip:{seat}")

    def secrets(self, seat: int) -> list[int]:
        return self.zone(f"secret:{seat}")

    def owned(self, seat: int) -> list[int]:
        """3.10: cards a character *owns* (hand + equipment; not 奥秘)."""
        return [*self.hand(seat), *self.equip(seat)]

    def weapon(self, seat: int) -> int | None:
        for cid in self.equip(seat):
            if self.cdef(self.card(cid).key).slot == "weapon":
                return cid
        return None

    def armour(self, seat: int) -> int | None:
        for cid in self.equip(seat):
            if self.cdef(self.card(cid).key).slot == "armour":
                return cid
        return None

    def alive_seats(self) -> list[int]:
        return [p.seat for p in self.state.players if p.alive]

    def alive_count(self) -> int:
        """4.12: counts ignore dead characters."""
        return len(self.alive_seats())

    def next_alive(self, seat: int) -> int:
        """下家 (6.2): the next living seat."""
        n = len(self.state.players)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self.state.players[s].alive:
                return s
        return seat

    def prev_alive(self, seat: int) -> int:
        n = len(self.state.players)
        for step in range(1, n + 1):
            s = (seat - step) % n
            if self.state.players[s].alive:
                return s
        return seat

    def action_order(self, start: int | None = None) -> list[int]:
        """Living seats from ``start`` (default: the current-turn player) in 下家 order."""
        seats = self.alive_seats()
        if not seats:
            return []
        first = self.state.turn.seat if start is None else start
        if first < 0:
            first = seats[0]
        n = len(self.state.players)
        return [s for s in ((first + i) % n for i in range(n)) if self.state.players[s].alive]

    # ================================================================== skills & modifiers
    def skill_insts(self, seat: int) -> list[SkillInst]:
        return list(self.p(seat).skills)

    def equipment_skills(self, seat: int) -> list[tuple[int, str]]:
        out = []
        for cid in self.equip(seat):
            for key in self.cdef(self.card(cid).key).skills:
                if not self.equipment_invalid(seat, cid):
                    out.append((cid, key))
        return out

    def equipment_invalid(self, seat: int, cid: int) -> bool:
        """7.6: B's armour is invalid inside a settlement whose actor ignores it."""
        if self.cdef(self.card(cid).key).slot != "armour":
            return False
        return self.armour_ignored(seat)

    def armour_ignored(self, victim: int) -> bool:
        for frame in reversed(self.stack):
            if frame.kind in ("use", "skill", "damage"):
                return victim in frame.ignore_armour
        return False

    def modifier_total(self, seat: int, name: str) -> int:
        total = 0
        for inst in self.skill_insts(seat):
            m = self.sdef(inst.key).modifiers
            if m is not None:
                total += getattr(m, name)
        for _cid, key in self.equipment_skills(seat):
            m = self.sdef(key).modifiers
            if m is not None:
                total += getattr(m, name)
        return total

    def prevents_attribute(self, seat: int, attribute: str | None) -> bool:
        if attribute is None:
            return False
        for _cid, key in self.equipment_skills(seat):
            m = self.sdef(key).modifiers
            if m is not None and m.prevent_attribute == attribute:
                return True
        for inst in self.skill_insts(seat):
            m = self.sdef(inst.key).modifiers
            if m is not None and m.prevent_attribute == attribute:
                return True
        return False

    # ================================================================== numbers (§4)
    def hand_limit(self, seat: int) -> int:
        """4.5 + 4.10: HP value, then 为/加/视为 changes in order, then status modifiers, min 0."""
        p = self.p(seat)
        value = p.hp_value
        fixed: int | None = None
        for op, n in p.hand_limit_mods:
            if op == "为":
                value = n
            elif op == "加":
                value += n
            elif op == "视为":
                fixed = n
        if fixed is not None:
            return max(fixed, 0)
        value += self.modifier_total(seat, "hand_limit")
        return max(value, 0)

    def distance(self, a: int, b: int) -> int:
        """Seat distance around the living players (gap §5.4), plus modifiers, at least 1."""
        if a == b:
            return 0
        seats = self.alive_seats()
        if a not in seats or b not in seats:
            return 10**6
        i, j = seats.index(a), seats.index(b)
        n = len(seats)
        base = min((j - i) % n, (i - j) % n)
        base += self.modifier_total(b, "distance_from_others") + self.modifier_total(a, "distance_to_others")
        return max(base, 1)

    def attack_range(self, seat: int) -> int | None:
        """4.8: 1 without a weapon, else the weapon's range; ``None`` = infinite.  Skills add (1.3.2)."""
        w = self.weapon(seat)
        base: int | None = 1
        if w is not None:
            r = self.cdef(self.card(w).key).range
            base = None if r == "inf" else int(r or 1)
        if base is None:
            return None
        return base + self.modifier_total(seat, "attack_range")

    def in_range(self, a: int, b: int) -> bool:
        if a == b or not self.p(b).alive:
            return False
        r = self.attack_range(a)
        return r is None or r >= self.distance(a, b)

    def talent(self, seat: int, kind: str) -> int:
        return self.p(seat).talents.get(kind, 0)

    # ================================================================== card knowledge
    def set_known(self, cid: int, seats: list[int]) -> None:
        self.state.known[cid] = sorted(set(seats))

    def add_known(self, cid: int, seats: list[int]) -> None:
        cur = self.state.known.get(cid, [])
        if ALL in cur:
            return
        self.state.known[cid] = sorted(set(cur) | set(seats))

    def is_known_to(self, cid: int, seat: int) -> bool:
        k = self.state.known.get(cid, [])
        return ALL in k or seat in k

    # ================================================================== frames
    def push(self, frame: Frame) -> Frame:
        self.stack.append(frame)
        return frame

    def pop(self, frame: Frame) -> None:
        if self.stack and self.stack[-1] is frame:
            self.stack.pop()
        elif frame in self.stack:
            self.stack.remove(frame)

    def locked_cards(self) -> list[int]:
        out: list[int] = []
        for f in self.stack:
            out.extend(f.locked)
        return out


# ====================================================================== answers
def validate_answer(ask: Ask, answer: Any) -> Any:
    """Check ``answer`` against ``ask`` and return its canonical JSON form (each request kind
    checked by its function in :data:`_VALIDATORS`)."""
    check = _VALIDATORS.get(ask.kind)
    if check is None:
        raise IllegalAction("未知的请求")  # pragma: no cover
    return check(ask, answer)


def _validate_yes_no(ask: Ask, answer: Any) -> Any:
    if not isinstance(answer, bool):
        raise IllegalAction("请回答是或否")
    return answer


def _validate_choice(ask: Ask, answer: Any) -> Any:
    """Cards, players or blind picks: distinct, offered, and as many as asked (or none when
    optional)."""
    if answer is None:
        answer = []
    if not isinstance(answer, list) or len(set(map(str, answer))) != len(answer):
        raise IllegalAction("选择有误")
    allowed = {str(o) for o in ask.options}
    if any(str(a) not in allowed for a in answer):
        raise IllegalAction("选择了不可选的项")
    lo = 0 if ask.optional else ask.lo
    if not (lo <= len(answer) <= ask.hi) or (ask.optional and 0 < len(answer) < ask.lo):
        raise IllegalAction(f"需要选择{ask.lo}到{ask.hi}项" if ask.lo != ask.hi else f"需要选择{ask.lo}项")
    return list(answer)


def _validate_option(ask: Ask, answer: Any) -> Any:
    if answer is None and ask.optional:
        return None
    if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < len(ask.options):
        raise IllegalAction("没有这个选项")
    return answer


def _validate_response(ask: Ask, answer: Any) -> Any:
    if answer is None:
        return None
    if answer not in ask.options:
        raise IllegalAction("不能用这张牌响应")
    return answer


def _validate_arrangement(ask: Ask, answer: Any) -> Any:
    if not isinstance(answer, list) or sorted(answer) != sorted(ask.options):
        raise IllegalAction("需要给出这些牌的一个排列")
    return list(answer)


def _validate_distribution(ask: Ask, answer: Any) -> Any:
    if answer is None or answer == []:
        if ask.optional:
            return []
        raise IllegalAction("需要分配牌")
    if not isinstance(answer, list):
        raise IllegalAction("分配格式有误")
    cards_allowed = set(ask.options)
    seats_allowed = set(ask.info["to"])
    used: list[int] = []
    seen_seats: list[int] = []
    for item in answer:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], list) and item[1]):
            raise IllegalAction("每名目标角色至少分得一张牌")
        seat, cards = item
        if seat not in seats_allowed or seat in seen_seats:
            raise IllegalAction("目标角色不合法")
        seen_seats.append(seat)
        for c in cards:
            if c not in cards_allowed or c in used:
                raise IllegalAction("分配的牌不合法")
            used.append(c)
    if not (ask.lo <= len(used) <= ask.hi):
        raise IllegalAction(f"需要分配{ask.lo}到{ask.hi}张牌")
    return [[s, list(c)] for s, c in answer]


def _validate_play(ask: Ask, answer: Any) -> Any:
    if not isinstance(answer, dict):
        raise IllegalAction("出牌格式有误")
    if answer.get("a") == "end":
        return {"a": "end"}
    for opt in ask.options:
        if opt["a"] != answer.get("a"):
            continue
        if opt["a"] == "card" and (opt["card"] != answer.get("card") or opt.get("as") != answer.get("as")):
            continue
        if opt["a"] == "skill" and opt["uid"] != answer.get("uid"):
            continue
        targets = answer.get("targets", [])
        if not isinstance(targets, list) or len(set(targets)) != len(targets):
            raise IllegalAction("目标有误")
        if opt["mode"] == "one":
            if len(targets) != 1 or targets[0] not in opt["targets"]:
                raise IllegalAction("需要指定一名合法目标")
        else:
            targets = list(opt["targets"])
        out = {"a": opt["a"], "targets": targets}
        if opt["a"] == "card":
            out["card"] = opt["card"]
            out["as"] = opt.get("as")
        else:
            out["uid"] = opt["uid"]
        cost = answer.get("cost", [])
        if opt.get("cost_n"):
            if (
                not isinstance(cost, list)
                or len(cost) != opt["cost_n"]
                or any(c not in opt["cost_from"] for c in cost)
            ):
                raise IllegalAction(f"需要选择{opt['cost_n']}张牌作为消耗")
            if len(set(cost)) != len(cost):
                raise IllegalAction("消耗的牌重复")
            out["cost"] = list(cost)
        return out
    raise IllegalAction("现在不能这样出牌")


_VALIDATORS: dict[str, Callable[[Ask, Any], Any]] = {
    "invoke": _validate_yes_no,
    "choose_cards": _validate_choice,
    "choose_players": _validate_choice,
    "choose_blind": _validate_choice,
    "choose_option": _validate_option,
    "order": _validate_option,
    "respond": _validate_response,
    "arrange": _validate_arrangement,
    "distribute": _validate_distribution,
    "play": _validate_play,
}
"""Request kind → the check of an answer to it."""
