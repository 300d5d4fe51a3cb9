"""Effects (tick20.md §2.6): add (with the no-stacking rule, concentration, parents), remove,
【聚焦】.  Countdowns and expiry run in the tick loop (:mod:`.loop`); dropping an effect and its
initiative modifier is :class:`._base.EngineBase` bookkeeping."""

from __future__ import annotations

from typing import Literal

from chronodice.core.errors import AmbiguousInput, InputSyntaxError, LimitExceeded, NotFound

from ..model import Combat, Duration, DurationKind, Effect, InitMod, Phase
from ._base import COUNTED, MAX_EFFECTS, MAX_NAME
from .loop import Engine, require_phase, transition
from .wounds import exhaust


@transition
def add_effect(
    eng: Engine,
    bearer: str,
    name: str,
    duration: Duration | None = None,
    *,
    source: str | None = None,
    init_mod: InitMod | None = None,
    parent: int | None = None,
    concentration: bool = False,
    description: str = "",
    replace: bool = False,
    check_mod: InitMod | None = None,
    edge: Literal["优势", "劣势"] | None = None,
) -> None:
    """Give ``bearer`` an effect (tick20.md §2.6); ``check_mod``/``edge``: what it does to her
    checks while it lasts (issue 26)."""
    st = eng.st
    require_phase(st, Phase.SETUP, Phase.ACTIVE)
    target = st.get(bearer)
    name = name.strip()
    duration = _checked(st, target.id, name, duration, source, parent)
    setup = not eng.active
    st.seq += 1
    effect = Effect(
        id=st.next_eid,
        name=name,
        bearer=target.id,
        source=source,
        description=description[:100],
        duration=duration,
        remaining=duration.amount if duration.kind in COUNTED else None,
        end_round=(0 if setup else st.round) + 1 if duration.kind is DurationKind.FOCUS else None,
        born_seq=st.seq,
        born_g=1 if setup else st.g + 1 if st.waiting else st.g,
        born_round=1 if setup else st.round,
        init_mod=init_mod,
        parent=parent,
        concentration=concentration,
        check_mod=check_mod,
        edge=edge,
    )
    if not _replaces_same(eng, target.id, effect, replace=replace):
        return
    if concentration and source is not None:
        for old in [e for e in st.effects if e.concentration and e.source == source]:
            eng.drop_effect(old.id, "concentration")
    st.next_eid += 1
    st.effects.append(effect)
    eng.emit(
        "effect_add",
        eid=effect.id,
        effect=name,
        bearer=target.id,
        source=source,
        amount=duration.amount,
        dice=duration.dice,
        hidden=duration.hidden,
    )
    if init_mod is not None:
        eng.refresh_init(target.id)
    if name.strip("<>") == "力竭":  # 002 精力值: <力竭> from another cause sets SP to 0
        exhaust(eng, target)


def _checked(
    st: Combat, bearer: str, name: str, duration: Duration | None, source: str | None, parent: int | None
) -> Duration:
    """The checks before an effect is added (its name, the effect limit, the anchor, source
    and parent exist); the duration to use (an anchor on the bearer herself is no anchor)."""
    if not name or len(name) > MAX_NAME:
        raise InputSyntaxError(f"效果名应为1~{MAX_NAME}个字")
    if len(st.effects) >= MAX_EFFECTS:
        raise LimitExceeded(f"效果最多{MAX_EFFECTS}个")
    duration = duration or Duration()
    if duration.anchor is not None:
        st.get(duration.anchor)
        if duration.anchor == bearer:
            duration = duration.model_copy(update={"anchor": None})
    if source is not None:
        st.get(source)
    if parent is not None and st.effect(parent) is None:
        raise NotFound("父效果不存在")
    return duration


def _replaces_same(eng: Engine, bearer: str, effect: Effect, *, replace: bool) -> bool:
    """Effects of one name on one bearer do not stack: whether the new ``effect`` goes on (it
    replaces one lasting no longer, or any with ``replace``) or the old one is kept."""
    for old in [e for e in eng.st.effects if e.bearer == bearer and e.name == effect.name]:
        if not replace and eng.remaining_ticks(old) >= eng.remaining_ticks(effect):
            eng.emit("not_stacked", effect=effect.name, bearer=bearer, kept="old")
            return False
        eng.drop_effect(old.id, "replaced")
        eng.emit("not_stacked", effect=effect.name, bearer=bearer, kept="new")
    return True


@transition
def remove_effect(eng: Engine, bearer: str, name: str | None = None) -> None:
    """Remove one effect by name, or all effects of ``bearer``."""
    st = eng.st
    c = st.get(bearer)
    hits = [e for e in st.effects if e.bearer == c.id and (name is None or e.name == name)]
    if name is not None and not hits:
        hits = [e for e in st.effects if e.bearer == c.id and name in e.name]
        if len(hits) > 1:
            raise AmbiguousInput("可能是：" + "/".join(e.name for e in hits[:6]))
    if not hits:
        raise NotFound(f"{c.shown} 身上没有效果「{name}」" if name else f"{c.shown} 身上没有效果")
    for e in hits:
        eng.drop_effect(e.id, "removed")


@transition
def focus(eng: Engine, bearer: str, name: str) -> None:
    """【聚焦】: a 焦点 effect now lasts to the end of the next round."""
    st = eng.st
    require_phase(st, Phase.ACTIVE)
    c = st.get(bearer)
    hits = [
        e for e in st.effects if e.bearer == c.id and e.name == name and e.duration.kind is DurationKind.FOCUS
    ]
    if not hits:
        raise NotFound(f"{c.shown} 身上没有焦点效果「{name}」")
    for e in hits:
        e.end_round = st.round + 1
        eng.emit("focused", effect=e.name, bearer=c.id, end_round=e.end_round)
