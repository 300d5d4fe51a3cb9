"""The ``.log`` exports other dice bots and their tools read: SealDice's log JSON and the plain
text SealDice, Dice! and OlivaDice share.  Pure, like :mod:`.export`: each format is cut into
:class:`~.export.Pieces` so that :mod:`.split` can split a big one into parts.

**SealDice log JSON** (``<名字>.json``) — what SealDice's ``.log`` uploads and story-painter
(海豹染色器) imports: ``{"version": 101, "items": [...]}``, one item per line with exactly the
fields of SealDice's ``LogOneItem`` (``dice/dice_log.go``: ``json`` tags; types as Go marshals
them):

========== ======== =====================================================================
field      type     from our :class:`~chronodice.store.LogLine`
========== ======== =====================================================================
nickname   str      ``nickname`` (else the user id)
IMUserId   str      ``user_id`` bare, as SealDice's ``UserIDExtract`` leaves it (the bot's lines: its account)
time       int      ``created_at`` as unix seconds (0 when unknown)
message    str      the parts as text (``@名字``, ``[图片]`` …), as :func:`~.export.plain`
isDice     bool     ``is_bot``
commandId  int      pairs a command with the bot's reply (:func:`command_ids`); 0: none
commandInfo obj|null the structured roll of a check (:func:`command_info`), else null
rawMsgId   str      the platform's message id ("" when unknown)
uniformId  str      ``"QQ:" + user_id`` (SealDice's platform-qualified id)
channel    str      the group id
========== ======== =====================================================================

``commandInfo`` follows what SealDice itself writes (``dice/ext_coc7.go``, read for this), so
story-painter's "指令信息" tools understand it:

* ``.ra`` / ``.rc`` / ``.rab`` / ``.rap`` (CoC): ``{"cmd": "ra", "rule": "coc7", "pcName",
  "items": [{"expr1": "d100" (or "b1"/"p2" with bonus/penalty dice), "expr2": the skill,
  "checkVal": the d100 rolled, "attrVal": the value checked against, "rank": …}]}`` — one item
  per roll (``3#侦查``: three);
* ``.sc``: ``{"cmd": "sc", "rule": "coc7", "pcName", "items": [{"checkVal": the d100,
  "exprs": ["d100", loss on success, loss on failure], "rank", "sanOld", "sanNew"}]}``;
* DnD5e checks, saves, attacks and death saves: SealDice's DnD5e shape (:func:`dnd5e_info`);
* D20刻度 and 时间线 checks (which SealDice does not have), with their dice: SealDice's ``.r``
  shape, ``{"cmd": "roll", "rule", "pcName", "items": [{"expr", "reason", "result",
  "dicePoints"}]}`` (:func:`roll_info`), which story-painter renders for any rule;
* any other check: ``{"cmd": the command word, "pcName", "items": [{"attr": the label,
  "outcome": our word, "success": bool|null, "rank"}]}``.

``rank`` is SealDice's success rank: 大失败 −2, 失败 −1, 成功 1, 困难成功 2, 极难成功 3,
大成功 4 (0: a check with no target).  The numbers come from the reply's text (our
:class:`~chronodice.core.reply.CheckNote` keeps the label and the outcome, not the dice), the
pcName from the note.  SealDice's ``cocRule`` (the house rule's number) is left out: our house
rules are named, not numbered.

**Shared text** (``<名字>.dice.txt``): every line as ``昵称(QQ号) YYYY-MM-DD HH:MM:SS``, the
message, and a blank line, the time in the log's zone (:attr:`LogLimits.utc_offset_hours
<chronodice.core.limits.LogLimits.utc_offset_hours>`); no header, so that importers reading the
first line see a message.

Hidden rolls never reach either file: they are sent privately and never recorded (only the
group's "进行了一次暗中检定" is)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from chronodice.store import LogLine

from .export import ExportHead, Part, Pieces, plain

SEALDICE_VERSION = 101
"""The ``version`` SealDice writes in its log JSON (story-painter reads it)."""

PAIR_WINDOW = timedelta(seconds=60)
"""How long after a command the bot's line still counts as its reply (for ``commandId``)."""

RANKS = {"大失败": -2, "失败": -1, "成功": 1, "困难成功": 2, "极难成功": 3, "大成功": 4}
"""SealDice's success ranks by our outcome words."""

_COMMAND = re.compile(r"^\s*[.。!！/]\s*([A-Za-z]+)")
_COC_ROLL = re.compile(
    r"(?:D100|\b([bp]\d*)=\[[^\]]*\])=(\d+)/(\d+) (大成功|极难成功|困难成功|大失败|成功|失败)"
)
_SAN = re.compile(r"理智 (\d+)→(\d+)")
_SC_EXPRS = re.compile(r"^\s*[.。!！/]\s*sc\s*([^/\s]+)\s*/\s*(\S+)", re.IGNORECASE)
_COC_CHECKS = frozenset({"ra", "rc", "rab", "rap", "rcb", "rcp"})


def command_word(line: LogLine) -> str | None:
    """The command a player's line gives (lower case), or None for chatter and bot lines.

    >>> command_word(LogLine("1", "a", [["text", "。RA 侦查"]], None))
    'ra'
    >>> command_word(LogLine("1", "a", [["text", "晚上好"]], None)) is None
    True
    """
    if line.is_bot:
        return None
    m = _COMMAND.match(plain(line.parts))
    return m.group(1).lower() if m else None


def command_ids(lines: Sequence[LogLine]) -> list[int]:
    """SealDice's ``commandId`` for each line: every command line gets a new number (1, 2, …)
    and the bot's lines answering it the same number; 0 for the rest.  The record does not
    link a reply to its command, so a bot line takes the latest command within
    :data:`PAIR_WINDOW` before it — of the player its check note names, when it has one."""
    ids: list[int] = []
    recent: list[tuple[int, str, datetime | None]] = []  # (id, user, time) of commands
    for line in lines:
        if command_word(line) is not None:
            recent.append((len(recent) + 1, line.user_id, line.created_at))
            ids.append(recent[-1][0])
        elif line.is_bot:
            who = (line.check or {}).get("user_id")
            ids.append(_answered(recent, line.created_at, str(who) if who else None))
        else:
            ids.append(0)
    return ids


def _answered(recent: list[tuple[int, str, datetime | None]], when: datetime | None, who: str | None) -> int:
    for cid, user, at in reversed(recent):
        if when is not None and at is not None and when - at > PAIR_WINDOW:
            return 0
        if who is None or user == who:
            return cid
    return 0


def command_info(line: LogLine, command: LogLine | None) -> dict[str, Any] | None:
    """``commandInfo`` of a bot line: the structured roll when it carries a check note, else
    None (the mapping is in this module's docstring).  ``command``: the player's line it
    answers (for the command word and ``.sc``'s loss expressions), when known."""
    check = line.check
    if not line.is_bot or not check:
        return None
    text = plain(line.parts)
    name = str(check.get("name") or "")
    word = command_word(command) if command is not None else None
    rolls = list(_COC_ROLL.finditer(text))
    if rolls and check.get("label") == "理智" and (san := _SAN.search(text)):
        m = rolls[0]
        exprs = _SC_EXPRS.match(plain(command.parts)) if command is not None else None
        item = {
            "checkVal": int(m.group(2)),
            "exprs": ["d100", *(exprs.groups() if exprs else ("", ""))],
            "rank": RANKS[m.group(4)],
            "sanOld": int(san.group(1)),
            "sanNew": int(san.group(2)),
        }
        return {"cmd": "sc", "rule": "coc7", "pcName": name, "items": [item]}
    if rolls and (word is None or word in _COC_CHECKS):
        items = [
            {
                "expr1": m.group(1) or "d100",
                "expr2": str(check.get("label") or ""),
                "checkVal": int(m.group(2)),
                "attrVal": int(m.group(3)),
                "rank": RANKS[m.group(4)],
            }
            for m in rolls
        ]
        return {"cmd": "ra", "rule": "coc7", "pcName": name, "items": items}
    if check.get("rule") == "dnd5e":
        return dnd5e_info(check, name)
    if check.get("items"):
        return roll_info(check, name)
    outcome = str(check.get("outcome") or "")
    success = check.get("success")
    rank = RANKS.get(outcome, 0 if success is None else (1 if success else -1))
    item = {"attr": str(check.get("label") or ""), "outcome": outcome, "success": success, "rank": rank}
    return {"cmd": word or "check", "pcName": name, "items": [item]}


def dnd5e_info(check: dict[str, Any], name: str) -> dict[str, Any]:
    """SealDice's own DnD5e shape (``dice/ext_dnd5e.go``), which story-painter renders as dice
    lines: ``{"cmd": "rc", "rule": "dnd5e", "pcName", "items": [{"expr", "reason", "result"}]}``
    — checks, saves, attacks (the to-hit and the damage as two items) and death saves alike.

    >>> dnd5e_info({"rule": "dnd5e", "items": [["D20 + 2", "敏捷豁免", 14]]}, "托林")["items"]
    [{'expr': 'D20 + 2', 'reason': '敏捷豁免', 'result': 14}]
    """
    items = [
        {"expr": str(item[0]), "reason": str(item[1]), "result": int(item[2])}
        for item in check.get("items") or []
        if isinstance(item, list | tuple) and len(item) == 3 and isinstance(item[2], int)
    ]
    return {"cmd": "rc", "rule": "dnd5e", "pcName": name, "items": items}


def roll_info(check: dict[str, Any], name: str) -> dict[str, Any]:
    """A check of a system SealDice does not have (D20刻度, 时间线) as SealDice's ``.r`` shape,
    which story-painter renders as dice lines for any rule: ``{"cmd": "roll", "rule", "pcName",
    "items": [{"expr", "reason", "result", "dicePoints"}]}`` (``dicePoints``: the faces of the
    expression's first die, as SealDice writes it).

    >>> roll_info({"rule": "tick20", "items": [["D20+3", "运动", 17]]}, "艾琳")["items"]
    [{'expr': 'D20+3', 'reason': '运动', 'result': 17, 'dicePoints': 20}]
    """
    items = [
        {
            "expr": str(item[0]),
            "reason": str(item[1]),
            "result": int(item[2]),
            "dicePoints": _faces(str(item[0])),
        }
        for item in check.get("items") or []
        if isinstance(item, list | tuple) and len(item) == 3 and isinstance(item[2], int)
    ]
    return {"cmd": "roll", "rule": str(check.get("rule") or ""), "pcName": name, "items": items}


_FACES = re.compile(r"[dD](\d{1,7})")


def _faces(expr: str) -> int:
    m = _FACES.search(expr)
    return int(m.group(1)) if m else 0


def _uniform_id(user_id: str) -> str:
    return f"QQ:{user_id}"


def sealdice_items(head: ExportHead, lines: Sequence[LogLine]) -> Iterator[dict[str, Any]]:
    """The log's lines as SealDice log items (fields and types: this module's docstring)."""
    ids = command_ids(lines)
    by_id = {cid: ln for cid, ln in zip(ids, lines, strict=True) if cid and not ln.is_bot}
    for cid, ln in zip(ids, lines, strict=True):
        yield {
            "nickname": ln.nickname or ln.user_id,
            "IMUserId": ln.user_id,
            "time": _unix(ln.created_at),
            "message": plain(ln.parts),
            "isDice": ln.is_bot,
            "commandId": cid,
            "commandInfo": command_info(ln, by_id.get(cid)),
            "rawMsgId": ln.message_id or "",
            "uniformId": _uniform_id(ln.user_id),
            "channel": head.group_id,
        }


def _unix(dt: datetime | None) -> int:
    if dt is None:
        return 0
    return int((dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)).timestamp())


def sealdice_pieces(head: ExportHead, lines: Sequence[LogLine]) -> Pieces:
    """SealDice's log JSON cut for :mod:`.split`: one item a block, joined by ``,``; every
    part is a complete ``{"version": 101, "items": [...]}`` of its lines (the part's number
    is in its file name only, so that the file stays exactly SealDice's shape)."""

    def top(_part: Part | None) -> str:
        return f'{{"version":{SEALDICE_VERSION},"items":[\n'

    blocks = (json.dumps(item, ensure_ascii=False) for item in sealdice_items(head, lines))
    return Pieces(top, blocks, "\n]}\n", sep=",\n")


def dice_txt_pieces(head: ExportHead, lines: Sequence[LogLine]) -> Pieces:
    """The text SealDice, Dice! and OlivaDice share: ``昵称(QQ号) 时间``, the message, a
    blank line, for every line; no header (a part starts with its first message too)."""

    def top(_part: Part | None) -> str:
        return ""

    def block(ln: LogLine) -> str:
        name = " ".join((ln.nickname or ln.user_id).split())
        return f"{name}({ln.user_id}) {head.when(ln.created_at)}\n{plain(ln.parts)}\n\n"

    return Pieces(top, (block(ln) for ln in lines), "")
