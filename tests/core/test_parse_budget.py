"""Issue 23: one message must not freeze every group.

Every command root gets messages of about 2,000 characters (the limit) made of one hostile
character or pair — spaces, tabs, full-width spaces, newlines, separators, digits, letters,
``d``, ``(`` — ending in ``x``, bare and after a realistic start (and 300 characters long: a
shorter run can cost more search than one that hits a limit), through ``App.dispatch`` in
groups of every mode (with cards, a battle, a combat and a 萌E game to act on) and in a private
chat.  Each must be answered within 50 ms: the best of three tries, as a loaded two-core CI box
makes single timings noisy — the cases the issue found took 10 to 24 seconds.

The exact repros of the issue are named tests below, and the two regular expressions that were
cubic are checked to read exactly what the old ones read.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from command_fuzz import GENERIC_ERROR, GM, MODES, MOE_GROUP, PLAYERS, prepare_world
from command_fuzz_words import SEEDS
from helpers import make_ctx

from chronodice.app import App
from chronodice.core.argsearch import MAX_LIST
from chronodice.core.commands import REGISTRY, CommandSpec
from chronodice.core.context import Context
from chronodice.core.errors import InputSyntaxError
from chronodice.core.limits import MAX_MESSAGE_CHARS
from chronodice.core.ratelimit import FloodSettings
from chronodice.core.reply import Reply
from chronodice.datadir import DataDir
from chronodice.rules.timeline.importing import _KV, split_pairs
from chronodice.services.characters import _PAIR, parse_attribute_pairs
from chronodice.store import Store

BUDGET_MS = 50.0
FILLS = (
    *(
        " ",
        "\t",
        "\u3000",
        "\n",
        ",",
        "，",
        ":",
        "：",
        "+",
        "-",
        "#",
        "@",
        ">",
        "|",
        "、",
        "1",
        "a",
        "d",
        "(",
    ),
    *("+1", "k ", "1 ", "a1", "x:1,", "1/", "优势 ", "\u00a0", "\u2028", "再 "),
)
"""The runs each message is made of (the issue's list, then pairs that glue into tokens)."""
PREFIXES = {"st": "k", "TLsetup": "姓名:甲,", "bat": "力量 ", "wound": "哥布林 躯干 ", "rc": "力量 "}
"""A realistic start per command (else the first word of its fuzzing seed, else ``甲 ``)."""


@pytest.fixture
async def budget_app(sqlite_store: Store, tmp_path: Path) -> App:
    """The app with the fuzzer's world; files it writes (``.log get``) go to ``tmp_path``.

    On SQLite only: what is timed is the parse, the same on either database; what PostgreSQL
    does with hostile text (a NUL it refuses) is the fuzzer's and ``test_hostile``'s part of
    the PostgreSQL pass."""
    app = App(
        sqlite_store, random.Random(1234), flood=FloodSettings(enabled=False), data_dir=DataDir(tmp_path)
    )
    await prepare_world(app)
    return app


def _contexts() -> list[Context]:
    gm = [make_ctx(GM, group, roles=("owner",)) for group in (*MODES, MOE_GROUP)]
    return [*gm, make_ctx(PLAYERS[0], None), make_ctx(PLAYERS[1], "30000")]


def _prefix(spec: CommandSpec) -> str:
    if spec.name in PREFIXES:
        return PREFIXES[spec.name]
    seeds = [s for s in SEEDS.get(spec.name, ()) if s]
    return seeds[0].split()[0] + " " if seeds else "甲 "


def _message(root: str, start: str, fill: str, size: int) -> str:
    """``.root start`` + ``fill`` repeated + ``x``, ``size`` characters at most."""
    head = f".{root} {start}"
    room = size - len(head) - 1
    return head + fill * (room // len(fill)) + "x"


async def _timed(app: App, ctx: Context, text: str) -> tuple[float, list[Reply]]:
    """CPU milliseconds of the event loop thread (a slow parse spends them; another test worker
    beside this one only stretches the wall clock) and the replies."""
    t0 = time.thread_time()
    replies = await app.dispatch(ctx, text)
    return (time.thread_time() - t0) * 1000, replies or []


async def best_of_3(app: App, ctx: Context, text: str) -> tuple[float, list[Reply]]:
    """The best of three timings of ``text`` (one slow try on a busy machine is noise)."""
    runs = [await _timed(app, ctx, text) for _ in range(3)]
    return min(r[0] for r in runs), runs[-1][1]


PARTS = 6
"""The roots are read in this many tests (every ``PARTS``-th root each), so that parallel test
workers (``pytest -n``) share the 4,000-odd messages."""


@pytest.mark.parametrize("part", range(PARTS))
async def test_every_root_reads_hostile_runs_within_budget(budget_app: App, part: int) -> None:
    contexts = _contexts()
    roots = [(spec, root) for spec in REGISTRY.specs.values() for root in spec.roots]
    slow: list[str] = []
    generic: list[str] = []
    sent = 0
    for i, (spec, root) in enumerate(roots):
        if i % PARTS != part:
            continue
        for j, fill in enumerate(FILLS):
            # every root meets several places; a root that the group's mode decides (.rc, .ra…)
            # meets all of them
            where = contexts if spec.resolve is not None else [contexts[(i + j) % len(contexts)]]
            for ctx in where:
                for start, size in (("", MAX_MESSAGE_CHARS), (_prefix(spec), MAX_MESSAGE_CHARS), ("", 300)):
                    text = _message(root, start, fill, size)
                    ms, replies = await _timed(budget_app, ctx, text)
                    sent += 1
                    if ms > BUDGET_MS:
                        ms, replies = await best_of_3(budget_app, ctx, text)
                        if ms > BUDGET_MS:
                            slow.append(f"{ms:.0f} ms: {text[:40]!r}… ({len(text)} chars) in {ctx.group_id}")
                    if any(GENERIC_ERROR in r.text for r in replies):
                        generic.append(f"{text[:40]!r}… in {ctx.group_id}")
    assert sent > 4000 / PARTS
    assert not slow, "\n".join(slow)
    assert not generic, "\n".join(generic)


# ----------------------------------------------------------------------- the issue's repros
@pytest.mark.parametrize("fill", [" ", "\n", "\u3000"], ids=["spaces", "newlines", "full-width-spaces"])
async def test_issue_23_st_name_then_a_run_of_spaces(budget_app: App, fill: str) -> None:
    """``.st k`` + 1,980 spaces + ``x`` blocked the event loop for 24 s (``_PAIR`` backtracking)."""
    ms, replies = await best_of_3(budget_app, make_ctx(PLAYERS[0], "30000"), ".st k" + fill * 1980 + "x")
    assert ms < BUDGET_MS
    assert [r.text for r in replies] == ["「k x」缺少数值\n格式：.st [@某人] [属性名数值]"]


async def test_issue_23_tlsetup_pair_then_a_run_of_spaces(budget_app: App) -> None:
    """``.TLsetup 姓名:甲,`` + 1,980 spaces + ``x`` took 12.5 s (``_KV`` backtracking)."""
    text = ".TLsetup 姓名:甲," + " " * 1980 + "x"
    ms, replies = await best_of_3(budget_app, make_ctx(PLAYERS[0], "30003"), text)
    assert ms < BUDGET_MS
    assert replies[0].text.startswith("人物卡导入失败×\n无法理解：x（应为 键:值）\n缺少：等级、")


async def test_issue_23_bat_attribute_then_a_run_of_spaces(budget_app: App) -> None:
    text = ".bat 力量 " + " " * 1980 + "x"
    ms, replies = await best_of_3(budget_app, make_ctx(PLAYERS[0], "30003"), text)
    assert ms < BUDGET_MS
    assert replies[0].text.startswith("[x]不是数字（影响数值如 150，前摇如 10t）")


@pytest.mark.parametrize(
    ("text", "ctx"),
    [
        (".ri\n" + "+1" * 200 + "🎲" * 30 + "+1体力" + "+1" * 30, make_ctx(GM, "30000", roles=("owner",))),
        (".rc 危机 118 临时2 " + "+1" * 400 + ",d8+d6", make_ctx("10999", "30004")),
    ],
    ids=["ri", "rc"],
)
async def test_glued_modifiers_are_not_split_every_way(budget_app: App, text: str, ctx: Context) -> None:
    """Found by the fuzzer: ``+1+1+1…`` before a word no kind reads splits into modifiers in
    exponentially many ways, all tried up to the step limit (0.2 to 0.5 s).  A search state
    that failed is now not searched again."""
    ms, replies = await best_of_3(budget_app, ctx, text)
    assert ms < BUDGET_MS
    assert len(replies) == 1 and GENERIC_ERROR not in replies[0].text


async def test_a_list_stops_at_its_limit_instead_of_recursing(budget_app: App) -> None:
    """996 lengths for ``.dist`` went a thousand levels deep (``RecursionError``)."""
    for count in (MAX_LIST + 1, 996):
        ms, replies = await best_of_3(budget_app, make_ctx(PLAYERS[0], "30003"), ".dist " + "1 " * count)
        assert ms < BUDGET_MS
        assert [r.text for r in replies] == [
            f"参数太多（同一项最多{MAX_LIST}个），请分几次发送\n格式：.dist <边长…>"
        ]
    replies = await budget_app.dispatch(make_ctx(PLAYERS[0], "30003"), ".dist " + "3 " * MAX_LIST)
    assert replies is not None and "参数太多" not in replies[0].text


# ----------------------------------------------------------------------- the two regexes
OLD_PAIR = re.compile(r"([^\d\s:=+\-,;、|/*()]+?)\s*([:=])?\s*([+\-])?\s*(\d+)")
OLD_KV = re.compile(r"^\s*([^:：=]+?)\s*[:：=]\s*(.*?)\s*$", re.S)
_ALPHABET = [*"ab1 :=+-,\n、d.　２:：=x\t;|/*()", "\u2028", "\x0b", "²"]


def _kv(pattern: re.Pattern[str], item: str) -> tuple[str, str] | None:
    m = pattern.match(item)
    return None if m is None else (m.group(1).strip(), m.group(2).strip())


def test_linear_regexes_read_what_the_old_ones_read() -> None:
    rng = random.Random(23)
    for _ in range(20_000):
        s = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 12)))
        old = [(m.span(), m.groups()) for m in OLD_PAIR.finditer(s)]
        assert [(m.span(), m.groups()) for m in _PAIR.finditer(s)] == old, s
        assert _kv(_KV, s) == _kv(OLD_KV, s), s


@pytest.mark.parametrize("fill", [" ", "\n", "\u3000", "k", "k ", ":", "1"])
def test_the_regexes_are_linear_on_the_longest_message(fill: str) -> None:
    text = "k" + fill * 1990 + "x"
    t0 = time.thread_time()
    for _ in range(3):
        with pytest.raises(InputSyntaxError):
            parse_attribute_pairs(text)
        split_pairs("姓名:甲," + text)
    assert (time.thread_time() - t0) * 1000 / 3 < BUDGET_MS
