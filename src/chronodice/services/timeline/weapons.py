"""TimeLine weapons on the active character: ``.setupWP`` (import) and ``.wp`` (list/select/show/delete).

Adding or removing a weapon reports the load (负重) and 敏捷 change it causes.
"""

from __future__ import annotations

from chronodice.core.commands import Call, command
from chronodice.core.errors import NotFound
from chronodice.core.reply import Reply
from chronodice.render import timeline as view
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline.character import TLCharacter, add_weapon, delete_weapon, select_weapon
from chronodice.rules.timeline.importing import SETUPWP_USAGE, parse_setupwp
from chronodice.rules.timeline.rounding import fmt

from ._common import SYS_CN, SYSTEM, _active, _glued_alias, _index, _mutate, _num


# ====================================================================== weapons
def _weight_lines(old: TLCharacter, new: TLCharacter) -> list[str]:
    a, b = old.derived(), new.derived()
    return [
        f"负重变更: {fmt(a.carried)}→{fmt(b.carried)}/{fmt(b.max_load)}",
        f"负重修正变更: {fmt(a.weight_rev)}→{fmt(b.weight_rev)}",
        f"敏捷变更: {fmt(old.check('dexterity'))}→{fmt(new.check('dexterity'))}",
    ]


@command(
    "setupWP",
    usage=SETUPWP_USAGE,
    summary="导入武器（人物卡武器行生成的 .setupWP 整行），负重计入角色",
    system=SYS_CN,
)
async def cmd_setupwp(call: Call) -> list[Reply]:
    fields_ = parse_setupwp(call.args)
    rec, _ = await _active(call)
    old, new, _ = await _mutate(call, rec, lambda c: (add_weapon(c, fields_), None))
    return [Reply.say("\n".join([f"{new.name}增加武器[{fields_['name']}]√", *_weight_lines(old, new)]))]


@command("wp", usage=".wp [序号 | show | del 序号]", summary="武器：列表 / 选择 / 查看 / 删除", system=SYS_CN)
async def cmd_wp(call: Call) -> list[Reply]:
    if _glued_alias(call, ("show", "del")):
        return []
    rec, char = await _active(call)
    tokens = call.args.split()
    if not tokens:
        if not char.weapons:
            raise NotFound(f"{char.name}还没有武器×")
        lines = [f"您共持有{len(char.weapons)}个武器"]
        for k, w in enumerate(char.weapons, 1):
            lines.append(f"[{'●' if w.uid == char.active_weapon else k}] {w.name}")
        lines.append("请在指令后使用索引数字来更改武器选择")
        return [Reply.say("\n".join(lines))]
    head = tokens[0].lower()
    if "show" in head or head in ("查看", "显示"):
        weapon = char.weapon()
        ammo = None
        if call.ctx.group_id is not None and weapon.load is not None:
            raw, _ = await call.app.store.load_session(call.ctx.scope, SYSTEM)
            if raw is not None:
                ammo = bt.ammo_left(bt.BattleState.from_dict(raw), f"c{rec.id}", weapon)
        return [Reply.say(view.weapon_show(weapon, ammo))]
    if head.startswith("del") or head == "删除":
        if len(tokens) < 2:
            raise call.usage_error("请给出要删除的武器序号")
        k = _index(tokens[1])
        old, new, gone = await _mutate(call, rec, lambda c: delete_weapon(c, k))
        return [Reply.say("\n".join([f'已删除武器"{gone.name}"√', *_weight_lines(old, new)]))]
    if len(tokens) == 1 and _num(tokens[0]) is not None:
        k = _index(tokens[0])
        _, new, _ = await _mutate(call, rec, lambda c: (select_weapon(c, k), None))
        return [Reply.say(f'已选择武器"{new.weapon().name}"√')]
    raise call.usage_error("无法理解的参数")
