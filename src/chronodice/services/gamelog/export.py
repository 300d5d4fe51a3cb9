"""Pure rendering of a ``.log``: the plain-text file, the self-contained HTML page, and the
message parts recorded for each line.  No store, no NoneBot, no clock: the golden files in
``tests/services/golden/`` pin the output.

A line's ``parts`` are ``[kind, value]`` pairs:
``text`` (the text), ``at`` (the name shown after ``@``), ``image`` (its URL, or the platform's
file id when there is none), ``face`` (a QQ face id), ``other`` (a segment type we do not show).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from chronodice.store import GameLog, LogLine

BOT_COLOR = "#6b7280"
PALETTE = (
    "#c0392b",
    "#2471a3",
    "#1e8449",
    "#8e44ad",
    "#d35400",
    "#117a65",
    "#b7950b",
    "#a93226",
    "#2e4053",
    "#7d3c98",
    "#1a5276",
    "#6e2c00",
)
"""Speaker colours, given in order of first appearance (the same speaker keeps one colour)."""

_OUTCOMES = re.compile(r"(大成功|极难成功|困难成功|大失败|成功|失败)")
_DICE = re.compile(r"(?<![A-Za-z0-9])(\d*[dD](?:\d+|%|F)(?:[kKqQ][hHlL]?\d*)?)(?![A-Za-z0-9])")
_RESULT = re.compile(r"(=\s*-?\d+(?:\.\d+)?)")
_GOOD = ("大成功", "极难成功", "困难成功", "成功")


@dataclass(frozen=True)
class ExportHead:
    """What the exports say about the log: its name, group, times and the zone shown."""

    name: str
    group_id: str
    created_at: datetime | None
    ended_at: datetime | None
    utc_offset_hours: float = 8.0

    @classmethod
    def of(cls, log: GameLog, utc_offset_hours: float = 8.0) -> ExportHead:
        return cls(log.name, log.group_id, log.created_at, log.ended_at, utc_offset_hours)

    @property
    def zone(self) -> str:
        h = self.utc_offset_hours
        return f"UTC{h:+g}" if h else "UTC"

    def when(self, dt: datetime | None) -> str:
        if dt is None:
            return "—"
        tz = timezone(timedelta(hours=self.utc_offset_hours))
        aware = dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
        return aware.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S")


def plain(parts: Iterable[Sequence[str]], *, image_urls: bool = False) -> str:
    """The parts as plain text: ``@名字``, ``[图片]`` (with its URL when asked), ``[表情]``.

    >>> plain([["text", "看 "], ["at", "艾拉"], ["text", " 这个"], ["image", "https://x/1.png"]])
    '看 @艾拉 这个[图片]'
    >>> plain([["image", "https://x/1.png"]], image_urls=True)
    '[图片 https://x/1.png]'
    """
    out = []
    for kind, value in parts:
        if kind == "text":
            out.append(value)
        elif kind == "at":
            out.append(f"@{value}")
        elif kind == "image":
            out.append(f"[图片 {value}]" if image_urls and value else "[图片]")
        elif kind == "face":
            out.append("[表情]")
        else:
            out.append(f"[{value or kind}]")
    return "".join(out)


def speaker(line: LogLine) -> str:
    return f"{line.nickname or line.user_id}({line.user_id})"


@dataclass(frozen=True)
class Part:
    """Which part of a split export a file is: ``index`` of ``count``, holding the log's lines
    ``first`` to ``last`` (1-based)."""

    index: int
    count: int
    first: int
    last: int

    @property
    def label(self) -> str:
        return f"第{self.index}/{self.count}部分"

    @property
    def span(self) -> str:
        return f"本部分为第 {self.first}–{self.last} 条"


@dataclass(frozen=True)
class Pieces:
    """An export cut where it may be split: ``head(part)`` (``None``: the whole log in one
    file), one block per line (never cut; read once, as they are rendered), and ``tail``.
    Every part of a split export is ``head(part) + its blocks joined by sep + tail``: a
    complete file of its own (:mod:`.split`); ``sep`` is what goes between two blocks and not
    after the last (JSON's comma)."""

    head: Callable[[Part | None], str]
    blocks: Iterable[str]
    tail: str
    sep: str = ""

    def whole(self) -> str:
        """The export in one piece (reads the blocks)."""
        return self.head(None) + self.sep.join(self.blocks) + self.tail


def txt_pieces(head: ExportHead, lines: Sequence[LogLine]) -> Pieces:
    """The plain-text file: a header, then each message as ``名字(QQ) 时间`` and its text."""

    def top(part: Part | None) -> str:
        title = f"日志「{head.name}」 群 {head.group_id}"
        when = f"开始 {head.when(head.created_at)}  结束 {head.when(head.ended_at)}（{head.zone}）  共 {len(lines)} 条"
        if part is not None:
            title, when = f"{title}（{part.label}）", f"{when}，{part.span}"
        return f"{title}\n{when}\n"

    blocks = (
        f"\n{speaker(ln)} {head.when(ln.created_at)}\n{plain(ln.parts, image_urls=True)}\n" for ln in lines
    )
    return Pieces(top, blocks, "")


def render_txt(head: ExportHead, lines: Sequence[LogLine]) -> str:
    """The plain-text file in one piece (:func:`txt_pieces`)."""
    return txt_pieces(head, lines).whole()


def colours(lines: Sequence[LogLine]) -> dict[str, str]:
    """Speaker id → colour, by order of first appearance; the bot is grey."""
    got: dict[str, str] = {}
    for ln in lines:
        if ln.user_id not in got:
            players = sum(c != BOT_COLOR for c in got.values())
            got[ln.user_id] = BOT_COLOR if ln.is_bot else PALETTE[players % len(PALETTE)]
    return got


def _highlight(text: str) -> str:
    """Escaped text with dice expressions, ``= N`` results and outcome words marked."""
    esc = html.escape(text, quote=True)
    esc = _DICE.sub(r'<span class="dice">\1</span>', esc)
    esc = _RESULT.sub(r'<b class="res">\1</b>', esc)
    return _OUTCOMES.sub(
        lambda m: f'<b class="{"ok" if m.group(1) in _GOOD else "bad"}">{m.group(1)}</b>', esc
    )


def _parts_html(parts: Iterable[Sequence[str]], *, bot: bool) -> str:
    out = []
    for kind, value in parts:
        if kind == "text":
            out.append(_highlight(value) if bot else html.escape(value, quote=True))
        elif kind == "at":
            out.append(f'<span class="at">@{html.escape(value, quote=True)}</span>')
        elif kind == "image":
            if value.startswith(("http://", "https://")):
                out.append(f'<a class="img" href="{html.escape(value, quote=True)}">[图片]</a>')
            else:
                out.append(f'<span class="img">[图片 {html.escape(value, quote=True)}]</span>')
        elif kind == "face":
            out.append("[表情]")
        else:
            out.append(f"[{html.escape(value or kind, quote=True)}]")
    return "".join(out).replace("\n", "<br>\n")


_CSS = """
body{font-family:"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;max-width:880px;margin:2em auto;
padding:0 1em;background:#fbfaf7;color:#222;line-height:1.6}
h1{font-size:1.4em;margin-bottom:.2em}.meta{color:#666;font-size:.9em;margin-bottom:1.5em}
.msg{margin:.5em 0;padding:.2em .6em;border-left:3px solid var(--c)}
.msg.bot{background:#f1f1ee}.who{color:var(--c);font-weight:bold}.t{color:#999;font-size:.8em;margin-left:.6em}
.cmd .text{font-family:ui-monospace,Consolas,monospace;color:#444}
.dice{color:#1f5fbf;font-family:ui-monospace,Consolas,monospace}.res{color:#b03a2e}
.ok{color:#1e8449}.bad{color:#c0392b}.at{color:#2471a3}.img{color:#8e44ad}
.check{font-size:.8em;color:#555;margin-left:.4em}
""".strip()


def _line_html(ln: LogLine, head: ExportHead, colour: str) -> str:
    text = plain(ln.parts)
    classes = ["msg"]
    if ln.is_bot:
        classes.append("bot")
    elif text.lstrip()[:1] in (".", "。", "．", "/"):
        classes.append("cmd")
    note = ""
    if ln.check:
        outcome = html.escape(str(ln.check.get("outcome", "")), quote=True)
        label = html.escape(str(ln.check.get("label", "")), quote=True)
        note = f'<span class="check">〔{label}·{outcome}〕</span>'
    return (
        f'<div class="{" ".join(classes)}" style="--c:{colour}">'
        f'<span class="who">{html.escape(ln.nickname or ln.user_id, quote=True)}</span>'
        f'<span class="t">{head.when(ln.created_at)}</span>{note}'
        f'<div class="text">{_parts_html(ln.parts, bot=ln.is_bot)}</div></div>\n'
    )


def html_pieces(head: ExportHead, lines: Sequence[LogLine]) -> Pieces:
    """A self-contained page (inline CSS, no scripts, every text escaped); a part of a split
    export is a page of its own, its title and header naming the part (a speaker keeps one
    colour in every part)."""
    colour = colours(lines)

    def top(part: Part | None) -> str:
        title = html.escape(f"日志「{head.name}」", quote=True)
        meta = (
            f"群 {head.group_id} · 开始 {head.when(head.created_at)} · 结束 {head.when(head.ended_at)}"
            f"（{head.zone}）· 共 {len(lines)} 条"
        )
        if part is not None:
            title, meta = f"{title}（{part.label}）", f"{meta} · {part.span}"
        return "\n".join(
            [
                "<!DOCTYPE html>",
                '<html lang="zh-CN">',
                "<head>",
                '<meta charset="utf-8">',
                '<meta name="viewport" content="width=device-width, initial-scale=1">',
                f"<title>{title}</title>",
                f"<style>\n{_CSS}\n</style>",
                "</head>",
                "<body>",
                f"<h1>{title}</h1>",
                f'<div class="meta">{html.escape(meta, quote=True)}</div>',
                "",
            ]
        )

    blocks = (_line_html(ln, head, colour[ln.user_id]) for ln in lines)
    return Pieces(top, blocks, "</body>\n</html>\n")


def render_html(head: ExportHead, lines: Sequence[LogLine]) -> str:
    """The page in one piece (:func:`html_pieces`)."""
    return html_pieces(head, lines).whole()


def safe_file_stem(name: str) -> str:
    """A log name as a file name: letters, digits, CJK, ``-`` and ``_`` kept, the rest ``_``.

    >>> safe_file_stem("第一夜/../x y")
    '第一夜_.._x_y'
    """
    stem = re.sub(r"[^\w\-.]", "_", name, flags=re.UNICODE).strip(".") or "log"
    return stem[:60]
