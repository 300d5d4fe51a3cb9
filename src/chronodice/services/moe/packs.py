"""``.moe packs``: the packs a group can play (built-in and those under ``<data dir>/packs``),
and the problems of the invalid files there (which are skipped, never loaded).  The answer stays
short whatever a file holds: a few problems per file, each quoting at most
:data:`~chronodice.rules.moe.packtext.QUOTE_LIMIT` characters of a value."""

from __future__ import annotations

from chronodice.core.commands import Call
from chronodice.core.reply import Reply
from chronodice.rules.moe import catalog
from chronodice.rules.moe.pack import problem_count
from chronodice.rules.moe.packtext import brief

from ._common import PACK, moe

MAX_PROBLEMS = 8
"""Problems shown per invalid file (the log has all of them)."""


def render_packs() -> str:
    """The text of ``.moe packs``: usable listed packs, then each invalid file and its first
    :data:`MAX_PROBLEMS` problems."""
    lines = ["萌E卡包（.moe new 卡包名 [地图] 选用）："]
    bad: list[catalog.Entry] = []
    for e in catalog.listed():
        if e.pack is None:
            bad.append(e)
            continue
        p = e.pack
        maps = "、".join(m.name for m in p.maps.values())
        default = "，默认" if e.name == PACK else ""
        alias = f"（又名{'、'.join(p.alias)}）" if p.alias else ""
        lines.append(
            f"· {e.name}「{p.name}」{alias}：{len(p.characters)}名角色，{len(p.deck)}张牌，"
            f"地图 {maps}（{e.source}{default}）"
        )
    for e in bad:
        total = problem_count(e.problems)
        lines.append(f"× {brief(e.path.name)}（{e.source}）无效，已跳过，共{total}处问题：")
        lines.extend(f"  - {p}" for p in e.problems[:MAX_PROBLEMS])
        if total > MAX_PROBLEMS:
            lines.append(f"  - ……另有{total - MAX_PROBLEMS}处，见日志")
    return "\n".join(lines)


def broken_pack_text(word: str) -> str | None:
    """Why ``.moe new <word>`` cannot use the invalid pack file ``word`` (its first problems), or
    ``None`` when no invalid listed file has that name (then the word may be a map)."""
    found = catalog.problems_of(word)
    if found is None:
        return None
    file, problems = found
    total = problem_count(problems)
    lines = [f"卡包「{brief(word, 40)}」（{brief(file, 60)}）无效，不能开局，共{total}处问题："]
    lines.extend(f"- {p}" for p in problems[:NEW_PROBLEMS])
    more = f"另有{total - NEW_PROBLEMS}处，" if total > NEW_PROBLEMS else ""
    lines.append(f"（{more}.moe packs 查看；修好文件后无需重启）")
    return "\n".join(lines)


NEW_PROBLEMS = 3
"""Problems ``.moe new`` quotes for an invalid pack (``.moe packs`` shows more)."""


@moe.sub("packs", "卡包", help="可用的卡包（内置与数据目录中的），以及无效卡包的问题")
async def moe_packs(call: Call) -> list[Reply]:
    return [Reply.say(render_packs())]
