"""What a session command's transaction costs through each database driver, without the store:
raw ``sqlite3`` on the event loop and raw ``asyncpg`` (what the store runs) against SQLAlchemy
Core statements built once on ``Table`` objects.  Run: ``bench_store_drivers.py [N] [PG_URL]``.

write: BEGIN; INSERT an event claim; SELECT the session row (FOR UPDATE on PostgreSQL); UPDATE it
with compare-and-set on its version; INSERT a log row; COMMIT.  read: that SELECT.  SQLite writes
take an ``asyncio.Lock`` (one writer); checkpoints are off while timing.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import asyncpg
import sqlalchemy as sa
from sqlalchemy import bindparam as bp
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

md, S40 = sa.MetaData(), sa.String(40)
TYPES: dict[str, Any] = {"s": S40, "t": sa.Text, "i": sa.Integer, "f": sa.Float, "b": sa.Boolean}
TYPES |= {"d": sa.DateTime(timezone=True), "id": sa.BigInteger().with_variant(sa.Integer, "sqlite")}


def table(name: str, spec: str) -> sa.Table:
    """A table from ``name:type`` words (``TYPES``), ``*`` before the primary key's columns."""
    cols = (w.lstrip("*").split(":") for w in spec.split())
    return sa.Table(name, md, *(sa.Column(c, TYPES[t], primary_key=f"*{c}:" in spec) for c, t in cols))


claims = table("bench_drv_claims", "*self_id:s *message_id:s claimed_at:f")
sessions = table("bench_drv_sessions", "*scope:s *system:s state:t version:i updated_at:d")
LOG_SPEC = "*id:id scope:s system:s user_id:s command:t version_after:i undone:b created_at:d patch:t"
logs = table("bench_drv_log", LOG_SPEC)
LOG_COLS = tuple(c.name for c in logs.c)[1:]
PRAGMAS = "journal_mode=WAL synchronous=NORMAL foreign_keys=ON busy_timeout=0 wal_autocheckpoint=0".split()
SAVE_KEYS = ("state", "new_version", "now", "w_scope", "w_system", "w_version")

C_CLAIM = sa.insert(claims).values(self_id=bp("self_id"), message_id=bp("message_id"), claimed_at=bp("at"))
sc = sessions.c
C_LOAD = sa.select(sc.state, sc.version).where(sc.scope == bp("scope"), sc.system == bp("system"))
C_SAVE = (
    sa.update(sessions)
    .where(sc.scope == bp("w_scope"), sc.system == bp("w_system"), sc.version == bp("w_version"))
    .values(state=bp("state"), version=bp("new_version"), updated_at=bp("now"))
)
C_LOG = sa.insert(logs).values({c: bp(c) for c in LOG_COLS})
CORE = {"claim": C_CLAIM, "lock": C_LOAD.with_for_update(), "load": C_LOAD, "save": C_SAVE, "log": C_LOG}
RAW = {"claim": "INSERT INTO bench_drv_claims (self_id, message_id, claimed_at) VALUES ($1, $2, $3)"}
RAW["load"] = "SELECT state, version FROM bench_drv_sessions WHERE scope = $1 AND system = $2"
RAW["lock"] = RAW["load"] + " FOR UPDATE"  # SQLite: left out, as SQLAlchemy's compiler does
RAW["save"] = "UPDATE bench_drv_sessions SET state = $1, version = $2, updated_at = $3"
RAW["save"] += " WHERE scope = $4 AND system = $5 AND version = $6"
RAW["log"] = f"INSERT INTO bench_drv_log ({', '.join(LOG_COLS)}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
LITE = {k: sql.replace("$", "?").replace(" FOR UPDATE", "") for k, sql in RAW.items()}  # the store's

STATE = json.dumps({"round": 3, "actors": [{"id": f"a{i}", "hp": [30, 30], "init": 12.5} for i in range(66)]})
PATCH = json.dumps([["replace", "/round", 2], ["replace", "/hp/3", 24], ["add", "/log/-", "x" * 126]])
SYSTEM, SELF_ID, SCOPES, KEY = "tick20", "10001", [f"bench-g{k}" for k in range(16)], {"system": "tick20"}
msg_ids, SEEN = itertools.count(), []
RESULTS: list[tuple[str, str, int, int, float, float]] = []
Run = Callable[[str], Awaitable[None]]
Paths = AsyncIterator[tuple[Run, Run]]  # a driver set up: write, read (``count``: statements to SEEN)


class CountedSqlite(sqlite3.Connection):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_trace_callback(SEEN.append)


class CountedPg(asyncpg.Connection):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_query_logger(lambda q: SEEN.append(q.query))  # not prepared statements' runs


def claim() -> dict[str, Any]:
    return {"self_id": SELF_ID, "message_id": str(next(msg_ids)), "at": time.time()}


def save_log(scope: str, version: int, text_time: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
    """The UPDATE's and the log INSERT's parameters (``text_time``: the store's SQLite ``dt_in``)."""
    now: Any = datetime.now(timezone.utc)
    now = now.replace(tzinfo=None).isoformat(" ", "microseconds") if text_time else now
    log = (scope, SYSTEM, "20002", ".init next", version + 1, False, now, PATCH)
    save = (STATE, version + 1, now, scope, SYSTEM, version)
    return dict(zip(SAVE_KEYS, save, strict=True)), dict(zip(LOG_COLS, log, strict=True))


def pragmas(conn: Any) -> None:
    """The store's pragmas, less its WAL limits: checkpoints are off while timing."""
    for p in PRAGMAS:
        conn.execute(f"PRAGMA {p}")


def sqlite_kw(count: bool) -> dict[str, Any]:
    args = {"factory": CountedSqlite if count else sqlite3.Connection, "isolation_level": None}
    return {"connect_args": args, "execution_options": {"begin_as": "BEGIN IMMEDIATE"}}


async def no_reset(_conn: Any) -> None: ...  # as the store's pool: nothing reset on release


@contextlib.asynccontextmanager
async def raw_pg(url: str, count: bool) -> Paths:
    cls = CountedPg if count else asyncpg.Connection
    pool = await asyncpg.create_pool(url, min_size=1, max_size=12, reset=no_reset, connection_class=cls)

    async def write(scope: str) -> None:
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute(RAW["claim"], *claim().values())
            _state, version = await conn.fetchrow(RAW["lock"], scope, SYSTEM)
            save, log = save_log(scope, version)
            if await conn.execute(RAW["save"], *save.values()) != "UPDATE 1":
                raise RuntimeError("version")
            await conn.execute(RAW["log"], *log.values())

    async def read(scope: str) -> None:
        async with pool.acquire() as conn:
            await conn.fetchrow(RAW["load"], scope, SYSTEM)

    yield write, read
    await pool.close()


def sqlite_events(engine: sa.Engine, begin: bool) -> None:
    """The pragmas; ``begin``: SQLAlchemy's recipe for SQLite transactions, the driver's own BEGIN
    being off (``sqlite_kw``), the ``begin`` event sends the execution option ``begin_as``."""
    sa.event.listen(engine, "connect", lambda dbapi, _record: pragmas(dbapi))
    if begin:
        sa.event.listen(engine, "begin", lambda c: c.exec_driver_sql(c.get_execution_options()["begin_as"]))


@contextlib.asynccontextmanager
async def sqlite_sync(path: Path, lock: asyncio.Lock, count: bool, mode: str) -> Paths:
    """On the loop thread.  ``mode`` "raw": the ``sqlite3`` connection as the store uses it; "held":
    SQLAlchemy Core on one connection kept in AUTOCOMMIT like the store's, BEGIN IMMEDIATE/COMMIT
    sent on its DBAPI connection; "pool": SQLAlchemy's recipe, a pool checkout a transaction."""
    engine = sa.create_engine(f"sqlite:///{path}", **sqlite_kw(count))
    sqlite_events(engine, begin=mode == "pool")
    reader = engine.execution_options(begin_as="BEGIN")
    conn = engine.connect().execution_options(isolation_level="AUTOCOMMIT")
    dbapi: Any = conn.connection.dbapi_connection
    raw = {"raw": lambda k, p: dbapi.execute(LITE[k], tuple(p.values()))}

    @contextlib.contextmanager
    def tx(write: bool) -> Iterator[Callable[[str, dict[str, Any]], Any]]:
        if mode == "pool":
            with (engine if write else reader).begin() as c:
                yield lambda k, p: c.execute(CORE[k], p)
        else:  # (no ROLLBACK path: a failure ends the benchmark)
            dbapi.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield raw.get(mode, lambda k, p: conn.execute(CORE[k], p))
            dbapi.execute("COMMIT")

    async def write(scope: str) -> None:
        async with lock:
            with tx(True) as run:
                run("claim", claim())
                _state, version = run("lock", {"scope": scope} | KEY).fetchone()
                save, log = save_log(scope, version, text_time=mode == "raw")
                if run("save", save).rowcount != 1:
                    raise RuntimeError("version")
                run("log", log)

    async def read(scope: str) -> None:
        async with lock:
            with tx(False) as run:
                run("load", {"scope": scope} | KEY).fetchone()

    yield write, read
    conn.close()
    engine.dispose()


@contextlib.asynccontextmanager
async def core_async(url: str, lock: asyncio.Lock | None, count: bool) -> Paths:
    """SQLite (aiosqlite): writes take ``lock``, reads none.  PostgreSQL: reads in AUTOCOMMIT."""
    if lock is not None:
        engine = create_async_engine(url, pool_size=16, max_overflow=0, **sqlite_kw(count))
        sqlite_events(engine.sync_engine, begin=True)
        reader: AsyncEngine = engine.execution_options(begin_as="BEGIN")
    else:
        args = {"connection_class": CountedPg if count else asyncpg.Connection}
        engine = create_async_engine(url, pool_size=12, max_overflow=0, connect_args=args)
        reader = engine.execution_options(isolation_level="AUTOCOMMIT")
        if count:  # what asyncpg's query logger misses: SQLAlchemy's prepared statements
            sa.event.listen(engine.sync_engine, "before_cursor_execute", lambda *a: SEEN.append(a[2]))

    async def write(scope: str) -> None:
        async with lock or contextlib.nullcontext(), engine.begin() as conn:
            await conn.execute(C_CLAIM, claim())
            _state, version = (await conn.execute(CORE["lock"], {"scope": scope} | KEY)).one()
            save, log = save_log(scope, version)
            if (await conn.execute(C_SAVE, save)).rowcount != 1:
                raise RuntimeError("version")
            await conn.execute(C_LOG, log)

    async def read(scope: str) -> None:
        async with reader.begin() as conn:
            (await conn.execute(C_LOAD, {"scope": scope} | KEY)).one()

    yield write, read
    await engine.dispose()


async def timed(fn: Run, n: int, conc: int) -> tuple[float, float]:
    """(µs per transaction, p99 µs of one) over ``n`` transactions, ``conc`` at a time."""
    lat: list[float] = []

    async def one(scope: str, start: float) -> None:  # (one at a time: awaited, no task)
        await fn(scope)
        lat.append(time.perf_counter() - start)

    gc.collect()
    t0 = time.perf_counter()
    for i in range(n // conc):
        start = time.perf_counter()
        await (one(SCOPES[i % 16], start) if conc == 1 else asyncio.gather(*map(one, SCOPES, [start] * 16)))
    return (time.perf_counter() - t0) / len(lat) * 1e6, statistics.quantiles(lat, n=100)[98] * 1e6


async def bench(name: str, make: Callable[[bool], Any], n: int, db: sqlite3.Connection | None = None) -> None:
    """Count a write's and a read's statements on a counted set-up, then time both on a plain one:
    best of 3 runs of ``n``, one at a time and 16 concurrent (``db``: SQLite's, its WAL truncated)."""
    async with make(True) as paths:
        stmts = []
        for fn in paths:
            await fn(SCOPES[0])  # connections set up (pragmas, SQLAlchemy's first connect)
            SEEN.clear()
            await fn(SCOPES[0])
            stmts.append(len(SEEN))
    async with make(False) as paths:
        for kind, fn, count in zip(("write", "read"), paths, stmts, strict=True):
            for conc in (1, 16):
                await timed(fn, max(n // 10, 160), conc)  # warm-up
                runs = []
                for _ in range(3):
                    if db is not None:
                        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                    runs.append(await timed(fn, n, conc))
                RESULTS.append((name, kind, conc, count, min(r[0] for r in runs), min(r[1] for r in runs)))


async def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    pg = sys.argv[2] if len(sys.argv) > 2 else "postgresql://postgres@127.0.0.1:5432/test"
    with tempfile.TemporaryDirectory() as d:
        path, lock = Path(d) / "bench.db", asyncio.Lock()
        md.create_all(sa.create_engine(f"sqlite:///{path}"))
        db = sqlite3.connect(path, isolation_level=None)
        pragmas(db)
        rows = [(s, SYSTEM, STATE) for s in SCOPES]
        db.executemany("INSERT INTO bench_drv_sessions VALUES (?, ?, ?, 0, '')", rows)
        await bench("raw sqlite3 (now)", lambda c: sqlite_sync(path, lock, c, "raw"), n, db)
        await bench("Core sync, held conn", lambda c: sqlite_sync(path, lock, c, "held"), n, db)
        await bench("Core sync, pool", lambda c: sqlite_sync(path, lock, c, "pool"), n, db)
        aio = f"sqlite+aiosqlite:///{path}"
        await bench("Core async aiosqlite", lambda c: core_async(aio, lock, c), n, db)
        db.close()
    setup_pg = create_async_engine(pg.replace("postgresql:", "postgresql+asyncpg:"))
    try:
        async with setup_pg.begin() as conn:
            await conn.run_sync(md.drop_all)
            await conn.run_sync(md.create_all)
            rows = [{"scope": s, "system": SYSTEM, "state": STATE, "version": 0} for s in SCOPES]
            await conn.execute(sa.insert(sessions), rows)
        await bench("raw asyncpg (now)", lambda c: raw_pg(pg, c), n)
        pg_sa = setup_pg.url.render_as_string(hide_password=False)
        await bench("Core async asyncpg", lambda c: core_async(pg_sa, None, c), n)
    except OSError as exc:
        print(f"PostgreSQL skipped: {exc}", file=sys.stderr)
    finally:
        with contextlib.suppress(Exception):
            async with setup_pg.begin() as conn:
                await conn.run_sync(md.drop_all)
        await setup_pg.dispose()
    print(f"\n{n} transactions a run, best of 3 (µs/tx = wall/count; p99 = one transaction's latency)")
    print(f"{'driver':<24} {'tx':<5} {'conc':>4} {'stmts':>5} {'µs/tx':>8} {'p99 µs':>8} {'x raw':>6}")
    base: dict[tuple[bool, str, int], float] = {}
    for name, kind, conc, stmts, mean, p99 in RESULTS:
        ratio = mean / base.setdefault(("asyncpg" in name, kind, conc), mean)
        print(f"{name:<24} {kind:<5} {conc:>4} {stmts:>5} {mean:>8.0f} {p99:>8.0f} {ratio:>6.2f}")


if __name__ == "__main__":
    asyncio.run(main())
