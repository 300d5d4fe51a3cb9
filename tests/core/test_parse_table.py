"""The cross-system table (issue 9): every system's ``ROWS`` of ``(text, expected parse or exact
error or None)``, counted together, plus the issue's repros that belong to the common commands.

Each system's own test module asserts its rows; this module checks the table is big enough
across systems, that every repro of the issue is in it, and asserts the common rows below.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from helpers import parse_of

from chronodice.core.args import Mod  # noqa: F401  (rows of other systems mention it)

SERVICES = Path(__file__).resolve().parents[1] / "services"
SYSTEM_TABLES = [
    "test_timeline_args.py",
    "test_tick20_args.py",
    "test_pool10_args.py",
    "test_moe_args.py",
    "test_coc7_args.py",
]


def _rows(name: str) -> list[tuple[str, object]]:
    spec = importlib.util.spec_from_file_location(f"_rows_{name[:-3]}", SERVICES / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.ROWS)


COMMON_ROWS: list[tuple[str, object]] = [
    (".r 3d6+2 侦查", ("r", "", {"line": "3d6+2 侦查"})),
    (".r3d6", ("r", "", {"line": "3d6"})),
    (".rd20", ("r", "", {"line": "d20"})),
    (".r", ("r", "", {"line": ""})),
    (".r 侦查", ("r", "", {"line": "侦查"})),
    (".r侦查", ("r", "", {"line": "侦查"})),
    ("。R２＃d6", ("r", "", {"line": "2#d6"})),
    (".rb", ("r", "", {"line": "b"})),  # SealDice's glued .r b
    (".rb2", ("r", "", {"line": "b2"})),
    (".rp", ("r", "", {"line": "p"})),
    (".rp2 侦查", ("r", "", {"line": "p2 侦查"})),
    (".r b2", ("r", "", {"line": "b2"})),
    (".rbot", None),
    (".rs 3d6", "「3d6」不是有效的属性/技能、优势、劣势或豁免"),  # .rs: the DnD5e save (issue 42)
    (".rh d100 偷看", ("rh", "", {"line": "d100 偷看"})),
    ("．ＲＨ d6", ("rh", "", {"line": "d6"})),
    (".set 20", ("set", "", {"what": 20})),
    (".set20", ("set", "", {"what": 20})),
    (".set d8", ("set", "", {"what": 8})),
    (".set", ("set", "", {"what": None})),
    (".set ²", "「²」不是有效的模式或面数"),
    (".set abc", "「abc」不是有效的模式或面数"),
    (".set coc7", ("set", "", {"what": "coc7"})),
    (".set coc", ("set", "", {"what": "coc7"})),
    (".set 克苏鲁", ("set", "", {"what": "coc7"})),
    (".set dnd", ("set", "", {"what": "dnd5e"})),
    (".set 5e", ("set", "", {"what": "dnd5e"})),
    (".set tl", ("set", "", {"what": "timeline"})),
    (".set 时间线", ("set", "", {"what": "timeline"})),
    (".set tick20", ("set", "", {"what": "tick20"})),
    (".set 刻度", ("set", "", {"what": "tick20"})),
    (".set pool10", ("set", "", {"what": "pool10"})),
    (".set 无限恐怖", ("set", "", {"what": "pool10"})),
    (".set clr", ("set", "", {"what": "clear"})),
    (".setdnd", None),
    (".set coc8", "「coc8」不是有效的模式或面数"),
    (".st 力量60敏捷50", ("st", "", {"who": None, "pairs": [("力量", None, 60), ("敏捷", None, 50)]})),
    (".st 伤害1d6", "「伤害1d6」：属性值只能是整数（公式写作 &伤害=1d6）"),
    (".st show", ("st", "show", {"who": None, "names": []})),
    (".st show 力量 敏捷", ("st", "show", {"who": None, "names": ["力量", "敏捷"]})),
    (".st del", "缺少属性"),
    (".st clr", ("st", "clr", {"who": None})),
    (".pc", ("pc", "list", {})),
    (".pc new 阿梓 二号", ("pc", "new", {"name": "阿梓 二号"})),
    (".pc new", "缺少角色名"),
    (".pc tag 2", ("pc", "tag", {"ref": "2"})),
    (".pc tag ²", ("pc", "tag", {"ref": "²"})),
    (".pc rename 新名", ("pc", "rename", {"old": None, "new": "新名"})),
    (".pc rename 旧 新", ("pc", "rename", {"old": "旧", "new": "新"})),
    (".pc del 阿梓 确认", ("pc", "del", {"ref": "阿梓", "confirm": True})),
    (".pc frobnicate", "「frobnicate」不是 .pc 的子命令（可用：list/new/tag/rename/del/show/cpy/save）"),
    (".nn 小明", ("nn", "", {"name": "小明"})),
    (".nn", ("nn", "", {"name": None})),
    (".nnn", ("nnn", "", {"n": 1, "lang": "cn"})),  # issue 42: SealDice's random name, ours now
    (".nnn jp 3", ("nnn", "", {"n": 3, "lang": "jp"})),
    (".nnnx", None),
    (".nn " + "长" * 21, "昵称太长（最多20字）"),
    (".gm add @80001", ("gm", "add", {"who": ["80001"]})),
    (".gm add", "缺少@某人"),
    (".gm explode", "「explode」不是 .gm 的子命令（可用：list/add/del/私聊）"),
    (".bot on", ("bot", "", {"on": True})),
    (".bot 关", ("bot", "", {"on": False})),
    (".bot maybe", "「maybe」不是有效的on/off"),
    (".dismiss 确认", ("dismiss", "", {"confirm": True})),
    (".dismiss now", "「now」不是有效的确认"),
    (".help pc new", ("help", "", {"name": "pc", "word": "new"})),
    (".undo 123", "多余的「123」"),
    (".draw 塔罗", ("draw", "", {"name": "塔罗", "n": 1})),
    (".draw 扑克 3", ("draw", "", {"name": "扑克", "n": 3})),
    (".draw 扑克 0", "张数「0」超出范围（应在1到10之间）"),
    (".drawh 塔罗牌", ("drawh", "", {"name": "塔罗牌", "n": 1})),
    (".draw list", ("draw", "list", {})),
    (".jrrp", ("jrrp", "", {})),
    (".jrrp 1", "多余的「1」"),
    (".send 你好", ("send", "", {"text": "你好"})),
    (".bot exit 确认", ("bot", "exit", {"confirm": True})),
    (".drawx 塔罗", None),
]


@pytest.mark.parametrize(("text", "expected"), COMMON_ROWS)
def test_common_rows(text: str, expected: object) -> None:
    assert parse_of(text) == expected


def test_table_spans_every_system_and_is_big_enough() -> None:
    total = len(COMMON_ROWS)
    for name in SYSTEM_TABLES:
        rows = _rows(name)
        assert len(rows) >= 25, name
        total += len(rows)
    assert total >= 150, total


ISSUE_REPROS = [
    ".rc 0 20 被动 +5状态 +3状态",
    ".ri +2环境 哥布林",
    ".rc +3 15",
    ".rc d8+d6 13",
    ".st 伤害1d6",
    ".ri =abc",
    ".tar xd",
    ".neg abc",
    ".ex abc",
    ".pre abc 100",
    ".bat Goblin:力量 100",
    ".moe play abc",
    ".ww 附加 防御3 守卫",
    ".ra 侦查",
    ".rah 侦查",
    ".rb",
    ".rs 3d6",
    ".nnn",
    ".setcoc 2",
    ".ww ⑤",
    ".w ²",
    ".set ²",
    ".pc tag ²",
    ".init undo ²",
    ".init log ²",
    ".moe choose ¹",
    ".init gm ²",
    ".hp 狼2 -5",
]


def test_every_repro_of_the_issue_is_in_the_table() -> None:
    texts = {t for t, _ in COMMON_ROWS}
    for name in SYSTEM_TABLES:
        texts |= {t for t, _ in _rows(name)}
    missing = [r for r in ISSUE_REPROS if r not in texts]
    assert not missing, missing
