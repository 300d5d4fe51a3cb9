"""``.rc`` in a group set to ``.set dnd5e``: D&D 5e ability and skill checks.

Not a command of its own: the spec below is not registered (``.rc``'s root belongs to the D20
tick check); ``.rc``'s resolver (:func:`chronodice.services.coc7.checks.resolve_rc`) hands the
message to it in dnd5e groups through :data:`chronodice.services.modes.RC_BY_MODE`.

Forms: ``.rc 察觉``, ``.rc 力量 15`` / ``.rc 隐匿 DC15``, ``.rc 察觉 优势``, ``.rc 运动 +2 劣势``,
``.rc 察觉 15 听门后``.
"""

from __future__ import annotations

from chronodice.core.args import Flag, Int, Name, Pattern, flag, opt
from chronodice.core.commands import Call, CommandSpec
from chronodice.core.reply import Reply
from chronodice.rules.dnd5e import check_modifier, roll_check

from .coc7.checks import Reason
from .modes import RC_BY_MODE

DC = Pattern(regex=r"(?:[dD][cC]\s*)?([0-9]{1,3})(?![0-9])", label="DC", convert=lambda m: int(m.group(1)))
MOD = Flag("mods", Int(label="±N", signed=True, sign_required=True, min=-99, max=99), many=True, label="±N")

dnd_rc = CommandSpec(
    name="rc",
    summary="DnD5e检定：.rc 察觉、.rc 力量 15、.rc 隐匿 优势 DC12",
    detail="d20+调整值（属性：⌊(属性值−10)/2⌋；技能：卡上写的技能加值，否则其属性的调整值）；总值≥DC 成功",
    system="DnD5e",
)


@dnd_rc.sub(
    params=[
        opt("what", Name(label="属性/技能")),
        opt("dc", DC),
        opt("reason", Reason(label="理由", max_len=40), default="", label="理由"),
    ],
    flags=[flag("adv", "优势", "adv", label="优势"), flag("dis", "劣势", "dis", label="劣势"), MOD],
    help="属性或技能检定，可带优势/劣势、±N 和 DC",
)
async def cmd_dnd_rc(
    call: Call, what: str | None, dc: int | None, reason: str, adv: bool, dis: bool, mods: list[int]
) -> list[Reply]:
    if what is None:
        raise call.usage_error("请写出属性或技能，如 .rc 察觉、.rc 力量 15")
    char = call.view.character if call.view is not None else None
    modifier, source = check_modifier(char.attributes if char is not None else {}, what)
    extra = sum(mods)
    check = roll_check(call.app.rng, modifier + extra, advantage=adv, disadvantage=dis, dc=dc)
    if len(check.dice) == 2:
        die = f"2D20{'优势' if adv else '劣势'}=[{check.dice[0]},{check.dice[1]}]→{check.kept}"
    else:
        die = f"D20={check.kept}"
    parts = f"{modifier:+d}({source})" + "".join(f"{m:+d}" for m in mods)
    label = what + (f"（{reason}）" if reason else "")
    text = f"{call.name} 的{label}检定：{die}{parts}={check.total}"
    if check.dc is not None:
        text += f" 对 DC{check.dc} " + ("成功" if check.success else "失败")
    return [Reply.say(text)]


RC_BY_MODE["dnd5e"] = dnd_rc

__all__ = ["dnd_rc"]
