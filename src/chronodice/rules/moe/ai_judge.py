"""What an effect does to whom, read from pack data: the judgement behind 托管 and AI seats.

The policies (:mod:`.ai`) never run a settlement to see what it would do; they read the effect
list a card, skill or 奥秘 would run and resolve each character reference (``me``, ``target``,
``source``…) the way the engine would, giving an :class:`Impact`: the seats it may harm and the
seats it helps.  Reading is *conservative*: a primitive the table below does not know counts as
harm to every character it names, and both branches of an ``if``/判定/拼点/选项 count, so a
policy that refuses harm to its own side never harms an ally however a judgement falls.

Sides (:func:`allies`): on a map with teams (``teams: alternate``, e.g. 双王国) a character's
allies are the other living members of its team; on a free-for-all map it has none.

Only public facts and the asking seat's own cards are read (hidden information stays hidden
from the AI too): HP, faith, equipment, hand *counts*, the card or skill being decided on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .base import Ctx
from .cards import VirtualCard

if TYPE_CHECKING:
    from .engine import Game

HELPFUL = frozenset(
    {"draw", "fill_hand", "recover", "recover_to", "gain_faith", "extra_turn", "gain_skill", "arrange_top"}
)
"""Primitives that only benefit the character they name (``who``)."""
PROTECTIVE = frozenset({"cancel_target", "offset", "nullify", "respond_as"})
"""Primitives that shield the character they name from the running settlement."""
NEUTRAL = frozenset({"set", "ignore_armour", "extra_phase", "pay_faith", "give", "prevent_damage"})
"""Primitives that name nobody to harm (a cost the policy weighs separately, or a settlement
switch); ``give`` is judged when the distribution is chosen (only to allies)."""
HARM_KEYS: dict[str, tuple[str, str]] = {
    "damage": ("to", "target"),
    "lose_hp": ("who", "me"),
    "discard_other": ("of", "target"),
    "discard_own": ("who", "me"),
    "discard_seq": ("who", "me"),
    "discard_all": ("who", "me"),
    "skip_turn": ("who", "me"),
    "lose_skill": ("who", "me"),
    "lose_all_skills": ("who", "me"),
    "mark": ("who", "me"),
}
"""Harmful primitives: the key naming the victim and its default reference."""
SEAT_KEYS = ("to", "who", "of", "with", "a", "b", "from")
"""Keys that may name a character in a primitive the tables do not know."""
BRANCHES = ("then", "else", "win", "tie", "red", "black")


@dataclass
class Impact:
    """Seats an effect list may harm, seats it helps, and the roles of the characters the acting
    seat will choose itself (``choose_player`` variables: ``"harm"`` or ``"help"``)."""

    harm: set[int] = field(default_factory=set)
    help: set[int] = field(default_factory=set)
    chosen: dict[str, str] = field(default_factory=dict)
    unknown_harm: bool = False
    """Some harm names a character this reading cannot resolve (counts as anyone)."""
    self_cost: int = 0
    """Faith or cards the acting seat pays (``pay_faith``)."""

    def merge(self, other: Impact) -> None:
        self.harm |= other.harm
        self.help |= other.help
        self.chosen.update(other.chosen)
        self.unknown_harm |= other.unknown_harm
        self.self_cost += other.self_cost


# ---------------------------------------------------------------------- sides
def has_teams(g: Game) -> bool:
    return bool(g.state.map) and g.pack.maps[g.state.map].teams != "none"


def allies(g: Game, seat: int) -> list[int]:
    """The other living members of ``seat``'s team (none on a free-for-all map)."""
    if not has_teams(g):
        return []
    team = g.p(seat).team
    return [s for s in g.alive_seats() if s != seat and g.p(s).team == team]


def friends(g: Game, seat: int) -> set[int]:
    """``seat`` and its allies, dead or alive (a dead ally is still not to be harmed)."""
    if not has_teams(g):
        return {seat}
    team = g.p(seat).team
    return {p.seat for p in g.state.players if p.team == team} | {seat}


def enemies(g: Game, seat: int) -> list[int]:
    """Living characters not on ``seat``'s side."""
    mine = friends(g, seat)
    return [s for s in g.alive_seats() if s not in mine]


# ---------------------------------------------------------------------- reading effects
class Reader:
    """Resolves references and walks an effect list for one context."""

    def __init__(self, g: Game, ctx: Ctx) -> None:
        self.g = g
        self.ctx = ctx
        self.pending: dict[str, set[int]] = {}
        """Variables whose value is one of several seats (a 拼点's winner and loser)."""

    def ref(self, spec: Any, default: str) -> set[int] | None:
        """Seats ``spec`` may name; ``None`` when it cannot be told."""
        spec = default if spec is None else spec
        if isinstance(spec, int) and not isinstance(spec, bool):
            return {spec}
        if not isinstance(spec, str):
            return None
        if spec in self.pending:
            return set(self.pending[spec])
        if spec in self.ctx.vars:
            v = self.ctx.vars[spec]
            return {v} if isinstance(v, int) else set()
        try:
            seat = self.g.who(self.ctx, spec)
        except ValueError:
            return None
        return set() if seat is None else {seat}

    def read(self, effects: list[dict[str, Any]]) -> Impact:
        out = Impact()
        for eff in effects:
            if not isinstance(eff, dict) or len(eff) != 1:
                continue
            ((op, arg),) = eff.items()
            out.merge(self.one(op, arg if isinstance(arg, dict) else {}))
        return out

    def _harm(self, out: Impact, spec: Any, default: str) -> None:
        seats = self.ref(spec, default)
        if seats is None:
            out.unknown_harm = True
        else:
            out.harm |= seats

    def _help(self, out: Impact, spec: Any, default: str) -> None:
        seats = self.ref(spec, default)
        if seats:
            out.help |= seats

    def one(self, op: str, arg: dict[str, Any]) -> Impact:
        out = Impact()
        handler = SPECIAL.get(op)
        if handler is not None:
            handler(self, arg, out)
        elif op in HELPFUL or op in PROTECTIVE:
            self._help(out, arg.get("who"), "me")
        elif op in HARM_KEYS:
            key, default = HARM_KEYS[op]
            self._harm(out, arg.get(key), default)
        elif op not in NEUTRAL:  # unknown: harm to whoever it names, else to the target
            named = [arg[k] for k in SEAT_KEYS if k in arg]
            for spec in named or ["target"]:
                self._harm(out, spec, "target")
        if op == "pay_faith":
            out.self_cost += 1
        for key in BRANCHES:
            sub = arg.get(key)
            if isinstance(sub, list):
                out.merge(self.read(sub))
        return out


def _obtain(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    """Taking a card: harm to its owner, help to the taker."""
    r._harm(out, arg.get("of"), "target")
    r._help(out, arg.get("who"), "me")


def _pindian(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    a, b = r.ref(arg.get("who"), "me"), r.ref(arg.get("with"), "target")
    both = (a or set()) | (b or set())
    out.harm |= b or set()
    r.pending["winner"] = r.pending["loser"] = both


def _exchange(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    for spec, default in ((arg.get("a"), "me"), (arg.get("b"), "target")):
        seats = r.ref(spec, default)
        out.harm |= (seats or set()) - {r.ctx.me}


def _modify(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    """A number of the running settlement: more damage harms its victim, less helps it; any
    other number (a draw count) is the acting seat's."""
    try:
        add = int(r.g.eval(r.ctx, arg.get("add", 0)))
    except Exception:  # an expression needing more than the policy knows: count as harm
        add = 1
    victim = r.ctx.data.get("victim")
    if arg.get("field") == "n" and isinstance(victim, int):
        (out.harm if add > 0 else out.help).add(victim)
    else:
        out.help.add(r.ctx.me)


def _transfer(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    r._harm(out, arg.get("to"), "me")
    victim = r.ctx.data.get("victim")
    if isinstance(victim, int):
        out.help.add(victim)


def _change_max_hp(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    try:
        n = int(r.g.eval(r.ctx, arg.get("n", 1)))
    except Exception:
        n = -1
    (r._help if n > 0 else r._harm)(out, arg.get("who"), "me")


def _hand_limit(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    helps = arg.get("op") == "加" and isinstance(arg.get("n"), int) and arg["n"] > 0
    (r._help if helps else r._harm)(out, arg.get("who"), "me")


def _skip_phases(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    """Skipping a draw or play phase harms the turn's owner; skipping the others (弃牌) helps."""
    lost = set(arg.get("phases", [])) & {"draw", "play"}
    (out.harm if lost else out.help).add(r.g.state.turn.seat)


def _choose_player(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    """The acting seat picks: later references to the variable decide the role."""
    var = str(arg.get("var", "chosen"))
    chooser = r.ref(arg.get("who"), "me")
    if chooser == {r.ctx.me}:
        out.chosen[var] = "pending"
        r.ctx.vars.pop(var, None)
        r.pending[var] = {CHOSEN}
    else:
        r.pending[var] = set(r.g.alive_seats())


def _choose_option(r: Reader, arg: dict[str, Any], out: Impact) -> None:
    for opt in arg.get("options", []):
        if isinstance(opt, dict):
            out.merge(r.read(list(opt.get("effect", []))))


CHOSEN = -99
"""Stand-in seat for a character the acting seat will choose itself."""

SPECIAL = {
    "obtain_from": _obtain,
    "pindian": _pindian,
    "exchange": _exchange,
    "modify": _modify,
    "transfer_damage": _transfer,
    "change_max_hp": _change_max_hp,
    "hand_limit": _hand_limit,
    "skip_phases": _skip_phases,
    "choose_player": _choose_player,
    "choose_option": _choose_option,
}
"""Primitives read by their own rule (dispatch table)."""


def impact(g: Game, effects: list[dict[str, Any]], ctx: Ctx) -> Impact:
    """What ``effects`` run in ``ctx`` may do; a chosen character's role is ``"harm"`` when the
    effects harm it, else ``"help"``."""
    r = Reader(g, Ctx(me=ctx.me, target=ctx.target, card=ctx.card, data=dict(ctx.data), vars=dict(ctx.vars)))
    out = r.read(effects)
    if CHOSEN in out.harm:
        out.harm.discard(CHOSEN)
        for var in out.chosen:
            out.chosen[var] = "harm"
    out.help.discard(CHOSEN)
    for var, role in out.chosen.items():
        if role == "pending":
            out.chosen[var] = "help"
    return out


def harms_side(g: Game, seat: int, imp: Impact, *, self_ok: bool = False) -> bool:
    """Whether ``imp`` may harm ``seat``'s allies (or ``seat`` itself unless ``self_ok``)."""
    mine = friends(g, seat) - ({seat} if self_ok else set())
    return imp.unknown_harm or bool(imp.harm & mine)


def card_effects(g: Game, key: str) -> list[dict[str, Any]]:
    cd = g.cdef(key)
    return [*cd.effect, *cd.bonus]


def skill_effects(g: Game, key: str) -> list[dict[str, Any]]:
    sd = g.sdef(key)
    return [*sd.cost, *sd.effect]


def ops_in(effects: list[dict[str, Any]]) -> set[str]:
    """Every primitive name in ``effects``, branches included."""
    out: set[str] = set()
    for eff in effects:
        if not isinstance(eff, dict):
            continue
        for op, arg in eff.items():
            out.add(op)
            if isinstance(arg, dict):
                for key in BRANCHES:
                    if isinstance(arg.get(key), list):
                        out |= ops_in(arg[key])
                for opt in arg.get("options", []) if op == "choose_option" else []:
                    if isinstance(opt, dict):
                        out |= ops_in(list(opt.get("effect", [])))
    return out


def find_op(effects: list[dict[str, Any]], op: str) -> list[dict[str, Any]]:
    """The arguments of every ``op`` in ``effects``, branches included, in order."""
    out: list[dict[str, Any]] = []
    for eff in effects:
        if not isinstance(eff, dict):
            continue
        for name, arg in eff.items():
            if not isinstance(arg, dict):
                continue
            if name == op:
                out.append(arg)
            for key in BRANCHES:
                if isinstance(arg.get(key), list):
                    out.extend(find_op(arg[key], op))
            for opt in arg.get("options", []) if name == "choose_option" else []:
                if isinstance(opt, dict):
                    out.extend(find_op(list(opt.get("effect", [])), op))
    return out


def redirect_risk(g: Game, seat: int, victim: int, attribute: str | None, card: str | None = None) -> bool:
    """Whether harm ``seat`` aims at ``victim`` (damage, or a card ``card`` used on it) may be
    turned onto ``seat``'s side by one of ``victim``'s visible skills — a character or equipment
    skill that transfers the damage (5.8(2)) or the card's target (5.8(1)) — judged from public
    facts: its condition now and the characters it could choose."""
    mine = friends(g, seat)
    data: dict[str, Any] = {"source": seat, "user": seat, "victim": victim, "attribute": attribute, "n": 1}
    data["_about"] = victim
    if card is not None:
        data["card"] = VirtualCard(key=card)
    keys = [inst.key for inst in g.p(victim).skills] + [key for _cid, key in g.equipment_skills(victim)]
    for key in keys:
        sd = g.sdef(key)
        moves = any(op.startswith("transfer") for op in ops_in(sd.effect))
        if not sd.timing or not sd.timing.startswith(("damage", "use.")) or not moves:
            continue
        ctx = Ctx(me=victim, target=victim, data=dict(data))
        try:
            if sd.faith_cost > g.p(victim).faith or not g.eval(ctx, sd.condition):
                continue
        except Exception:  # a condition needing more than we know: assume it may fire
            pass
        for arg in find_op(list(sd.effect), "choose_player"):
            for t in g.alive_seats():
                try:
                    legal = bool(g.eval(ctx, str(arg.get("filter", "True")), t=t))
                except Exception:
                    legal = True
                if legal and t in mine:
                    return True
    return False
