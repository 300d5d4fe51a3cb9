""".log: session records.  While a log is on, the NoneBot plugin records every message of the
group (players' chatter and commands, the bot's replies) with ``recorder.record``; these commands
start, pause, end, export, list, delete and count them.  Rendering and statistics are pure
(:mod:`.export`: our txt and HTML; :mod:`.formats`: SealDice's log JSON and the text SealDice,
Dice! and OlivaDice share; :mod:`.stat`); :mod:`.split` writes the files, in parts when a log
is over the size limit."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from chronodice.core.args import Text, arg, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, NotFound, NotPermitted
from chronodice.core.permissions import GM_WHO
from chronodice.core.reply import Reply, ReplyFile
from chronodice.core.text import safe_name
from chronodice.services.teams import spectators
from chronodice.store import GameLog, LogLine

from .export import ExportHead, Pieces, html_pieces, safe_file_stem, txt_pieces
from .formats import dice_txt_pieces, sealdice_pieces
from .split import TooLarge, export_paths, size_text, write_export
from .stat import stat_text

LOG_NAME = Text(label="名字", max_len=40)

FILES_NOTE = (
    "文件：.txt 纯文本、.html 网页（浏览器打开）、.json 海豹日志格式（可导入海豹染色器）、"
    ".dice.txt 海豹/Dice!/OlivaDice 通用文本格式"
)
"""Which files ``.log end`` / ``.log get`` hand out, as the help and the replies say it."""

FORMATS: tuple[tuple[str, Callable[[ExportHead, Sequence[LogLine]], Pieces]], ...] = (
    ("txt", txt_pieces),
    ("html", html_pieces),
    ("json", sealdice_pieces),
    ("dice.txt", dice_txt_pieces),
)
"""The export formats as (file ending, renderer), in the order their files are handed out
(the same order as :data:`.split.EXTS`)."""

log = define(
    "log",
    summary="跑团日志：记录本群全部发言、指令和骰娘的回复，结束时导出文本和网页文件",
    detail=(
        "例：.log new 第一夜 开始；.log off 暂停；.log on 继续；.log end 结束并上传日志文件"
        "（太大时分成多份）\n"
        f"{FILES_NOTE}\n"
        "结束、暂停、删除：日志的创建者、GM、群主/管理员、骰主；暗骰的结果不会进入日志"
    ),
    group_only=True,
)


def _group(call: Call) -> str:
    assert call.ctx.group_id is not None
    return call.ctx.group_id


async def _require_manager(call: Call, rec: GameLog, what: str) -> None:
    """The log's creator, a GM of the group (owner, admin, appointed GM) or a superuser."""
    if call.ctx.user_id == rec.creator_id or await call.app.is_gm(call.ctx):
        return
    raise NotPermitted(f"只有日志的创建者或{GM_WHO}可以{what}")


async def _managed_log(call: Call, missing: str, what: str) -> GameLog:
    """The log in progress, which the sender may manage (else ``missing`` / the refusal)."""
    current = await call.app.store.logs.active_log(_group(call))
    if current is None:
        raise NotFound(missing)
    await _require_manager(call, current, what)
    return current


def _state_line(rec: GameLog, head: ExportHead) -> str:
    state = "记录中" if rec.recording else "已暂停（.log on 继续）"
    return f"日志「{rec.name}」{state}\n开始于 {head.when(rec.created_at)}，已记录 {rec.lines} 条"


@log.sub("show", "查看", when_empty=True, help="查看进行中的日志（.log 即可）")
async def log_show(call: Call) -> list[Reply]:
    rec = await call.app.store.logs.find_log(_group(call))
    if rec is None or not rec.in_progress:
        return [Reply.say("本群没有进行中的日志（.log new <名字> 开始记录）")]
    return [Reply.say(_state_line(rec, ExportHead.of(rec, call.app.log_limits.utc_offset_hours)))]


@log.sub("new", "新建", params=[arg("name", LOG_NAME)], help="新建日志并开始记录")
async def log_new(call: Call, name: str) -> list[Reply]:
    name = safe_name(name.strip())
    rec = await call.app.store.logs.new_log(
        _group(call),
        name,
        call.ctx.user_id,
        call.app.clock.wall(),
        max_logs=call.app.log_limits.max_logs,
        claim=call.claim,
    )
    return [
        Reply.say(f"开始记录日志「{rec.name}」：之后本群的发言都会记下（.log off 暂停，.log end 结束并导出）")
    ]


@log.sub("on", "继续", params=[opt("name", LOG_NAME)], help="继续记录；带名字时重新打开已结束的日志")
async def log_on(call: Call, name: str | None) -> list[Reply]:
    store = call.app.store
    current = await store.logs.active_log(_group(call))
    if current is not None:
        await _require_manager(call, current, "继续记录")
    elif name:
        old = await store.logs.find_log(_group(call), name)
        if old is not None:
            await _require_manager(call, old, "重新打开日志")
    rec, changed = await store.logs.set_log_recording(_group(call), True, name, claim=call.claim)
    if not changed:
        return [Reply.say(f"日志「{rec.name}」已经在记录中")]
    return [Reply.say(f"继续记录日志「{rec.name}」")]


@log.sub("off", "暂停", help="暂停记录（日志仍在进行，.log on 继续）")
async def log_off(call: Call) -> list[Reply]:
    await _managed_log(call, "本群没有进行中的日志，无需暂停", "暂停日志")
    rec, changed = await call.app.store.logs.set_log_recording(_group(call), False, claim=call.claim)
    if not changed:
        return [Reply.say(f"日志「{rec.name}」已经暂停了")]
    return [Reply.say(f"已暂停记录日志「{rec.name}」（.log on 继续）")]


@log.sub("end", "结束", help="结束记录，导出并上传日志文件（txt、html、海豹 json、通用 dice.txt）")
async def log_end(call: Call) -> list[Reply]:
    await _managed_log(call, "本群没有进行中的日志（.log get 导出已结束的日志）", "结束日志")
    rec = await call.app.store.logs.end_log(_group(call), call.app.clock.wall(), claim=call.claim)
    files, note = await export_files(call, rec)
    text = f"日志「{rec.name}」已结束，共 {rec.lines} 条"
    return [Reply(text=text + note + "\n" + FILES_NOTE, files=files)]


@log.sub("get", "导出", params=[opt("name", LOG_NAME)], help="导出日志文件（默认：进行中或最近的一份）")
async def log_get(call: Call, name: str | None) -> list[Reply]:
    rec = await call.app.store.logs.find_log(_group(call), name)
    if rec is None:
        raise NotFound(f"本群没有名为「{name}」的日志（.log list 查看）" if name else "本群还没有日志")
    files, note = await export_files(call, rec)
    state = "（进行中，导出到此刻为止）" if rec.in_progress else ""
    text = f"日志「{rec.name}」{state}共 {rec.lines} 条" + note + "\n" + FILES_NOTE
    return [Reply(text=text, files=files)]


@log.sub("list", "ls", "列表", help="列出本群的日志")
async def log_list(call: Call) -> list[Reply]:
    logs = await call.app.store.logs.list_logs(_group(call))
    if not logs:
        return [Reply.say("本群还没有日志（.log new <名字> 开始记录）")]
    limits = call.app.log_limits
    lines = [f"本群日志（{len(logs)}/{limits.max_logs}）："]
    for rec in logs:
        head = ExportHead.of(rec, limits.utc_offset_hours)
        state = ("记录中" if rec.recording else "暂停") if rec.in_progress else "已结束"
        lines.append(f"「{rec.name}」{state}，{rec.lines} 条，开始于 {head.when(rec.created_at)}")
    return [Reply.say("\n".join(lines))]


@log.sub("del", "rm", "删除", params=[arg("name", LOG_NAME)], help="删除一份已结束的日志")
async def log_del(call: Call, name: str) -> list[Reply]:
    store = call.app.store
    rec = await store.logs.find_log(_group(call), name)
    if rec is None:
        raise NotFound(f"本群没有名为「{name}」的日志（.log list 查看）")
    await _require_manager(call, rec, "删除日志")
    gone = await store.logs.delete_log(_group(call), name, claim=call.claim)
    folder, stem = export_stem(call, gone)
    for path in export_paths(folder, stem):
        path.unlink(missing_ok=True)
    return [Reply.say(f"已删除日志「{gone.name}」（{gone.lines} 条）和它导出的文件")]


@log.sub("stat", "统计", params=[opt("name", LOG_NAME)], help="每位玩家的发言数、检定次数和成功率")
async def log_stat(call: Call, name: str | None) -> list[Reply]:
    store = call.app.store
    rec = await store.logs.find_log(_group(call), name)
    if rec is None:
        raise NotFound(f"本群没有名为「{name}」的日志（.log list 查看）" if name else "本群还没有日志")
    lines = await store.logs.log_lines(rec.id)
    skip = set(spectators((await store.groups.get_group(call.ctx.scope)).settings))  # .ob: not players
    return [Reply.say(await asyncio.to_thread(stat_text, rec.name, lines, skip))]


def export_stem(call: Call, rec: GameLog) -> tuple[Path, str]:
    """Where a log's exports go: one file of each format per log (or their parts), rewritten by each
    export (the id keeps two names that read the same as file names apart)."""
    return Path(call.app.data_dir.exports) / "logs", f"{rec.group_id}_{rec.id}_{safe_file_stem(rec.name)}"


async def export_files(call: Call, rec: GameLog) -> tuple[tuple[ReplyFile, ...], str]:
    """Write the exports (:data:`FORMATS`) into ``<data>/exports/logs/``; the files to hand out
    and a note for the reply.  A format over ``max_export_bytes`` is split into parts
    (:mod:`.split`: ``名字-1.txt``, ``名字-2.txt``, …), all handed out, and the note says how
    many; a format is left out (noted) only when not even one line fits in the limit."""
    limits = call.app.log_limits
    lines = await call.app.store.logs.log_lines(rec.id)
    head = ExportHead.of(rec, limits.utc_offset_hours)
    folder, stem = export_stem(call, rec)
    shown = safe_file_stem(rec.name)
    files: list[ReplyFile] = []
    split: list[str] = []
    skipped: list[str] = []

    def export(ext: str, pieces: Callable[[ExportHead, Sequence[LogLine]], Pieces]) -> list[Path]:
        return write_export(folder, stem, ext, pieces(head, lines), limits.max_export_bytes)

    for ext, pieces in FORMATS:
        try:
            # off the event loop: a full log (20,000 lines) takes seconds to render
            paths = await asyncio.to_thread(export, ext, pieces)
        except TooLarge:
            skipped.append(ext)
            continue
        if len(paths) == 1:
            files.append(ReplyFile(path=str(paths[0]), name=f"{shown}.{ext}"))
            continue
        split.append(f"{ext} {len(paths)} 份")
        files.extend(ReplyFile(path=str(p), name=f"{shown}-{k}.{ext}") for k, p in enumerate(paths, 1))
    size = size_text(limits.max_export_bytes)
    if not files:
        raise IllegalAction(f"日志「{rec.name}」无法导出：文件大小上限（{size}）太小，连一条消息都放不下")
    note = f"\n文件超过{size}，已分成多份导出：{'、'.join(split)}" if split else ""
    if skipped:
        note += f"\n文件大小上限（{size}）太小，{'/'.join(skipped)} 文件连一条消息都放不下，未导出"
    return tuple(files), note
