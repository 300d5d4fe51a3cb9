"""What each store cache and codec trick buys: the hot commands timed with each switched off.

Mean ms per ``App.dispatch`` (in-process) of ``.st 力量+1`` (a player with a card), ``.init next``
(a D20 combat of 20 combatants, by its GM) and a TimeLine declaration ``.bat 力量 1t`` (two
characters alternating in a battle of ~300 actions: built to ``300 - n/2``, each batch taken back
with ``store.undo`` after, untimed), on SQLite (a temp file) and PostgreSQL (a database created
on ``PG_ADMIN`` and dropped after), under each of :data:`VARIANTS`: monkeypatches of the running
store and codecs (``src/`` is not changed), undone after each batch.  Best of ``--rounds``
rounds of ``-n`` commands, all variants in each round (in turn: drift hits each alike).  Every
reply and the state after each batch are checked, and an untimed probe per variant counts the
store's and codecs' work per command: a variant that changes nothing stops the run.

    .venv/bin/python benchmarks/bench_caches.py [--db sqlite|postgres|both] [-n 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import inspect
import random
import sys
import tempfile
import time
import uuid
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import asyncpg  # noqa: E402

from chronodice.app import App  # noqa: E402
from chronodice.core.context import Context  # noqa: E402
from chronodice.core.ratelimit import FloodSettings  # noqa: E402
from chronodice.services import load_all  # noqa: E402
from chronodice.services.tick20 import codec as d20  # noqa: E402
from chronodice.services.timeline import codec as tl  # noqa: E402
from chronodice.store import Store, texts  # noqa: E402
from chronodice.store import states as store_states  # noqa: E402
from chronodice.store.backends import PgTx, SqliteTx  # noqa: E402
from chronodice.store.states import StateCache  # noqa: E402

load_all()
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
G_D20, G_TL, PLAYER, GM, TL_USERS = "20002", "30003", "7", "8", ("10001", "10002")
COMMANDS, BATTLE, WARM, PROBE = (".st 力量+1", ".init next", ".bat"), 300, 3, 4
SHEET = (
    ".TLsetup 姓名:{name},等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,"
    "医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,外貌:50,资产:50"
)
ABSENT = object()
Counts = dict[str, Counter[str]]
"""Per command, what a variant's probe counted (over :data:`PROBE` commands)."""


def ctx(user: str, group: str) -> Context:
    """A message's context from ``user`` in ``group`` (:data:`GM` an admin there)."""
    roles = frozenset({"admin"}) if user == GM else frozenset()
    return Context(user_id=user, group_id=group, sender_name=f"PL{user}", self_id="1", roles=roles)


@contextlib.contextmanager
def patched(obj: Any, name: str, value: Any) -> Iterator[None]:
    """``obj.name = value`` (:data:`ABSENT`: deleted) until the block ends, then as it was."""
    old = vars(obj).get(name, ABSENT)
    delattr(obj, name) if value is ABSENT else setattr(obj, name, value)
    try:
        yield
    finally:
        if old is not ABSENT:
            setattr(obj, name, old)
        elif name in vars(obj):
            delattr(obj, name)


# ---------------------------------------------------------------------------------- variants
def plain_keep(objs: Any, old_objs: Any, old: Any, convert: Callable[[Any], Any]) -> list[Any]:
    """``texts.keep`` without reuse: every item converted afresh, a plain list (no texts)."""
    return [convert(o) for o in objs]


def plain_share(items: list[Any], old: Any) -> list[Any]:
    """``texts.share`` without reuse: the fresh plain items as they are."""
    return items


class Variant(NamedTuple):
    name: str
    doc: str
    tweaks: Callable[[Store], list[tuple[Any, str, Any]]]
    """What it sets: ``(object, attribute, value)`` (:data:`ABSENT`: deleted)."""
    proof: tuple[tuple[str, str, bool], ...] = ()
    """``(command, count, gone)``: its probe counts more of that per command than ``all on``'s
    (``gone``: none, where ``all on``'s counts some), or the run stops."""
    pg_only: bool = False


VARIANTS = (
    Variant("all on", "as shipped", lambda s: []),
    Variant(
        "no state cache",
        "store._states = StateCache(size=0): put() evicts at once, so nothing is cached, trusted, "
        "lent or known by row identity (PostgreSQL: the one-statement session write needs the "
        "cached row, so sessions take the locked transaction too)",
        lambda s: [(s, "_states", StateCache(size=0))],
        ((".bat", "decodes", False), (".init next", "decodes", False)),
    ),
    Variant(
        "no lend/reuse",
        "StateCache.lend a no-op: apply_state(reuse=...) never takes the state load_state gave "
        "out (a D20 .init next parses its combat twice)",
        lambda s: [(s._states, "lend", lambda key, got: None)],
        ((".init next", "decodes", False),),
    ),
    Variant(
        "no D20 codec memos",
        "CombatCodec._KEEP = 0, its memos empty: _decoded/_encoded/_written never hit, so decode "
        "parses the log and encode converts every logged event",
        lambda s: [
            (d20.CombatCodec, "_KEEP", 0),
            *((d20.COMBAT_CODEC, m, OrderedDict()) for m in ("_decoded", "_encoded", "_written")),
        ],
        ((".init next", "memo decodes", True), (".init next", "converted", False)),
    ),
    Variant(
        "no text splicing",
        "BattleCodec.dumps and CombatCodec.dumps deleted (the store serialises with patch.dumps; "
        "the D20 decode memo is then never filled), texts.keep/texts.share give fresh plain lists "
        "(every item converted, no Rows texts: session_rows serialise each item)",
        lambda s: [
            *((cls, "dumps", ABSENT) for cls in (tl.BattleCodec, d20.CombatCodec)),
            *((texts, "keep", plain_keep), (texts, "share", plain_share)),
        ],
        ((".bat", "whole dumps", False), (".init next", "whole dumps", False), (".bat", "converted", False)),
    ),
    Variant(
        "no row cache",
        "Store._cache_ok() returns False: groups/nicknames/bindings/cards read through, and no "
        "session copy is trusted without reading its row (PostgreSQL: no one-statement card write)",
        lambda s: [(s, "_cache_ok", lambda: False)],
        ((".st 力量+1", "statements", False),),
    ),
    Variant(
        "no one-statement writes",
        "Store._at_once() returns False: session and card writes take the locked transaction",
        lambda s: [(s, "_at_once", lambda: False)],
        ((".st 力量+1", "one-statement", True), (".init next", "one-statement", True)),
        pg_only=True,
    ),
)


@contextlib.contextmanager
def switched_off(variant: Variant, store: Store) -> Iterator[None]:
    """``variant`` in force until the block ends; then every cached row and session copy is
    read again before it is trusted (a variant may leave them stale; each batch's warm-up
    commands fill the caches again)."""
    with contextlib.ExitStack() as stack:
        for obj, name, value in variant.tweaks(store):
            stack.enter_context(patched(obj, name, value))
        yield
    store._foreign_change()


# ---------------------------------------------------------------------------------- counters
def counter(counts: Counter[str], key: str, fn: Callable[..., Any], when: Any = None) -> Any:
    """``fn`` counting its calls in ``counts[key]`` (those where ``when(*args)`` holds)."""
    if inspect.iscoroutinefunction(fn):

        async def acount(*args: Any, **kwargs: Any) -> Any:
            counts[key] += when is None or bool(when(*args))
            return await fn(*args, **kwargs)

        return acount

    def count(*args: Any, **kwargs: Any) -> Any:
        counts[key] += when is None or bool(when(*args))
        return fn(*args, **kwargs)

    return count


def memo_hit(text: str) -> bool:
    """Whether the D20 codec's decode of ``text`` takes its log from the memo of what it wrote."""
    written = d20.COMBAT_CODEC._written.get(id(text))
    return written is not None and written[0] is text


@contextlib.contextmanager
def counting(store: Store, counts: Counter[str]) -> Iterator[None]:
    """Count statements (``Tx`` ones: not BEGIN/COMMIT), transactions and codec work."""
    whole = lambda codec, plain: getattr(codec, "dumps", None) is None  # noqa: E731
    d20_decode = counter(counts, "decodes", d20.COMBAT_CODEC.decode)
    with contextlib.ExitStack() as stack:
        for obj, name, key, when in (
            *((tx, "_execute", "statements", None) for tx in (SqliteTx, PgTx)),
            *((store, m, key, None) for m, key in (("_read", "read tx"), ("_write", "locked write tx"))),
            (store, "_once", "one-statement", None),
            (tl.BATTLE_CODEC, "decode", "decodes", None),
            (d20, "_event_row", "converted", None),
            (tl, "_row", "converted", None),
            (store_states, "text_of", "whole dumps", whole),
            (d20.COMBAT_CODEC, "decode", "memo decodes", memo_hit),
        ):
            fn = d20_decode if obj is d20.COMBAT_CODEC else getattr(obj, name)
            stack.enter_context(patched(obj, name, counter(counts, key, fn, when)))
        yield


# ---------------------------------------------------------------------------------- commands
def check(text: str, want: str, replies: list[Any] | None) -> None:
    """Stop the run unless a reply to ``text`` holds ``want`` (an error reply never does)."""
    if not any(want in r.text for r in replies or []):
        raise SystemExit(f"{text!r}: expected {want!r} in {[r.text for r in replies or []]}")


class Bench:
    """One store with a player's card, a D20 combat and a TimeLine battle; sends and checks."""

    def __init__(self, store: Store) -> None:
        self.store, self.strength = store, 60
        self.app = App(store, random.Random(1), flood=FloodSettings(enabled=False))

    async def setup(self, battle: int) -> None:
        sends = [(PLAYER, G_D20, ".st 力量60敏捷50", "力量:60"), (GM, G_D20, ".init begin", "新战斗")]
        sends += [(GM, G_D20, f".init add 怪{i} {i}", "加入") for i in range(20)]
        sends += [(GM, G_D20, ".init start", "的回合")]
        sends += [
            (u, G_TL, SHEET.format(name=name), "设置完成") for u, name in zip(TL_USERS, "甲乙", strict=True)
        ]
        sends += [(GM, G_TL, ".bat 开始 甲 乙", "战斗开始")]
        sends += [(TL_USERS[k % 2], G_TL, ".bat 力量 1t", f"行动#{k + 1} ") for k in range(battle)]
        for user, group, text, want in sends:
            check(text, want, await self.app.dispatch(ctx(user, group), text))

    async def run(self, cmd: str, n: int, warm: int = WARM, counts: Counter[str] | None = None) -> float:
        """``warm`` untimed commands, then ``n`` timed (``counts``: counted, see :func:`counting`):
        the mean ms.  Each reply and the state after are checked; a TimeLine batch is taken
        back (``store.undo``, not timed, not counted)."""
        store, total = self.store, warm + n
        if cmd == ".st 力量+1":
            sent = [(cmd, ctx(PLAYER, G_D20), f"力量+1→{self.strength + i + 1}") for i in range(total)]
            self.strength += total
        elif cmd == ".init next":
            before = (await store.load_session(G_D20, "tick20"))[0] or {}
            sent = [(cmd, ctx(GM, G_D20), "的回合")] * total
        else:
            raw = (await store.load_session(G_TL, "timeline"))[0] or {}
            first, size = raw["next_id"], len(raw["actions"])
            users = [TL_USERS[(size + i) % 2] for i in range(total)]
            sent = [(".bat 力量 1t", ctx(u, G_TL), f"行动#{first + i} ") for i, u in enumerate(users)]
        got = [await self.app.dispatch(who, text) for text, who, _ in sent[:warm]]
        gc.collect()
        with counting(store, counts) if counts is not None else contextlib.nullcontext():
            t0 = time.perf_counter()
            for text, who, _ in sent[warm:]:
                got.append(await self.app.dispatch(who, text))
            mean = (time.perf_counter() - t0) / max(1, n) * 1000
        for (text, _, want), replies in zip(sent, got, strict=True):
            check(text, want, replies)
        if cmd == ".init next":
            after = (await store.load_session(G_D20, "tick20"))[0] or {}
            assert (after["round"], after["turn_no"]) > (before["round"], before["turn_no"]), after
        elif cmd == ".bat":
            for _ in sent:
                await store.undo(G_TL, "timeline")
            raw = (await store.load_session(G_TL, "timeline"))[0] or {}
            assert (len(raw["actions"]), raw["next_id"]) == (size, first), "undo did not rewind"
        return mean


@contextlib.asynccontextmanager
async def database(kind: str) -> AsyncIterator[str]:
    """A fresh database's URL: a temp SQLite file, or a PostgreSQL database dropped after."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite+aiosqlite:///{Path(tmp) / 'caches.db'}"
        return
    name = f"chronodice_bench_caches_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(PG_ADMIN)
    await admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://") + f"/{name}"
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def bench_db(kind: str, n: int, rounds: int) -> None:
    """Probe, check and time every variant on a fresh database of ``kind``; print the table."""
    variants = [v for v in VARIANTS if kind == "postgres" or not v.pg_only]
    best: dict[tuple[str, str], float] = {}
    async with database(kind) as url:
        store = Store(url)
        await store.migrate()
        try:
            bench = Bench(store)
            await bench.setup(max(10, BATTLE - n // 2))
            probes: dict[str, Counts] = {v.name: {c: Counter() for c in COMMANDS} for v in variants}
            for v in variants:
                with switched_off(v, store):
                    for cmd in COMMANDS:
                        await bench.run(cmd, PROBE, warm=2, counts=probes[v.name][cmd])
            check_probes(kind, variants, probes)
            for r in range(rounds):  # each round starts at another variant: none always first
                for v in variants[r % len(variants) :] + variants[: r % len(variants)]:
                    with switched_off(v, store):
                        for cmd in COMMANDS:
                            ms = await bench.run(cmd, n)
                            best[v.name, cmd] = min(ms, best.get((v.name, cmd), ms))
        finally:
            await store.close()
    print(f"\n== {kind}: ms per command, best of {rounds} rounds of {n} (ratio to all on) ==")
    print(f"{'variant':<26}" + "".join(f"{c:>22}" for c in COMMANDS))
    for v in variants:
        cells = (f"{best[v.name, c]:9.3f} ms {best[v.name, c] / best['all on', c]:6.2f}×" for c in COMMANDS)
        print(f"{v.name:<26}" + "".join(f"{cell:>22}" for cell in cells))


def check_probes(kind: str, variants: list[Variant], probes: dict[str, Counts]) -> None:
    """Print what each variant's probe counted per command; stop if a variant's proof fails."""
    print(f"\nprobe ({kind}, untimed): counts per command, mean of {PROBE} after 2 warm-up ones")
    keys = sorted({k for counts in probes.values() for c in counts.values() for k in c})
    base, failed = probes["all on"], []
    for v in variants:
        for c in COMMANDS:
            got = probes[v.name][c]
            print(f"  {v.name:<24} {c:<11} " + "  ".join(f"{k} {got[k] / PROBE:g}" for k in keys))
        for cmd, what, gone in v.proof:
            now, was = probes[v.name][cmd][what], base[cmd][what]
            if not (now == 0 < was if gone else now > was):
                failed.append(f"{v.name}: {cmd} {what} {now / PROBE:g} (all on {was / PROBE:g})")
    if failed:
        raise SystemExit(f"{kind}: variants that did not change what they should: {failed}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print("variants (monkeypatches of the running store or codecs, undone after each batch):")
    for v in VARIANTS:
        print(f"  {v.name}{' (PostgreSQL only)' if v.pg_only else ''}: {v.doc}")
    for kind in ("sqlite", "postgres") if args.db == "both" else (args.db,):
        await bench_db(kind, args.n, args.rounds)


if __name__ == "__main__":
    asyncio.run(main())
