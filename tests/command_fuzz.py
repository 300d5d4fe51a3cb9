"""Seeded command fuzzing over every command root (issue 23: one message must not freeze or break
the bot).

One grammar, two users: ``tests/core/test_fuzz_commands.py`` runs a few thousand commands and
asserts, ``scripts/fuzz_commands.py`` runs 100,000 and prints the figures.  A command is built
from a spec's own declarations (its roots, sub-command words and argument kinds) and from
realistic examples, then mixed with hostile fragments (NUL, lone surrogates, zero-width and
full-width characters, superscripts, huge numbers and dice, emoji, long runs).  Each one is sent
through :meth:`App.dispatch` by a GM or a plain member, in a private chat or in a group set to
each mode, with state to act on (cards, a TimeLine battle, a D20 combat, a 萌E game).

A finding is an exception out of ``dispatch``, a reply with the generic error (``时出错了``, with
the traceback the app logged), or a command slower than the budget (best of three tries).
"""

from __future__ import annotations

import logging
import random
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from command_fuzz_words import HOSTILE, NAMES, REALISTIC, SEEDS, SEPARATORS, help_examples
from helpers import make_ctx, moe_started
from regex_example import example as regex_example

from chronodice.app import App
from chronodice.core.args import Choice, Int, Keyword, Kind, Mention, Num, OneOf, Pattern, Prefixed, TypedMod
from chronodice.core.commands import REGISTRY, CommandSpec
from chronodice.core.context import Context, Role
from chronodice.core.limits import MAX_MESSAGE_CHARS
from chronodice.core.reply import Reply

GENERIC_ERROR = "时出错了"
"""The dispatcher's reply to an unexpected exception (``处理「.x」时出错了``)."""
BUDGET_MS = 50.0
"""Most time one command may take (best of three tries)."""

GM = "10001"
PLAYERS = ("10002", "10003", "10004")
STRANGER = "10999"
MODES: dict[str, str | None] = {
    "30000": None,
    "30001": "coc7",
    "30002": "dnd5e",
    "30003": "tl",
    "30004": "tick20",
    "30005": "pool10",
}
"""The fuzzed groups and the mode each is set to (``None``: a fresh group)."""
MOE_GROUP = "30006"
SYSTEM_GROUPS = {
    "CoC7": "30001",
    "DnD5e": "30002",
    "时间线": "30003",
    "D20刻度": "30004",
    "无限恐怖": "30005",
    "萌E": MOE_GROUP,
}
"""The group that plays each system (by ``CommandSpec.system``)."""
_TL_SHEET = (
    ".TLsetup 姓名:{name},种族:人类,外貌:50,资产:50,性别:男,职业:商人,等级:10,物理思维比值:500,体质:30,"
    "敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,"
    "视觉及表演艺术:20,负重:0"
)
_SETUP: dict[str | None, list[tuple[str, str]]] = {
    None: [(PLAYERS[0], ".st 力量60敏捷50侦查70图书馆60san60hp12")],
    "coc7": [(p, ".st 力量60敏捷50侦查70图书馆60san60hp12") for p in PLAYERS],
    "dnd5e": [(PLAYERS[0], ".st 力量14敏捷12运动5")],
    "tl": [
        *((p, _TL_SHEET.format(name=n)) for p, n in zip(PLAYERS, "甲乙丙", strict=True)),
        (GM, ".tar 10 10"),
        (PLAYERS[0], ".bat 力量 150 重拳"),
        (PLAYERS[1], ".bat 敏捷 5t"),
    ],
    "tick20": [
        (GM, ".init begin"),
        (PLAYERS[0], ".ri =17"),
        (PLAYERS[1], ".ri =12"),
        (GM, ".ri =8 哥布林"),
        (GM, ".init start"),
    ],
    "pool10": [(PLAYERS[0], ".st 敏捷4潜行3力量11格斗2"), (PLAYERS[1], ".st 感知6调查1敏捷2")],
}


@dataclass(frozen=True)
class Case:
    """One fuzzed command: the text, who sends it where, and the root it was built for."""

    text: str
    ctx: Context
    root: str


@dataclass
class Finding:
    """What went wrong with one case: ``kind`` is ``exception``, ``generic`` or ``slow``."""

    kind: str
    case: Case
    ms: float
    detail: str = ""

    def line(self, width: int = 80) -> str:
        where = self.case.ctx.group_id or "私聊"
        text = self.case.text if len(self.case.text) <= width else self.case.text[:width] + "…"
        return f"[{self.kind}] {self.ms:.1f} ms in {where} by {self.case.ctx.user_id}: {text!r}"


@dataclass
class FuzzReport:
    """The figures of a run."""

    run: int = 0
    per_root: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    times_ms: list[float] = field(default_factory=list)
    slowest: list[tuple[float, str]] = field(default_factory=list)

    def of(self, kind: str) -> list[Finding]:
        return [f for f in self.findings if f.kind == kind]

    def percentile(self, q: float) -> float:
        if not self.times_ms:
            return 0.0
        ordered = sorted(self.times_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def note_time(self, ms: float, text: str, keep: int = 10) -> None:
        self.times_ms.append(ms)
        if len(self.slowest) < keep or ms > self.slowest[-1][0]:
            self.slowest = sorted([*self.slowest, (ms, text)], reverse=True)[:keep]

    def lines(self) -> list[str]:
        """The printed figures (scripts/fuzz_commands.py, and a failing test's message)."""
        out = [
            f"commands run: {self.run}",
            f"roots covered: {len(self.per_root)}",
            f"exceptions: {len(self.of('exception'))}",
            f"generic errors: {len(self.of('generic'))}",
            f"over {BUDGET_MS:.0f} ms (best of 3): {len(self.of('slow'))}",
            f"max first-try ms: {max(self.times_ms, default=0.0):.1f}",
            f"p99 ms: {self.percentile(0.99):.2f}   p50 ms: {self.percentile(0.5):.2f}",
            "slowest first tries:",
            *(f"  {ms:7.1f} ms  {text[:70]!r}" for ms, text in self.slowest),
            "per-root counts:",
            "  " + ", ".join(f".{r} {n}" for r, n in sorted(self.per_root.items())),
        ]
        for f in self.findings[:20]:
            out.append(f.line())
            out.extend("    " + d for d in f.detail.splitlines()[-6:])
        return out


# ------------------------------------------------------------------------------- the grammar
def _all_specs() -> list[CommandSpec]:
    return sorted(REGISTRY.specs.values(), key=lambda s: s.name)


class CommandGrammar:
    """Random commands over every spec, reproducible from ``seed``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.specs = _all_specs()
        self.roots = [(spec, root) for spec in self.specs for root in spec.roots]
        self.examples = help_examples(self.specs)
        self.made = 0

    def case(self) -> Case:
        """The next command: every other one takes the next root in turn (every root is
        covered), the others a random command by its name."""
        rng = self.rng
        if self.made % 2 == 0:
            spec, root = self.roots[(self.made // 2) % len(self.roots)]
        else:
            spec = rng.choice(self.specs)
            root = spec.name
        self.made += 1
        text = self._prefix() + self._root_spelling(root) + self._args(spec)
        if rng.random() < 0.03:
            text = self._long_run(text)
        return Case(text=text[: MAX_MESSAGE_CHARS + 20], ctx=self._ctx(spec), root=root)

    # ---------------------------------------------------------------- pieces
    def _prefix(self) -> str:
        r = self.rng.random()
        return "." if r < 0.8 else self.rng.choice(["。", "．", " .", ". ", "..", ".\u200b"])

    def _root_spelling(self, root: str) -> str:
        r = self.rng.random()
        if r < 0.08:
            return root.upper()
        if r < 0.12:  # full-width letters, as a phone keyboard may type them
            return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in root)
        return root

    def _args(self, spec: CommandSpec) -> str:
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            seeds = [*SEEDS.get(spec.name, ()), *self.examples.get(spec.name, ())]
            body = rng.choice(seeds) if seeds else ""
            body = self._mutate(body) if rng.random() < 0.5 else body
        elif r < 0.85:
            sub = rng.choice(spec.subs)
            words = [rng.choice(sub.words)] if sub.words else []
            kinds = [p.kind for p in sub.params if rng.random() < 0.85 for _ in range(self._times(p.many))]
            kinds += [f.kind for f in sub.flags if rng.random() < 0.25 for _ in range(self._times(f.many))]
            if len(kinds) > 1 and rng.random() < 0.2:
                rng.shuffle(kinds)
            tokens = words + [self._token(k) for k in kinds]
            body = self._join(tokens)
            body = self._mutate(body) if rng.random() < 0.35 else body
        else:
            body = self._join([self._fragment() for _ in range(rng.randint(0, 6))])
        sep = " " if rng.random() < 0.75 else rng.choice(["", "  ", "\u3000", "\n", "\t"])
        return sep + body if body else body

    def _times(self, many: bool) -> int:
        return self.rng.choice((1, 1, 2, 3, 4)) if many else 1

    def _join(self, tokens: Sequence[str]) -> str:
        rng = self.rng
        out = ""
        for i, tok in enumerate(tokens):
            if i:
                out += " " if rng.random() < 0.8 else rng.choice(SEPARATORS)
            out += tok
        return out

    def _fragment(self) -> str:
        return self.rng.choice(HOSTILE) if self.rng.random() < 0.35 else self.rng.choice(REALISTIC)

    def _token(self, kind: Kind) -> str:
        """A value ``kind`` may read (often), else any fragment."""
        rng = self.rng
        if rng.random() < 0.1:
            return self._fragment()
        if isinstance(kind, OneOf) and kind.kinds:
            return self._token(rng.choice(kind.kinds))
        if isinstance(kind, Keyword):
            return rng.choice(kind.words)
        if isinstance(kind, Choice) and kind.table:
            return rng.choice(list(kind.table))
        if isinstance(kind, Int | Num):
            return self._number(kind)
        if isinstance(kind, TypedMod):
            return f"{rng.choice('+-')}{rng.randint(0, 12)}" + (rng.choice(kind.types) if kind.types else "")
        if isinstance(kind, Pattern) and rng.random() < 0.7:
            return regex_example(kind.regex, rng)
        if isinstance(kind, Mention):
            return rng.choice(["@10002", "@10003", "@12345678901", "@"])
        if isinstance(kind, Prefixed):
            return rng.choice(NAMES) + ":"
        return rng.choice(NAMES if rng.random() < 0.4 else REALISTIC)

    def _number(self, kind: Int | Num) -> str:
        rng = self.rng
        lo = int(kind.min) if kind.min is not None else -20
        hi = int(kind.max) if kind.max is not None else 120
        r = rng.random()
        if r < 0.7:
            value = str(rng.randint(min(lo, hi), max(lo, hi)))
        elif r < 0.85:
            value = str(rng.choice([hi + 1, lo - 1, 10**9, 2**63, -(10**12)]))
        else:
            value = rng.choice(["1.5", ".5", "0", "-0", "9" * 25, "１２", "²", "1e3"])
        if kind.sign_required and value[:1] not in "+-":
            value = "+" + value
        return value

    def _mutate(self, text: str) -> str:
        rng = self.rng
        for _ in range(rng.randint(1, 3)):
            r = rng.random()
            pos = rng.randint(0, len(text))
            if r < 0.35:
                text = text[:pos] + rng.choice(HOSTILE) + text[pos:]
            elif r < 0.5 and text:  # one character doubled many times
                text = text[:pos] + text[pos - 1 : pos] * rng.randint(2, 60) + text[pos:]
            elif r < 0.65:  # full-width ASCII
                text = "".join(
                    chr(ord(c) + 0xFEE0) if "!" <= c <= "~" and rng.random() < 0.5 else c for c in text
                )
            elif r < 0.75:
                text = text[:pos]
            elif r < 0.85:
                text = text.replace(" ", rng.choice(SEPARATORS))
            else:
                text = text[:pos] + rng.choice(REALISTIC) + text[pos:]
        return text

    def _long_run(self, text: str) -> str:
        """A run of one hostile character to about the message limit (the issue's repros)."""
        fill = self.rng.choice(
            [" ", "\t", "\u3000", "\n", ",", "，", ":", "+", "-", "#", "@", "1", "a", "d", "("]
        )
        size = MAX_MESSAGE_CHARS - len(text) - 1 + self.rng.choice([0, 0, 0, 2])
        return text + fill * max(0, size) + "x"

    def _ctx(self, spec: CommandSpec) -> Context:
        """Who sends it where: mostly a group playing the command's system, as in real use."""
        rng = self.rng
        r = rng.random()
        group: str | None
        if r < 0.1:
            group = None
        elif r < 0.5 and spec.system in SYSTEM_GROUPS:
            group = SYSTEM_GROUPS[spec.system]
        elif r < 0.6:
            group = MOE_GROUP
        else:
            group = rng.choice(list(MODES))
        roles: tuple[Role, ...] = ()
        who = rng.random()
        if who < 0.3:
            user, roles = GM, (rng.choice(["owner", "admin"]),)
        elif who < 0.9:
            user = rng.choice(PLAYERS)
        else:
            user = STRANGER
        at: tuple[str, ...] = ()
        if rng.random() < 0.2:
            at = tuple(rng.choice([*PLAYERS, GM, "123456", "99999"]) for _ in range(rng.randint(1, 2)))
        name = "" if rng.random() < 0.9 else rng.choice(HOSTILE)
        return make_ctx(user, group, name=name, roles=roles, at=at)


# ------------------------------------------------------------------------------- running
class _Tracebacks(logging.Handler):
    """Keeps the traceback of the last exception the app logged (for a generic-error finding)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.last = ""

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.last = "".join(traceback.format_exception(*record.exc_info))


async def _send(app: App, user: str, group: str | None, text: str, roles: tuple[Role, ...] = ()) -> None:
    await app.dispatch(make_ctx(user, group, roles=roles), text)


async def prepare_world(app: App) -> None:
    """Every fuzzed group on, in its mode, with state to act on (run again now and then, as the
    fuzzed commands turn groups off, change modes and end battles)."""
    for group, mode in MODES.items():
        await _send(app, GM, group, ".bot on", ("owner",))
        await _send(app, GM, group, f".set {mode}" if mode else ".set clr", ("owner",))
        for user, text in _SETUP[mode]:
            await _send(app, user, group, text, ("owner",) if user == GM else ())
    await _send(app, PLAYERS[0], None, ".st 力量60敏捷50")
    await _send(app, GM, MOE_GROUP, ".bot on", ("owner",))
    state, _ = await app.store.sessions.load_session(MOE_GROUP, "moe")
    if state is None or state.get("status") == "over":
        await moe_started(app, MOE_GROUP, PLAYERS)


async def best_ms(app: App, case: Case, tries: int = 3) -> float:
    """The best of ``tries`` timings of ``case`` (a loaded machine makes single timings noisy).

    Timings here are the event loop thread's CPU time (:func:`time.thread_time`): a slow parse
    spends CPU on the loop, while a test worker beside this one (``pytest -n``) only makes the
    wall clock longer."""
    best = float("inf")
    for _ in range(tries):
        t0 = time.thread_time()
        await app.dispatch(case.ctx, case.text)
        best = min(best, (time.thread_time() - t0) * 1000)
    return best


async def check_case(app: App, case: Case, report: FuzzReport, logged: _Tracebacks) -> None:
    """Dispatch ``case`` once and record what went wrong, if anything."""
    logged.last = ""
    t0 = time.thread_time()
    try:
        replies: list[Reply] | None = await app.dispatch(case.ctx, case.text)
    except Exception:
        ms = (time.thread_time() - t0) * 1000
        report.findings.append(Finding("exception", case, ms, traceback.format_exc()))
        return
    ms = (time.thread_time() - t0) * 1000
    report.note_time(ms, case.text)
    for r in replies or []:
        if GENERIC_ERROR in r.text:
            report.findings.append(Finding("generic", case, ms, logged.last or r.text))
            break
    if ms > BUDGET_MS:
        best = await best_ms(app, case)
        if best > BUDGET_MS:
            report.findings.append(Finding("slow", case, best, f"first try {ms:.1f} ms"))


async def fuzz(app: App, n: int, seed: int, *, refresh_every: int = 250) -> FuzzReport:
    """Run ``n`` generated commands through ``app``; the report holds every finding."""
    grammar = CommandGrammar(seed)
    report = FuzzReport()
    logged = _Tracebacks()
    logger = logging.getLogger("chronodice")
    logger.addHandler(logged)
    try:
        for i in range(n):
            if i % refresh_every == 0:
                await prepare_world(app)
            case = grammar.case()
            report.run += 1
            report.per_root[case.root] += 1
            await check_case(app, case, report, logged)
    finally:
        logger.removeHandler(logged)
    return report


__all__ = [
    "BUDGET_MS",
    "GENERIC_ERROR",
    "Case",
    "CommandGrammar",
    "Finding",
    "FuzzReport",
    "best_ms",
    "check_case",
    "fuzz",
    "prepare_world",
]
