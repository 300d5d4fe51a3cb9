"""托管 and AI seats: one team-aware policy in two styles (see :mod:`.ai_play` for the play phase).

* **托管** (:data:`~.ai_play.TAKEOVER`, a player who is away): plays to win for its side —
  attacks enemies, defends, heals itself or an ally, equips, draws, rescues its own side; never
  an action that may harm an ally, and never a risk to its own 血量 (a 拼点, paying 血量).
* **AI seats** (:data:`~.ai_play.AI`, a seat the host filled with ``AI·N``): the same, plus
  those risks.  An AI seat's user id starts with :data:`AI_PREFIX`; a player's seat handed to
  the AI (``.moe quit ai``) carries the ``ai`` flag instead (:func:`is_ai_player`).

Team-aware: allies are the other members of the seat's team on a map with teams (双王国: seats
alternate), nobody on a free-for-all map (:mod:`.ai_judge`).  Gifts go to allies only (none on a
free-for-all map unless the rules force one).  The policy reads only what the seat may know: public
facts, its own hand and 奥秘, and the open request.  It answers every request at once, a
response window too, whatever it holds, so its answers tell the group nothing the uniform windows
of :mod:`.windows` hide.  Its choices are logged as inputs like any answer (replay never runs it).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .ai_judge import allies, card_effects, enemies, find_op, friends, harms_side, impact, skill_effects
from .ai_play import AI, TAKEOVER, Style, View, option_impact, play_answer, risky
from .base import Ctx
from .cards import VirtualCard

if TYPE_CHECKING:
    from .engine import Ask, Game
    from .state import Player

AI_PREFIX = "ai:"
"""User ids of AI seats (``ai:1``): never a QQ number, so never messaged."""
AI_NAME = "AI·{n}"


def is_ai_user(user: str) -> bool:
    return user.startswith(AI_PREFIX)


def is_ai_player(p: Player) -> bool:
    """An AI seat: one the host filled (``AI·N``), or one its player handed to the AI for the
    rest of the game (``.moe quit ai``: the ``ai`` flag, set by the ``ai`` admin input)."""
    return is_ai_user(p.user) or bool(p.flags.get("ai"))


def is_ai(g: Game, seat: int) -> bool:
    return is_ai_player(g.p(seat))


def style_of(g: Game, seat: int) -> Style:
    return AI if is_ai(g, seat) else TAKEOVER


def policy_answer(g: Game, ask: Ask, rng: random.Random, style: Style | None = None) -> Any:
    """The answer of seat ``ask.seat`` (a plain request: a window's ``for_seat`` view)."""
    v = View(g, ask.seat, style or style_of(g, ask.seat), rng)
    return ANSWERS[ask.kind](v, ask)


# ---------------------------------------------------------------------- per kind
def _invoke(v: View, ask: Ask) -> bool:
    """是否发动: paying faith for a talent bonus, or a skill whose reading helps its side or harms
    an enemy and can find a fitting character to choose."""
    if ask.reason == "talent":
        return True
    key = ask.info.get("skill")
    if not isinstance(key, str) or key not in v.g.pack.skills:
        return False
    trig = dict(ask.info.get("trigger") or {})
    return _worth(v, skill_effects(v.g, key), trig)


def _worth(v: View, effects: list[dict[str, Any]], trig: dict[str, Any]) -> bool:
    """Whether running ``effects`` for the seat in the trigger context ``trig`` is good for it."""
    g, seat = v.g, v.seat
    data = {k: trig[k] for k in ("source", "victim", "user", "n", "attribute") if k in trig}
    about = trig.get("about")
    if isinstance(trig.get("card"), str):
        data["card"] = VirtualCard(key=trig["card"])
    imp = option_impact(v, effects, data, about if isinstance(about, int) else None)
    if harms_side(g, seat, imp):
        return False
    ctx = Ctx(me=seat, target=about if isinstance(about, int) else None, data=data)
    for arg in find_op(effects, "choose_player"):
        role = imp.chosen.get(str(arg.get("var", "chosen")), "help")
        legal = _legal(g, ctx, str(arg.get("filter", "True")))
        fits = set(enemies(g, seat)) if role == "harm" else friends(g, seat)
        if not arg.get("optional") and not fits & set(legal):
            return False
    foes = set(enemies(g, seat))
    if any(risky(g, seat, s, effects, None) for s in imp.harm & foes):
        return False
    return bool(imp.help & v.mine) or bool(imp.harm & foes) or "harm" in imp.chosen.values()


def _legal(g: Game, ctx: Ctx, flt: str) -> list[int]:
    out = []
    for t in g.alive_seats():
        try:
            if g.eval(ctx, flt, t=t):
                out.append(t)
        except Exception:  # the filter needs more than the trigger told: assume anyone
            out.append(t)
    return out


def _respond(v: View, ask: Ask) -> Any:
    """A window or a 奥秘 pause: a one-tap pass when holding nothing, else by its reason."""
    if not ask.options:
        return None
    return RESPONSES.get(ask.reason, lambda _v, _a: None)(v, ask)


def _offset(v: View, ask: Ask) -> Any:
    """抵消: always defend (the card used on us is one that can be offset, so it hurts)."""
    return ask.options[0]


def _nullify(v: View, ask: Ask) -> Any:
    """反制: only a card an enemy uses that may harm our side."""
    g, info = v.g, ask.info
    user, key, target = info.get("user"), info.get("card"), info.get("target")
    if not isinstance(key, str) or key not in g.pack.cards or user in v.mine:
        return None
    imp = impact(
        g, card_effects(g, key), Ctx(me=user, target=target, card=VirtualCard(key=key), data={"user": user})
    )
    return ask.options[0] if imp.harm & v.mine else None


def _rescue(v: View, ask: Ask) -> Any:
    """救援: our own side only."""
    return ask.options[0] if ask.info.get("dying") in v.mine else None


def _secret(v: View, ask: Ask) -> Any:
    """A 奥秘 pause: flip the first one worth it (never against an ally)."""
    trig = dict(ask.info.get("trigger") or {})
    for cid in ask.options:
        if _worth(v, card_effects(v.g, v.g.card(cid).key), trig):
            return cid
    return None


def _choose_cards(v: View, ask: Ask) -> list[Any]:
    """Own cards: the highest for a 拼点 (the lowest against an ally: its loser takes the harm),
    the least wanted for a discard or a cost."""
    if ask.optional:
        return []
    if ask.reason == "pindian":  # against its own side: the lowest, so an ally is not the loser
        low = ask.info.get("with") in v.mine
        return [max(ask.options, key=lambda c: ((-1 if low else 1) * v.g.card(c).rank, -v.card_value(c)))]
    return v.cheapest(list(ask.options), ask.lo)


def _choose_blind(v: View, ask: Ask) -> list[Any]:
    """Another's cards: an enemy's equipment first (its face is public), else hand cards at
    random; an own-side character's hand cards (when forced) rather than its equipment."""
    opts = list(ask.options)
    n = ask.lo
    equip = [o for o in opts if str(o).startswith("e")]
    rest = [o for o in opts if o not in equip]
    v.rng.shuffle(rest)
    if ask.info.get("owner") in v.mine:
        return (rest + equip)[:n]
    return (equip + rest)[:n]


def _choose_players(v: View, ask: Ask) -> list[Any]:
    """A character the running skill or card names: an enemy when it harms (the one with the
    least HP), an own-side character when it helps (the most hurt)."""
    g = v.g
    role = _chosen_role(v, ask.reason)
    opts = list(ask.options)
    foes = [s for s in opts if s in set(enemies(g, v.seat))]
    mine = [s for s in opts if s in v.mine]
    if role == "harm":
        pick = sorted(foes, key=lambda s: (g.p(s).hp_value, s))
    else:
        pick = sorted(mine, key=lambda s: (-g.p(s).lost_hp, s != v.seat, s))
    if pick:
        return pick[: max(ask.lo, 1)]
    if ask.optional:
        return []
    others = [s for s in opts if s not in v.mine] if role == "harm" else opts
    return (others or opts)[: ask.lo]


def _chosen_role(v: View, reason: str) -> str:
    """The role (``harm``/``help``) of the character a running settlement asks the seat to choose."""
    effects, ctx = _running(v)
    if effects is None or ctx is None:
        return "harm"
    imp = impact(v.g, effects, ctx)
    for arg in find_op(effects, "choose_player"):
        if str(arg.get("reason", "choose_player")) == reason:
            return imp.chosen.get(str(arg.get("var", "chosen")), "harm")
    return "harm"


def _running(v: View) -> tuple[list[dict[str, Any]] | None, Ctx | None]:
    """The effects of the innermost skill or card use on the stack, with their context."""
    g = v.g
    for frame in reversed(g.stack):
        if frame.kind == "skill" and frame.data.get("skill") in g.pack.skills:
            return skill_effects(g, frame.data["skill"]), Ctx(me=v.seat, target=None, data={})
        if frame.kind == "use" and isinstance(frame.data.get("card"), VirtualCard):
            key = frame.data["card"].key
            return card_effects(g, key), Ctx(
                me=v.seat, target=frame.data.get("current"), data=dict(frame.data)
            )
    return None, None


def _choose_option(v: View, ask: Ask) -> int:
    """A character: the sturdiest (HP, then faith, then skills); an effect's option: the first
    whose reading helps the side most without harming it."""
    g = v.g
    if ask.reason == "character":

        def sturdy(i: int) -> tuple[float, int]:
            cd = g.pack.characters.get(str(ask.options[i]))
            return ((cd.max_hp * 2 + cd.max_faith * 0.5 + len(cd.skills)) if cd else 0.0, -i)

        return max(range(len(ask.options)), key=sturdy)
    effects, ctx = _running(v)
    if effects is None or ctx is None:
        return 0
    for arg in find_op(effects, "choose_option"):
        labels = [o.get("label") for o in arg.get("options", []) if isinstance(o, dict)]
        if not set(ask.options) <= set(labels):
            continue
        for i, label in enumerate(ask.options):
            opt = next(o for o in arg["options"] if o.get("label") == label)
            if not harms_side(g, v.seat, impact(g, list(opt.get("effect", [])), ctx)):
                return i
    return 0


def _distribute(v: View, ask: Ask) -> list[Any]:
    """Gifts: the least wanted cards to the ally with the fewest cards; nobody when there is no
    ally (unless forced: then the fewest cards the rules allow to the first listed)."""
    to = list(ask.info.get("to", []))
    mates = [s for s in to if s in set(allies(v.g, v.seat))]
    if mates:
        mate = min(mates, key=lambda s: (len(v.g.hand(s)), s))
        return [[mate, v.cheapest(list(ask.options), max(ask.lo, 1))]]
    if ask.optional:
        return []
    return [[to[0], v.cheapest(list(ask.options), ask.lo)]]


def _arrange(v: View, ask: Ask) -> list[Any]:
    """The deck top: the seat's most wanted cards first."""
    return sorted(ask.options, key=lambda c: -v.card_value(c))


def _first(v: View, ask: Ask) -> int:
    return 0


ANSWERS: dict[str, Callable[[View, Any], Any]] = {
    "invoke": _invoke,
    "respond": _respond,
    "choose_cards": _choose_cards,
    "choose_blind": _choose_blind,
    "choose_players": _choose_players,
    "choose_option": _choose_option,
    "order": _first,
    "distribute": _distribute,
    "arrange": _arrange,
    "play": play_answer,
}
"""The answer to each kind of request (dispatch table)."""

RESPONSES: dict[str, Callable[[View, Any], Any]] = {
    "offset": _offset,
    "nullify": _nullify,
    "rescue": _rescue,
    "secret": _secret,
}
"""Response windows and 奥秘 pauses by reason; any other reason passes."""

__all__ = [
    "AI",
    "AI_NAME",
    "AI_PREFIX",
    "TAKEOVER",
    "Style",
    "is_ai",
    "is_ai_player",
    "is_ai_user",
    "policy_answer",
    "style_of",
]
