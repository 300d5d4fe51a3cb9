"""A tiny interpreter for the tick20 scenario files (``scenarios.yaml``).

Each scenario lists combatants and steps; a step is a string (``start``, ``next``, ``delay``,
``skip``) or a one-key mapping (``turns``, ``at``, ``expect``, ``eff`` …).  Every
``turns`` item ``R1 t17 A -3`` asserts that A's turn is in progress at round 1 tick 17, ends it
and, when a number is given, asserts A's value right after END_TURN (BASE C, SPD I).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from chronodice.core import errors
from chronodice.rules.tick20 import engine as E
from chronodice.rules.tick20.checks import d20_from_dice
from chronodice.rules.tick20.durations import parse_duration
from chronodice.rules.tick20.health import gauge_total
from chronodice.rules.tick20.model import Combat, Event, InitMod, InitRoll, Variant
from chronodice.rules.tick20.two_die import two_die_from_dice

TURN = re.compile(r"^R(\d+) t(\d+) (\S+)(?: (-?\d+))?$")


def roll_from(spec: dict[str, Any]) -> InitRoll:
    dice = tuple(spec["dice"])
    if spec.get("sizes"):
        r = two_die_from_dice(tuple(spec["sizes"]), (dice[0], dice[1]), spec.get("mod", 0))
        return InitRoll(dice=list(r.dice), die=sum(r.dice), total=r.total, two_die=True, doubles=r.doubles)
    roll = d20_from_dice(dice, spec.get("mod", 0), edge=spec.get("edge"))
    return InitRoll(dice=list(roll.dice), die=roll.die, total=roll.total, nat=roll.nat, edge=roll.edge)


@dataclass
class Runner:
    state: Combat
    last: list[Event] = field(default_factory=list)
    saved: dict[str, str] = field(default_factory=dict)
    rng: random.Random = field(default_factory=lambda: random.Random(20))

    # ------------------------------------------------------------------ helpers
    def cid(self, name: str) -> str:
        return E.find(self.state, str(name)).id

    def apply(self, outcome: E.Outcome) -> None:
        self.state, self.last = outcome

    def where(self) -> str:
        st = self.state
        cur = st.maybe(st.current)
        return f"R{st.round} t{st.tick} {cur.name if cur else '-'}"

    def add(self, spec: dict[str, Any] | str) -> None:
        if isinstance(spec, str):
            name, value = spec.split()
            spec = {"name": name, "value": int(value)}
        kwargs: dict[str, Any] = {}
        if "roll" in spec:
            kwargs["roll"] = roll_from(spec["roll"])
        else:
            kwargs["value"] = spec["value"]
        if "mod" in spec:
            kwargs["init_mod"] = spec["mod"]
        if spec.get("pc"):
            kwargs["controller"] = f"u-{spec['name']}"
        for key in ("lv", "side", "ap_max", "spd_base", "hidden"):
            if key in spec:
                kwargs[key] = spec[key]
        if "spd" in spec:
            kwargs["spd_base"] = spec["spd"]
        self.apply(E.add_combatant(self.state, spec["name"], **kwargs))
        if spec.get("surprised"):
            self.apply(E.surprise(self.state, [self.cid(spec["name"])]))
        if "expect_placed" in spec:
            placed = [ev.data["placed"] for ev in self.last if ev.kind == "join"]
            assert placed == [spec["expect_placed"]], placed

    # ------------------------------------------------------------------ steps
    def step(self, step: Any) -> None:
        if isinstance(step, str):
            name, arg = step, None
        else:
            ((name, arg),) = step.items()
        getattr(self, "do_" + name)(arg)

    def do_start(self, _: Any) -> None:
        self.apply(E.start(self.state))

    def do_next(self, arg: Any) -> None:
        for _ in range(int(arg or 1)):
            self.apply(E.end_turn(self.state))

    def do_skip(self, _: Any) -> None:
        self.apply(E.end_turn(self.state, skip=True))

    def do_delay(self, _: Any) -> None:
        self.apply(E.delay(self.state))

    def do_add(self, arg: Any) -> None:
        self.add(arg)

    def do_turns(self, items: list[str]) -> None:
        for item in items:
            m = TURN.match(item)
            assert m, item
            r, t, who, value = m.groups()
            self.do_at(f"R{r} t{t} {who}")
            cid = self.state.current
            self.apply(E.end_turn(self.state))
            if value is not None:
                ends = [ev.data["cur"] for ev in self.last if ev.kind == "turn_end" and ev.data["cid"] == cid]
                got = ends[0]
                assert got == int(value), f"{item}: value after the turn is {got}"

    def do_at(self, spec: str) -> None:
        m = TURN.match(spec)
        assert m, spec
        r, t, who, _ = m.groups()
        assert self.where() == f"R{r} t{t} {who}", f"expected {spec}, at {self.where()}"

    def do_expect(self, spec: dict[str, Any]) -> None:
        st = self.state
        for key, want in spec.items():
            if key == "serial":
                assert st.g == want, (key, st.g)
            elif key in ("round", "tick", "turn_no", "waiting"):
                assert getattr(st, key) == want, (key, getattr(st, key))
            elif key == "advantage":
                assert st.advantage == want, st.advantage
            else:
                c = st.get(self.cid(key))
                for attr, value in want.items():
                    got: Any
                    if attr == "die":
                        got = c.roll.die if c.roll else None
                    elif attr == "gauges":
                        got = [g.hp for g in c.health.hg[: len(value)]]
                    elif attr == "hp":
                        got = gauge_total(c.health.hg, c.health.mp_debt)[0]
                    elif attr == "wounds":
                        part = next(p for p in c.health.parts if p.name == value[0])
                        got = [value[0], sorted(w.level for w in part.wounds)]
                    elif attr == "ta":
                        got = c.ta.model_dump() if c.ta else None
                        if isinstance(value, dict) and got is not None:
                            got = {k: got[k] for k in value}
                    else:
                        got = getattr(c, attr)
                    assert got == value, f"{key}.{attr}: {got!r} != {value!r} at {self.where()}"

    def do_eff(self, spec: str | dict[str, Any]) -> None:
        if isinstance(spec, str):
            words = spec.split()
            spec = {"to": words[0], "name": words[1], "dur": words[2] if len(words) > 2 else ""}
            for w in words[3:]:
                k, v = w.split("=", 1)
                spec[k] = v
        duration = parse_duration(spec.get("dur", ""), self.rng)
        if "anchor" in spec:
            duration = duration.model_copy(update={"anchor": self.cid(spec["anchor"])})
        init_mod = None
        if "init" in spec:
            value, _, kind = str(spec["init"]).partition("/")
            init_mod = InitMod(value=int(value), type=kind or "通用")
        self.apply(
            E.add_effect(
                self.state,
                self.cid(spec["to"]),
                spec["name"],
                duration,
                source=self.cid(spec["src"]) if "src" in spec else None,
                init_mod=init_mod,
            )
        )

    def do_mod(self, spec: dict[str, Any]) -> None:
        self.do_eff(
            {
                "to": spec["who"],
                "name": spec["name"],
                "dur": spec.get("dur", ""),
                "init": f"{spec['value']}/{spec.get('type', '通用')}",
            }
        )

    def do_focus(self, spec: str) -> None:
        who, name = spec.split()
        self.apply(E.focus(self.state, self.cid(who), name))

    def do_effect(self, spec: dict[str, Any]) -> None:
        bearer = self.cid(spec["to"])
        hits = [e for e in self.state.effects if e.bearer == bearer and e.name == spec["name"]]
        if spec.get("absent"):
            assert not hits, f"{spec['name']} still on {spec['to']} at {self.where()}"
            return
        assert len(hits) == 1, f"{spec['name']} not on {spec['to']} at {self.where()}"
        for key in ("remaining", "end_round"):
            if key in spec:
                assert getattr(hits[0], key) == spec[key], (key, getattr(hits[0], key))

    def do_ended(self, names: list[str]) -> None:
        got = [ev.data["effect"] for ev in self.last if ev.kind == "effect_end"]
        assert got == names, got

    def do_last_events(self, wanted: list[dict[str, Any]]) -> None:
        pos = 0
        for want in wanted:
            while pos < len(self.last):
                ev = self.last[pos]
                pos += 1
                if ev.kind == want["kind"] and all(
                    ev.data.get(k) == v for k, v in want.items() if k != "kind"
                ):
                    break
            else:
                raise AssertionError(f"event {want} not found in order in {[e.kind for e in self.last]}")

    def do_no_events(self, kinds: list[str]) -> None:
        got = [ev.kind for ev in self.last if ev.kind in kinds]
        assert not got, got

    def do_ap(self, spec: dict[str, Any] | str) -> None:
        if isinstance(spec, str):
            who, cost, *kind = spec.split()
            spec = {"who": who, "cost": int(cost), "kind": kind[0] if kind else "SA"}
        self.apply(E.spend_ap(self.state, self.cid(spec["who"]), spec["cost"], spec.get("kind", "SA")))

    def do_set_ap(self, spec: str) -> None:
        who, value = spec.split()
        self.apply(E.set_ap(self.state, self.cid(who), value=int(value)))

    def do_ta(self, spec: dict[str, Any]) -> None:
        self.apply(
            E.start_ta(self.state, self.cid(spec["who"]), spec["name"], spec["total"], spec.get("pay"))
        )

    def do_pay(self, spec: str) -> None:
        who, *amount = spec.split()
        self.apply(E.pay_ta(self.state, self.cid(who), int(amount[0]) if amount else None))

    def do_set(self, spec: str) -> None:
        who, value = spec.split()
        self.apply(E.place(self.state, self.cid(who), int(value)))

    def do_rm(self, spec: str) -> None:
        who, *flags = spec.split()
        self.apply(E.remove(self.state, self.cid(who), force="force" in flags))

    def do_swap(self, spec: str) -> None:
        a, b = spec.split()
        self.apply(E.swap(self.state, self.cid(a), self.cid(b)))

    def do_first(self, who: str) -> None:
        self.apply(E.first(self.state, self.cid(who)))

    def do_wound(self, spec: dict[str, Any]) -> None:
        kwargs = {k: spec[k] for k in ("level", "count", "hit", "dp", "dr", "tags") if k in spec}
        self.apply(E.wound(self.state, self.cid(spec["who"]), spec["part"], **kwargs))

    def do_gauges(self, spec: dict[str, Any]) -> None:
        self.apply(E.set_gauges(self.state, self.cid(spec["who"]), hg=spec.get("hg"), mg=spec.get("mg")))

    def do_hg(self, spec: dict[str, Any]) -> None:
        attacker = self.cid(spec["by"]) if "by" in spec else None
        self.apply(
            E.hit_gauges(
                self.state,
                self.cid(spec["who"]),
                spec["amount"],
                attacker=attacker,
                heal=spec.get("heal", False),
            )
        )

    def do_next_expecting(self, which: str) -> None:
        """End the turn with ``expected_turn`` set to a remembered turn number (C02)."""
        self.apply(E.end_turn(self.state, expected_turn=int(self.saved[which])))

    def do_remember_turn(self, name: str) -> None:
        self.saved[name] = str(self.state.turn_no)

    def do_error(self, spec: dict[str, Any]) -> None:
        before = self.state.model_dump_json()
        exc_type = getattr(errors, spec["raises"])
        try:
            self.step(spec["step"])
        except exc_type as exc:
            if "message" in spec:
                assert spec["message"] in str(exc), str(exc)
        else:
            raise AssertionError(f"{spec['step']} did not raise {spec['raises']}")
        assert self.state.model_dump_json() == before, "state changed by a refused command"


def run_scenario(spec: dict[str, Any]) -> Runner:
    variant = Variant(spec.get("variant", "base"))
    runner = Runner(E.new_combat("gm", variant=variant, **spec.get("options", {})))
    for c in spec.get("combatants", []):
        runner.add(c)
    for step in spec.get("steps", []):
        try:
            runner.step(step)
        except AssertionError as exc:
            raise AssertionError(f"step {step!r}: {exc}") from exc
    return runner
