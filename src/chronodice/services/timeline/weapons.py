"""TimeLine weapons on the active character: ``.setupWP`` (import) and ``.wp`` (list/select/show/delete).

Adding or removing a weapon reports the load (负重) and 敏捷 change it causes.
"""

from __future__ import annotations

from chronodice.core.args import Int, arg, opt, rest
from chronodice.core.commands import Call, define
from chronodice.core.errors import NotFound
from chronodice.core.limits import MAX_MESSAGE_CHARS
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle_actions as ba
from chronodice.rules.timeline.character import TLCharacter, add_weapon, delete_weapon, select_weapon
from chronodice.rules.timeline.importing import SETUPWP_USAGE, parse_setupwp
from chronodice.rules.timeline.load import overload_note
from chronodice.rules.timeline.rounding import fmt
from chronodice.services.timeline.codec import BATTLE_CODEC

from ._common import SYS_CN, active_tl, mutate_tl


# ====================================================================== weapons
def _weight_lines(old: TLCharacter, new: TLCharacter) -> list[str]:
    a, b = old.derived(), new.derived()
    return [
        f"负重变更: {fmt(a.carried)}→{fmt(b.carried)}/{fmt(b.max_load)}",
        f"负重修正变更: {fmt(a.weight_rev)}→{fmt(b.weight_rev)}",
        f"敏捷变更: {fmt(old.check('dexterity'))}→{fmt(new.check('dexterity'))}",
        *([note] if (note := overload_note(b)) else []),
    ]


setupwp = define(
    "setupWP",
    summary="导入武器（人物卡武器行生成的 .setupWP 整行），负重计入角色",
    detail="格式：" + SETUPWP_USAGE,
    system=SYS_CN,
)


@setupwp.sub(
    params=[rest("line", "武器整行", max_len=MAX_MESSAGE_CHARS)], help="导入一件武器", when_empty=True
)
async def cmd_setupwp(call: Call, line: str) -> list[Reply]:
    fields_ = parse_setupwp(line)
    rec, _ = await active_tl(call)
    old, new, _ = await mutate_tl(call, rec, lambda c: (add_weapon(c, fields_), None))
    return [Reply.say("\n".join([f"{new.name}增加武器[{fields_['name']}]√", *_weight_lines(old, new)]))]


wp = define("wp", summary="武器：列表 / 选择 / 查看 / 删除", system=SYS_CN)
INDEX = Int(label="序号")


@wp.sub(params=[opt("index", INDEX)], help="列出武器；给出序号则选择该武器", when_empty=True)
async def wp_select(call: Call, index: int | None) -> list[Reply]:
    rec, char = await active_tl(call)
    if index is None:
        if not char.weapons:
            raise NotFound(f"{char.name}还没有武器×")
        lines = [f"您共持有{len(char.weapons)}个武器"]
        for k, w in enumerate(char.weapons, 1):
            lines.append(f"[{'●' if w.uid == char.active_weapon else k}] {w.name}")
        lines.append("请在指令后使用索引数字来更改武器选择")
        return [Reply.say("\n".join(lines))]
    _, new, _ = await mutate_tl(call, rec, lambda c: (select_weapon(c, index), None))
    return [Reply.say(f'已选择武器"{new.weapon().name}"√')]


@wp.sub("show", "查看", "显示", help="查看当前武器")
async def wp_show(call: Call) -> list[Reply]:
    rec, char = await active_tl(call)
    weapon = char.weapon()
    ammo = None
    if call.ctx.group_id is not None and weapon.load is not None:
        state = await call.app.store.sessions.load_state(call.ctx.scope, BATTLE_CODEC)
        if state is not None:
            ammo = ba.ammo_left(state, f"c{rec.id}", weapon)
    return [Reply.say(view.weapon_show(weapon, ammo, level=char.level))]


@wp.sub("del", "删除", params=[arg("index", INDEX)], help="删除一件武器")
async def wp_del(call: Call, index: int) -> list[Reply]:
    rec, _ = await active_tl(call)
    old, new, gone = await mutate_tl(call, rec, lambda c: delete_weapon(c, index))
    return [Reply.say("\n".join([f'已删除武器"{gone.name}"√', *_weight_lines(old, new)]))]
