"""Effects that change checks (issue 26): what a combatant's running effects do to her next check.

An effect added with ``.init eff 艾琳 恐惧 2轮 -劣势`` (or ``-检定 -2状态``, ``-优势``) applies to
every check its bearer makes while it lasts: ``.rc`` by her player or for her (``名字:``), and both
sides of ``.atk``.  Typed modifiers stack as any others do (the largest bonus and penalty of each
type, :func:`chronodice.rules.tick20.modifiers.stack`); advantage and disadvantage from effects
join the ones written, and both at once cancel (002 优势与劣势).  A tag effect named after a part
status (``.init eff 艾琳 残障:臂部 3轮``) makes that part count as <残障> for ``-部位`` (−4 状态).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chronodice.rules.tick20.model import Combat
from chronodice.rules.tick20.modifiers import Modifier


@dataclass(frozen=True)
class EffectEdge:
    """The effects' share of one check: typed modifiers, advantage, disadvantage, and the names
    of the effects that gave them (shown in the reply)."""

    mods: list[Modifier] = field(default_factory=list)
    adv: bool = False
    dis: bool = False
    names: tuple[str, ...] = ()

    @property
    def note(self) -> str:
        """``（效果：恐惧 劣势）`` for a reply, empty when no effect acted."""
        if not self.names:
            return ""
        edge = " 优势" if self.adv and not self.dis else " 劣势" if self.dis and not self.adv else ""
        return f"（效果：{'、'.join(self.names)}{edge}）"


def effect_edge(state: Combat | None, cid: str | None) -> EffectEdge:
    """What the running effects on ``cid`` do to her checks.

    >>> from chronodice.rules.tick20.model import Effect, InitMod
    >>> st = Combat(effects=[Effect(id=1, name="恐惧", bearer="c1", edge="劣势"),
    ...     Effect(id=2, name="祝福", bearer="c1", check_mod=InitMod(value=2, type="状态"))])
    >>> e = effect_edge(st, "c1"); (e.dis, [m.value for m in e.mods], e.note)
    (True, [2], '（效果：恐惧、祝福 劣势）')
    >>> effect_edge(st, "c2").note
    ''
    """
    if state is None or cid is None:
        return EffectEdge()
    mods: list[Modifier] = []
    adv = dis = False
    names: list[str] = []
    for e in state.effects:
        if e.bearer != cid or (e.check_mod is None and e.edge is None):
            continue
        names.append(e.name)
        if e.check_mod is not None:
            mods.append(Modifier(e.check_mod.value, e.check_mod.type, source=e.name))
        adv = adv or e.edge == "优势"
        dis = dis or e.edge == "劣势"
    return EffectEdge(mods, adv, dis, tuple(names))


def tagged_status(state: Combat, cid: str, part: str) -> str | None:
    """A part status an effect on ``cid`` gives ``part`` (``<残障:臂部>`` → 残障), else ``None``.

    >>> from chronodice.rules.tick20.model import Effect
    >>> tagged_status(Combat(effects=[Effect(id=1, name="<残障:臂部>", bearer="c1")]), "c1", "臂部")
    '残障'
    """
    for e in state.effects:
        if e.bearer != cid:
            continue
        tag = e.name.strip("<>‹›《》")
        status, _, where = tag.partition(":")
        if where == part and status in ("负伤", "残障", "欠损"):
            return status
    return None


__all__ = ["EffectEdge", "effect_edge", "tagged_status"]
