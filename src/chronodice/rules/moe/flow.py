"""Game flow (glossary §6, §1.1): set-up, rounds, turns, the six phases, extra turns, skipping.

Decisions where the glossary is silent:

* Extra turns (6.1) are a last-in-first-out queue played before the next normal turn, which
  gives the E-B-C-D-E-A / D-E-B-C-D-E-A orders of the example; extra turns have their own
  回合开始前 and 回合结束后.
* A turn skipped in advance fires nothing at all; a turn skipped during its own 回合开始前 stops
  there (its 回合结束后 is skipped too, 6.4).
* A skipped phase fires none of its own timings; one skipped during its own "before" timing
  stops after it.  "A 与 B 间" is hidden only when A and B were skipped by one operation.
* 施法阶段 has no default action (gap §5.3): only its timings fire.
* A round ends when the normal turn order wraps around; the game ends in a draw after
  ``rules.max_rounds`` rounds (so auto-play always ends).
* Starting hands: ``rules.initial_hand`` cards each; draw phase: ``rules.draw_count``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Ctx, Frame, GameOver, Gen
from .cards import VirtualCard
from .ops import Ask_
from .state import PHASES, TurnState

if TYPE_CHECKING:
    from .engine import Game

MAX_ACTIONS_PER_PLAY_PHASE = 60


def deal_offers(chars: list[str], players: int, cap: int) -> list[list[str]]:
    """The characters offered to each seat, from the shuffled ``chars`` (1.2).

    Every seat gets ``min(cap, len(chars) // players)`` characters, at least 1, and no character
    is offered twice; the characters left over go one more each to the first seats while they
    are under ``cap`` (8 characters, 5 players: 2, 2, 2, 1, 1).  With fewer characters than
    players each seat is dealt one and some characters appear twice (nothing else is possible).

    >>> deal_offers(list("abcdefgh"), 5, 3)
    [['a', 'b'], ['c', 'd'], ['e', 'f'], ['g'], ['h']]
    >>> [len(o) for o in deal_offers([str(i) for i in range(25)], 8, 3)]
    [3, 3, 3, 3, 3, 3, 3, 3]
    >>> deal_offers(["a", "b"], 3, 3)
    [['a'], ['b'], ['a']]
    """
    if not chars:
        raise ValueError("a pack needs characters")
    if len(chars) < players:
        return [[chars[i % len(chars)]] for i in range(players)]
    base, extra = divmod(len(chars), players)
    sizes = [max(1, min(cap, base + (1 if i < extra else 0))) for i in range(players)]
    out, at = [], 0
    for size in sizes:
        out.append(chars[at : at + size])
        at += size
    return out


class FlowMixin:
    # ================================================================== set-up (1.1, 1.2)
    def setup(self: Game, map_key: str | None = None) -> Gen:
        st = self.state
        n = len(st.players)
        pool = [k for k, m in self.pack.maps.items() if not m.players or n in m.players]
        if map_key is None:
            self.shuffle(pool)  # 1.1: shuffle the map cards and reveal one
            map_key = pool[0]
        st.map = map_key
        m = self.pack.maps[map_key]
        self.emit("map", map=map_key)
        if m.teams == "alternate":
            for p in st.players:
                p.team = p.seat % 2
        chars = list(self.pack.characters)
        self.shuffle(chars)
        for p, offer in zip(
            st.players, deal_offers(chars, n, self.pack.rules.characters_offered), strict=True
        ):
            if len(offer) == 1:
                choice = offer[0]
            else:
                idx = yield Ask_("choose_option", p.seat, "character", options=offer)
                choice = offer[idx]
            self.assign_character(p.seat, choice)
        deck = self.zone("deck")
        self.shuffle(deck)
        st.started = True
        self.emit("start", seats=[[p.seat, p.character] for p in st.players])
        for p in st.players:
            yield from self.draw(p.seat, self.pack.rules.initial_hand, reason="initial")
        yield from self.fire("game.start", None, {})

    def assign_character(self: Game, seat: int, key: str) -> None:
        cd = self.pack.characters[key]
        p = self.p(seat)
        p.character = key
        p.name = cd.name
        p.gender = cd.gender
        p.max_hp = p.hp = cd.max_hp
        p.max_faith = cd.max_faith
        p.faith = 0
        p.talents = dict(cd.talents)
        p.skills = []
        for s in cd.skills:
            self.add_skill(seat, s)

    def main(self: Game, map_key: str | None = None) -> Gen:
        """The whole game: set-up, then turns until a result."""
        yield from self.setup(map_key)
        yield from self.loop()

    # ================================================================== rounds & turns (6.1)
    def loop(self: Game) -> Gen:
        while True:
            self.take_snapshot()
            for p in self.state.players:
                if p.alive and p.flags.get("conceded"):
                    yield from self.die(p.seat, None)
            seat, extra, new_round = self.next_turn()
            if new_round:
                if self.state.round > 0:
                    yield from self.round_end()
                self.state.round += 1
                if self.state.round > self.pack.rules.max_rounds:
                    self.end_game([], "round_cap")
                    raise GameOver
                self.emit("round", round=self.state.round)
                yield from self.fire("round.start", None, {})
            yield from self.turn(seat, extra)

    def take_snapshot(self: Game) -> None:
        """A turn-boundary snapshot: the stack is canonical here, so data alone resumes it."""
        v, internal, gauss = self.rng.getstate()
        self.snapshots.append(
            {
                "inputs": len(self.inputs),
                "serial": self.serial,
                "state": self.state.to_dict(),
                "rng": [v, list(internal), gauss],
                "rng_draws": self.rng_draws,
            }
        )
        del self.snapshots[:-2]

    def next_turn(self: Game) -> tuple[int, bool, bool]:
        st = self.state
        while st.extra_turns:
            seat = st.extra_turns.pop(0)
            if self.p(seat).alive:
                return seat, True, st.round == 0
        if st.cursor < 0:
            seat = 0 if self.p(0).alive else self.next_alive(0)
            st.cursor = seat
            return seat, False, True
        seat = self.next_alive(st.cursor)
        wrapped = seat <= st.cursor
        st.cursor = seat
        return seat, False, wrapped

    def grant_extra_turn(self: Game, seat: int) -> None:
        """6.1: a newly granted extra turn goes first (LIFO)."""
        self.state.extra_turns.insert(0, seat)
        self.emit("extra_turn", who=seat)

    def upcoming_turns(self: Game, n: int) -> list[int]:
        """The next ``n`` turn holders as things stand (for 6.1 checks and display)."""
        out = [s for s in self.state.extra_turns if self.p(s).alive]
        cur = self.state.cursor
        while len(out) < n:
            cur = self.next_alive(cur)
            out.append(cur)
        return out[:n]

    def skip_turn(self: Game, seat: int) -> None:
        ts = self.state.turn
        if ts.seat == seat and ts.phase == "" and not ts.skip_used and self._in_before_start:
            ts.skip_turn = True
        else:
            self.state.skipped_turns.append(seat)

    @property
    def _in_before_start(self: Game) -> bool:
        return any(f.kind == "before_start" for f in self.stack)

    def turn(self: Game, seat: int, extra: bool) -> Gen:
        st = self.state
        st.turn_no += 1
        st.turn = TurnState(seat=seat, extra=extra)
        if seat in st.skipped_turns:
            st.skipped_turns.remove(seat)
            self.emit("turn_skipped", seat=seat)
            return
        self.emit("turn", seat=seat, extra=extra, round=st.round)
        marker = self.push(Frame("before_start", seat))
        try:
            yield from self.fire("turn.before_start", seat, {"extra": extra})
        finally:
            self.pop(marker)
        if st.turn.skip_turn or not self.p(seat).alive:
            self.emit("turn_skipped", seat=seat)
            return
        frame = self.push(Frame("turn", seat))
        try:
            yield from self.fire("turn.start", seat, {})
            prev: str | None = None
            for ph in PHASES:
                if not self.p(seat).alive:
                    break
                if prev is not None:
                    yield from self.between(prev, ph)
                yield from self.phase(ph)
                prev = ph
            if self.p(seat).alive:
                yield from self.fire("turn.end", seat, {})
        finally:
            self.pop(frame)
        if self.p(seat).alive:
            yield from self.fire("turn.after_end", seat, {"extra": extra})

    # ================================================================== phases (6.3, 6.4)
    def skip_phases(self: Game, phases: list[str]) -> bool:
        """Skip phases of the current turn as one operation; False if one was already skipped."""
        ts = self.state.turn
        if any(ph in ts.skip_used for ph in phases):
            return False
        op = len(ts.skip_used) + 1
        for ph in phases:
            ts.skipped[ph] = op
            ts.skip_used.append(ph)
        self.emit("skip_phases", who=ts.seat, phases=list(phases))
        return True

    def between(self: Game, a: str, b: str) -> Gen:
        sk = self.state.turn.skipped
        if a in sk and b in sk and sk[a] == sk[b]:
            return
        yield from self.fire(f"phase.between.{a}.{b}", self.state.turn.seat, {})

    def phase(self: Game, ph: str) -> Gen:
        ts = self.state.turn
        seat = ts.seat
        if ph in ts.skipped:
            return
        yield from self.fire(f"phase.{ph}.before", seat, {})
        if ph in ts.skipped or not self.p(seat).alive:
            return
        yield from self.run_phase(ph)
        if self.p(seat).alive:
            yield from self.fire(f"phase.{ph}.after", seat, {})

    def extra_phase(self: Game, ph: str) -> Gen:
        """6.3: an extra phase as an immediate effect — no before/after timings."""
        yield from self.run_phase(ph)

    def run_phase(self: Game, ph: str) -> Gen:
        ts = self.state.turn
        seat = ts.seat
        outer = ts.phase
        ts.phase = ph
        self.emit("phase", seat=seat, phase=ph)
        try:
            yield from self.fire(f"phase.{ph}.start", seat, {})
            if self.p(seat).alive:
                yield from getattr(self, f"_body_{ph}")(seat)
            if self.p(seat).alive:
                yield from self.fire(f"phase.{ph}.end", seat, {})
        finally:
            ts.phase = outer

    def _body_prepare(self: Game, seat: int) -> Gen:
        return
        yield

    def _body_cast(self: Game, seat: int) -> Gen:
        return
        yield

    def _body_finish(self: Game, seat: int) -> Gen:
        return
        yield

    def _body_draw(self: Game, seat: int) -> Gen:
        data: dict[str, Any] = {"n": self.pack.rules.draw_count + self.modifier_total(seat, "draw_count")}
        yield from self.fire("phase.draw.count", seat, data)
        yield from self.draw(seat, max(0, data["n"]))

    def _body_discard(self: Game, seat: int) -> Gen:
        excess = len(self.hand(seat)) - self.hand_limit(seat)
        if excess > 0:
            chosen = yield from self.choose_own(seat, list(self.hand(seat)), excess, "discard_phase")
            yield from self.discard(seat, chosen, by=seat, reason="discard_phase")

    def _body_play(self: Game, seat: int) -> Gen:
        for _ in range(MAX_ACTIONS_PER_PLAY_PHASE):
            if not self.p(seat).alive:
                return
            opts = self.play_options(seat)
            ans = yield Ask_("play", seat, "play", options=opts)
            if ans["a"] == "end":
                return
            targets = list(ans["targets"])
            if ans["a"] == "card":
                card = self.card(ans["card"])
                if ans.get("as"):
                    vcard = VirtualCard.treated(ans["as"], [card])
                else:
                    vcard = VirtualCard.of(card)
                yield from self.use_card(seat, vcard, targets)
            elif str(ans["uid"]).startswith("e"):
                cid_s, key = str(ans["uid"])[1:].split(":")
                cid = int(cid_s)
                sd = self.sdef(key)
                frame = self.push(Frame("skill", seat, {"skill": key}, locked=[cid]))
                try:
                    self.emit("skill", who=seat, skill=key)
                    if ans.get("cost"):
                        yield from self.discard(seat, ans["cost"], by=seat, reason="cost")
                    ctx = Ctx(me=seat, target=targets[0] if targets else None, source_card=cid)
                    yield from self.run_effects(ctx, list(sd.effect))
                finally:
                    self.pop(frame)
            else:
                inst = next(s for s in self.p(seat).skills if s.uid == ans["uid"])
                ctx = Ctx(me=seat, target=targets[0] if targets else None, skill=inst)
                yield from self.run_skill(seat, inst, ctx, cost_cards=ans.get("cost"))

    def play_options(self: Game, seat: int) -> list[dict[str, Any]]:
        """Every legal play-phase action (also the auto-play and timeout menu)."""
        opts: list[dict[str, Any]] = []
        converts: dict[str, str] = {}
        for inst in self.p(seat).skills:
            converts.update(self.sdef(inst.key).convert)
        for _cid, key in self.equipment_skills(seat):
            converts.update(self.sdef(key).convert)
        treated = self.treated_faces(seat)  # 8.11.2: a locked 视为 leaves no other choice
        for cid in self.hand(seat):
            key = self.card(cid).key
            as_keys = (None, converts[key]) if key in converts else (None,)
            for as_key in (treated[key],) if key in treated else as_keys:
                k = as_key or key
                if self.can_use_card(seat, k):
                    mode, targets = self.card_targets(seat, k)
                    opts.append({"a": "card", "card": cid, "as": as_key, "mode": mode, "targets": targets})
        for inst in self.p(seat).skills:
            sd = self.sdef(inst.key)
            if sd.kind not in ("active", "limited", "faith") or sd.timing is not None:
                continue
            ctx = Ctx(me=seat, skill=inst)
            if not self.skill_available(seat, inst, ctx):
                continue
            opt = self._skill_option(seat, sd, ctx, uid=inst.uid, exclude=[])
            if opt is not None:
                opts.append(opt)
        for cid, key in self.equipment_skills(seat):
            sd = self.sdef(key)
            if sd.kind != "active" or sd.timing is not None:
                continue
            ctx = Ctx(me=seat, source_card=cid)
            if not self.eval(ctx, sd.condition):
                continue
            opt = self._skill_option(seat, sd, ctx, uid=f"e{cid}:{key}", exclude=[cid])
            if opt is not None:
                opts.append(opt)
        opts.append({"a": "end", "mode": "none", "targets": []})
        return opts

    def _skill_option(
        self: Game, seat: int, sd: Any, ctx: Any, *, uid: Any, exclude: list[int]
    ) -> dict[str, Any] | None:
        targets: list[int] = []
        mode = "none"
        if sd.targets == "one":
            mode = "one"
            targets = [t for t in self.action_order(seat) if self.eval(ctx, sd.target_filter, t=t)]
            if not targets:
                return None
        elif sd.targets == "self":
            mode, targets = "self", [seat]
        opt: dict[str, Any] = {"a": "skill", "uid": uid, "key": sd.key, "mode": mode, "targets": targets}
        if sd.cost_cards:
            source = self.owned(seat) if sd.cost_zone == "owned" else self.hand(seat)
            pool = [c for c in source if c not in exclude]
            if len(pool) < sd.cost_cards:
                return None
            opt["cost_n"] = sd.cost_cards
            opt["cost_from"] = pool
        return opt

    # ================================================================== result (1.1)
    def end_game(self: Game, winners: list[int], result: str) -> None:
        self.state.winners = sorted(winners)
        self.state.result = result
        self.emit("game_over", winners=sorted(winners), result=result)

    def check_victory(self: Game) -> bool:
        if self.state.winners is not None:
            return True
        m = self.pack.maps[self.state.map]
        alive = self.alive_seats()
        if not alive:
            self.end_game([], "all_dead")
            return True
        if m.win == "teams":
            teams = {self.p(s).team for s in alive}
            if len(teams) == 1:
                team = teams.pop()
                self.end_game([p.seat for p in self.state.players if p.team == team], "team")
                return True
            return False
        if len(alive) == 1:
            self.end_game(alive, "last_alive")
            return True
        return False

    def round_end(self: Game) -> Gen:
        yield from self.fire("round.end", None, {})
        m = self.pack.maps[self.state.map]
        if m.win == "faith_temple":
            alive = self.alive_seats()
            top = max(self.p(s).faith for s in alive)
            at_top = [s for s in alive if self.p(s).faith == top]
            if len(at_top) == 1 and top > 0 and self.p(at_top[0]).faith == self.p(at_top[0]).max_faith:
                self.end_game(at_top, "faith")
                raise GameOver

    def reward(self: Game, killer: int, victim: int) -> Gen:
        """奖惩 (5.16/5.33) from the map card; killing an ally uses ``on_kill_ally``."""
        m = self.pack.maps[self.state.map]
        ally = m.teams != "none" and self.p(killer).team == self.p(victim).team
        effects = m.on_kill_ally if ally else m.on_kill
        self.emit("reward", killer=killer, victim=victim, ally=ally)
        yield from self.run_effects(Ctx(me=killer, data={"killer": killer, "victim": victim}), list(effects))
