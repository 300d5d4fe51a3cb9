"""``.rc`` in a group set to ``.set dnd5e``: D&D 5e ability checks, skill checks and saving
throws; ``.rs`` the saving throw on its own.

``.rc`` is not a command of its own here: the spec below is not registered (``.rc``'s root
belongs to the D20 tick check); ``.rc``'s resolver (:func:`chronodice.services.coc7.checks.resolve_rc`)
hands the message to it in dnd5e groups through :data:`chronodice.services.modes.RC_BY_MODE`.

Forms: ``.rc 察觉``, ``.rc 力量 15`` / ``.rc 隐匿 DC15``, ``.rc 察觉 优势``, ``.rc 优势 隐匿``,
``.rc 运动 +2 劣势``, ``.rc 察觉 15 听门后``; saves ``.rc 敏捷豁免``, ``.rc dex save``,
``.rc 豁免 敏捷``, ``.rs 敏捷 DC13``.  The reply names the active card (else the sender).
"""

from __future__ import annotations

from chronodice.core.args import Candidates, Flag, Int, Name, ParseEnv, Pattern, flag, opt
from chronodice.core.commands import Call, CommandSpec, define
from chronodice.core.reply import CheckNote, Reply
from chronodice.rules.dnd5e import D20Check, Target, roll_check

from ..coc7.checks import Reason
from ..modes import RC_BY_MODE
from .common import SYS_NAME, dnd_only, sheet_of

SAVE_FLAG_WORDS = ("豁免", "save", "saving")
DC = Pattern(regex=r"(?:[dD][cC]\s*)?([0-9]{1,3})(?![0-9dD])", label="DC", convert=lambda m: int(m.group(1)))
MOD = Flag("mods", Int(label="±N", signed=True, sign_required=True, min=-99, max=99), many=True, label="±N")
ADV = flag("adv", "优势", "adv", label="优势")
DIS = flag("dis", "劣势", "dis", label="劣势")


class _Reason(Reason):
    """The reason, never starting with a word that is a flag here (``.rc dex save``: a save,
    not a Dex check "because save")."""

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        head = text[pos:].split(maxsplit=1)[0].lower() if text[pos:].strip() else ""
        if head in FLAG_WORDS:
            return
        yield from super().candidates(text, pos, env)


FLAG_WORDS = (*SAVE_FLAG_WORDS, "优势", "劣势", "adv", "dis")


class _What(Name):
    """The ability or skill, never a word that is a flag here (``.rc 优势 隐匿``, ``.rc 豁免 敏捷``:
    the flag first), nor one glued behind such a Chinese word (``.rc 优势隐匿``)."""

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        for value, end in super().candidates(text, pos, env):
            word = str(value).lower()
            if (
                word in FLAG_WORDS
                or word.startswith(("优势", "劣势"))
                or (word.startswith("豁免") and len(word) > 2)
            ):
                continue
            if word.endswith(("优势", "劣势")) and text[end - 2 : end] in ("优势", "劣势"):
                yield str(value)[:-2], end - 2  # .rc 隐匿优势: the flag glued behind
                continue
            yield value, end


WHAT = opt("what", _What(label="属性/技能"))
REASON = opt("reason", _Reason(label="理由", max_len=40), default="", label="理由")
SAVE = flag("save", *SAVE_FLAG_WORDS, label="豁免")


def die_text(check: D20Check, adv: bool) -> str:
    if len(check.dice) == 2:
        return f"2D20{'优势' if adv else '劣势'}=[{check.dice[0]},{check.dice[1]}]→{check.kept}"
    return f"D20={check.kept}"


def check_reply(
    call: Call, target: Target, dc: int | None, reason: str, adv: bool, dis: bool, mods: list[int]
) -> list[Reply]:
    """Roll ``target`` and say it: ``托林 的敏捷豁免检定：D20=12+4(敏捷+熟练)=16 对 DC13 成功``."""
    check = roll_check(call.app.rng, target.modifier + sum(mods), advantage=adv, disadvantage=dis, dc=dc)
    parts = f"{target.modifier:+d}({target.source})" + "".join(f"{m:+d}" for m in mods)
    label = target.label + (f"（{reason}）" if reason else "")
    text = f"{call.player_name} 的{label}检定：{die_text(check, adv)}{parts}={check.total}"
    if check.dc is not None:
        text += f" 对 DC{check.dc} " + ("成功" if check.success else "失败")
    if check.kept == 20:
        text += "（天然20）"
    elif check.kept == 1:
        text += "（天然1）"
    expr = ("D20" if len(check.dice) == 1 else "D20" + ("优势" if adv else "劣势")) + f" + {check.modifier}"
    note = CheckNote(
        target.label,
        "掷出" if check.dc is None else "成功" if check.success else "失败",
        check.success,
        rule="dnd5e",
        items=((expr, target.label, check.total),),
    )
    return [Reply(text=text, check=note)]


dnd_rc = CommandSpec(
    name="rc",
    summary="DnD5e检定：.rc 察觉、.rc 力量 15、.rc 隐匿 优势 DC12、.rc 敏捷豁免",
    detail=(
        "d20+调整值对 DC：属性 ⌊(属性值−10)/2⌋；技能/豁免：卡上写的总加值，否则属性调整值"
        "（.st 标了熟练*的加熟练加值，专精**加两倍）；优势/劣势掷两颗取高/低\n"
        "豁免：.rc 敏捷豁免、.rc dex save、.rc 豁免 敏捷（或 .rs 敏捷）"
    ),
    system=SYS_NAME,
)


@dnd_rc.sub(
    params=[WHAT, opt("dc", DC), REASON],
    flags=[ADV, DIS, SAVE, MOD],
    help="属性、技能或豁免检定，可带优势/劣势、±N 和 DC",
)
async def cmd_dnd_rc(
    call: Call,
    what: str | None,
    dc: int | None,
    reason: str,
    adv: bool,
    dis: bool,
    save: bool,
    mods: list[int],
) -> list[Reply]:
    hint = "请写出属性或技能，如 .rc 察觉、.rc 力量 15、.rc 敏捷豁免"
    return _roll(call, what, hint, save=save, dc=dc, reason=reason, adv=adv, dis=dis, mods=mods)


def _roll(
    call: Call,
    what: str | None,
    hint: str,
    *,
    save: bool,
    dc: int | None,
    reason: str,
    adv: bool,
    dis: bool,
    mods: list[int],
) -> list[Reply]:
    """``.rc`` and ``.rs``: the active card's check (a save when ``save``); ``hint`` when the
    attribute or skill is missing."""
    if what is None:
        raise call.usage_error(hint)
    char = call.view.character if call.view is not None else None
    target = sheet_of(char).target(what, save=save)
    return check_reply(call, target, dc, reason, adv, dis, mods)


RC_BY_MODE["dnd5e"] = dnd_rc


rs = dnd_only(
    define(
        "rs",
        summary="DnD5e豁免检定：.rs 敏捷、.rs dex DC13、.rs 感知 优势",
        detail="d20+豁免加值：卡上写的「敏捷豁免」总加值，否则敏捷调整值（.st 敏捷豁免* 标熟练则加熟练加值）",
        system=SYS_NAME,
    )
)


@rs.sub(
    params=[WHAT, opt("dc", DC), REASON],
    flags=[ADV, DIS, SAVE, MOD],
    help="豁免检定，可带优势/劣势、±N 和 DC",
)
async def cmd_rs(
    call: Call,
    what: str | None,
    dc: int | None,
    reason: str,
    adv: bool,
    dis: bool,
    save: bool,
    mods: list[int],
) -> list[Reply]:
    hint = "请写出豁免的属性，如 .rs 敏捷、.rs dex DC13"
    return _roll(call, what, hint, save=True, dc=dc, reason=reason, adv=adv, dis=dis, mods=mods)


__all__ = ["check_reply", "dnd_rc", "rs"]
