"""``.help <cmd>`` as phone-sized pages: the lines a command's declarations give (summary,
sub-commands, aliases, detail), group-only said once, cut into pages at line boundaries.

Kept apart from :mod:`chronodice.core.commands` (which calls :func:`help_lines` for
``CommandSpec.help_text``) so the declarations module stays small; both read the same
declarations, so help never drifts from the parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import NotFound

if TYPE_CHECKING:
    from .commands import CommandSpec

HELP_PAGE_CHARS = 900
"""The most characters on one page of ``.help <cmd>``: within the reply limit
(:data:`~chronodice.core.limits.MAX_REPLY_CHARS`) and about two phone screens."""
GROUP_ONLY_HEADER = "（以下指令仅群聊）"
GROUP_ONLY_LEGEND = "（※ 仅群聊）"


def help_lines(spec: CommandSpec) -> list[str]:
    """The whole command's help, one entry a line.  Group-only is said once: as a header when
    every sub-command is group-only, else as a ``※`` mark on those lines and one legend."""
    all_group = bool(spec.subs) and all(s.group_only for s in spec.subs)
    some_group = not all_group and any(s.group_only for s in spec.subs)
    lines = [spec.summary]
    if all_group:
        lines.append(GROUP_ONLY_HEADER)
    elif some_group:
        lines.append(GROUP_ONLY_LEGEND)
    for s in spec.subs:
        mark = "※" if some_group and s.group_only else ""
        lines.append(mark + s.help_line(spec.name, group_tag=False))
    if spec.aliases:
        lines.append("别名：" + " ".join("." + a for a in spec.aliases))
    if spec.detail:
        lines.extend(spec.detail.splitlines())
    return lines


def help_pages(spec: CommandSpec, limit: int = HELP_PAGE_CHARS) -> list[str]:
    """``.help <cmd>`` on pages of at most ``limit`` characters, whole lines only (a line longer
    than a page is cut with ``…``); when there are several, each ends with
    ``第k/n页，发送 .help <cmd> k+1 查看下一页`` and the last with ``第n/n页（完）``.

    >>> from chronodice.core.commands import CommandSpec
    >>> spec = CommandSpec(name="x", summary="测试", detail=chr(10).join(f"第{i}行说明" for i in range(30)))
    >>> pages = help_pages(spec, limit=100)
    >>> len(pages), all(len(p) <= 100 for p in pages)
    (3, True)
    >>> pages[0].splitlines()[-1], pages[-1].splitlines()[-1]
    ('第1/3页，发送 .help x 2 查看下一页', '第3/3页（完）')
    >>> help_pages(CommandSpec(name="y", summary="短"))
    ['短']
    """
    room = max(limit - len(f"\n第99/99页，发送 .help {spec.name} 99 查看下一页"), 20)
    pages: list[list[str]] = [[]]
    size = 0
    for line in help_lines(spec):
        if len(line) > room:
            line = line[: room - 1] + "…"
        if pages[-1] and size + 1 + len(line) > room:
            pages.append([])
            size = 0
        size += len(line) + (1 if pages[-1] else 0)
        pages[-1].append(line)
    n = len(pages)
    if n == 1:
        return ["\n".join(pages[0])]
    return [
        "\n".join(
            [
                *lines,
                f"第{k}/{n}页，发送 .help {spec.name} {k + 1} 查看下一页" if k < n else f"第{k}/{n}页（完）",
            ]
        )
        for k, lines in enumerate(pages, 1)
    ]


def help_page(spec: CommandSpec, word: str | None) -> str:
    """What ``.help <cmd> [word]`` answers: a sub-command's help, page ``word`` (digits: no
    sub-command is all digits, so ``.help st show`` and ``.help init 2`` never clash), or page 1;
    a bad page or unknown sub-command raises :class:`NotFound` with the right form."""
    if word and spec.find_sub(word) is not None:
        return spec.help_text(word)
    pages = help_pages(spec)
    n = len(pages)
    if word and word.isascii() and word.isdigit():
        if not 1 <= int(word) <= n:
            raise NotFound(f"没有第{word[:6]}页：.{spec.name} 的帮助共{n}页，发送 .help {spec.name} 1 到 {n}")
        return pages[int(word) - 1]
    if word:
        raise NotFound(f".{spec.name} 没有子命令「{word[:12]}」，发送 .help {spec.name} 查看全部")
    return pages[0]


__all__ = [
    "GROUP_ONLY_HEADER",
    "GROUP_ONLY_LEGEND",
    "HELP_PAGE_CHARS",
    "help_lines",
    "help_page",
    "help_pages",
]
