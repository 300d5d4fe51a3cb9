"""Fixtures: a migrated temp-file SQLite store, an App with a seeded RNG, and PostgreSQL.

PostgreSQL tests use the server on 127.0.0.1:5432 (present on developer and CI machines): each
test session creates its own database and drops it afterwards.  Where no server is reachable the
tests are skipped with a visible reason — never silently passed.

``CHRONODICE_TEST_STORE=postgresql`` runs the whole suite's ``store`` (and so ``app``) and the
NoneBot plugin tests on PostgreSQL instead of a SQLite file: every test then gets the session's
database emptied (see :func:`store`).  Tests that name SQLite themselves (a file they open again,
a second process) stay on it.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("ENVIRONMENT", "test")

# Import every service module so that the registry is complete (as in the bot).
import chronodice.services  # noqa: E402
from chronodice.app import App  # noqa: E402
from chronodice.core.clock import SYSTEM, ManualClock  # noqa: E402
from chronodice.core.ratelimit import FloodSettings  # noqa: E402
from chronodice.services import load_all  # noqa: E402
from chronodice.store import Store  # noqa: E402

load_all()
del chronodice

# Hypothesis explores new random cases on developers' machines; in CI (CI=true) it replays a
# fixed derandomised set, so a submission's verdict does not depend on the draw.
from hypothesis import settings as _hsettings  # noqa: E402

_hsettings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
if os.environ.get("CI"):
    _hsettings.load_profile("ci")

NONEBUG_DB = Path(__import__("tempfile").mkdtemp(prefix="chronodice-nonebug-")) / "nonebug.db"
TEST_STORE = os.environ.get("CHRONODICE_TEST_STORE", "sqlite")
"""Which database the ``store`` fixture and the plugin tests use: ``sqlite`` or ``postgresql``."""
if TEST_STORE not in ("sqlite", "postgresql"):
    raise SystemExit(f"CHRONODICE_TEST_STORE={TEST_STORE!r}: expected sqlite or postgresql")


def pytest_configure(config: pytest.Config) -> None:
    from helpers import fresh_pg_database
    from nonebug import NONEBOT_INIT_KWARGS

    nonebug_url = f"sqlite+aiosqlite:///{NONEBUG_DB}"
    if TEST_STORE == "postgresql":
        nonebug_url = fresh_pg_database("nonebug")
    config.stash[NONEBOT_INIT_KWARGS] = {
        "driver": "~fastapi",
        "chronodice_database_url": nonebug_url,
        # a data directory of the session's own: not localstore's folder in the user's home
        "chronodice_data_dir": str(NONEBUG_DB.parent / "data"),
        "chronodice_rng_seed": 7,
        "superusers": {"99999"},
        "log_level": "WARNING",
        "console_headless_mode": True,
    }


FOLLOWS_TEST_STORE = frozenset({"store", "nbapp"})
"""Fixtures whose database is the one ``CHRONODICE_TEST_STORE`` names: the ``store`` (and so every
``app``) and nonebug's App (the plugin on the session's database)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On the PostgreSQL pass (``CHRONODICE_TEST_STORE=postgresql``) only the tests whose
    database that setting changes run: the others (rules, dice, renderers, checks of the code,
    tests that name their database themselves) would repeat the SQLite pass exactly.  They are
    reported as deselected."""
    if TEST_STORE != "postgresql":
        return
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        (keep if FOLLOWS_TEST_STORE & set(getattr(item, "fixturenames", ())) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(scope="session", autouse=True)
async def after_nonebot_init(after_nonebot_init: None) -> None:
    """Load the bot's adapters and plugins as bot.py does (nonebug tests use them)."""
    import nonebot
    from nonebot.adapters.console import Adapter as ConsoleAdapter
    from nonebot.adapters.onebot.v11 import Adapter as OneBotAdapter

    driver = nonebot.get_driver()
    driver.register_adapter(OneBotAdapter)
    driver.register_adapter(ConsoleAdapter)
    cwd = os.getcwd()
    os.chdir(ROOT)  # pyproject.toml's [tool.nonebot.plugins]: nonebot_plugin_chronodice (src/)
    try:
        nonebot.load_from_toml("pyproject.toml")
    finally:
        os.chdir(cwd)


@pytest.fixture
async def nbapp(nonebug_init: None):  # type: ignore[no-untyped-def]
    """nonebug's App (our ``app`` fixture is the ChronoDice App)."""
    from nonebug.app import App as NoneBugApp

    return NoneBugApp()


from helpers import PG_ADMIN_DSN, empty_pg_database, fresh_pg_database, pg_admin, run_in_thread  # noqa: E402


def sqlite_url(tmp_path: Path) -> str:
    """The SQLite file a test's own store lives in."""
    return f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"


async def _opened(url: str) -> AsyncIterator[Store]:
    s = Store(url)
    await s.migrate()
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    """A migrated SQLite store of its own (a file in ``tmp_path``), whatever ``TEST_STORE`` says:
    for tests of what only SQLite does."""
    async for s in _opened(sqlite_url(tmp_path)):
        yield s


@pytest.fixture
async def store(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """A migrated store of its own: a SQLite file in ``tmp_path``, or (``CHRONODICE_TEST_STORE=
    postgresql``) the test session's PostgreSQL database, emptied for this test."""
    if TEST_STORE == "postgresql":
        url: str = request.getfixturevalue("pg_url")
        await empty_pg_database(url)
    else:
        url = sqlite_url(tmp_path)
    async for s in _opened(url):
        yield s


@pytest.fixture
def clock() -> ManualClock:
    """The ``app`` fixture's clock: the real time when the test starts, standing still until the
    test moves it (``clock.advance(seconds)``, ``clock.set(datetime)``) — never sleep."""
    return ManualClock(SYSTEM.wall(), SYSTEM.monotonic())


@pytest.fixture
async def app(store: Store, clock: ManualClock) -> App:
    return App(store, random.Random(1234), flood=FloodSettings(enabled=False), clock=clock)


async def _pg_available() -> str | None:
    try:
        import asyncpg
    except ImportError:
        return "asyncpg is not installed"
    try:
        conn = await asyncpg.connect(PG_ADMIN_DSN, timeout=3)
    except (OSError, asyncio.TimeoutError, asyncpg.PostgresError) as exc:
        return f"PostgreSQL not reachable at {PG_ADMIN_DSN}: {exc!r}"
    await conn.close()
    return None


@pytest.fixture(scope="session")
def pg_url() -> str:
    """A fresh PostgreSQL database for this test session (SQLAlchemy URL)."""
    reason = run_in_thread(_pg_available)
    if reason:
        print(f"\n*** SKIPPING PostgreSQL tests: {reason} ***", file=sys.stderr)
        pytest.skip(reason)
    return fresh_pg_database("session")


@pytest.fixture
def own_pg_url(pg_url: str) -> Iterator[str]:
    """A PostgreSQL database of this test's own, dropped after it (a bot started on an empty
    one, a schema written by hand)."""
    name = f"chronodice_own_{uuid.uuid4().hex[:10]}"
    run_in_thread(lambda: pg_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{pg_url.rsplit('/', 1)[0]}/{name}"
    finally:
        run_in_thread(lambda: pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
async def pg_store(pg_url: str) -> AsyncIterator[Store]:
    s = Store(pg_url)
    await s.migrate()
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def data_packs(tmp_path: Path) -> Iterator[Path]:
    """A data directory's ``packs/`` in front of the built-in folder, as the plugin sets it."""
    from helpers import pack_dir_first

    folder = tmp_path / "packs"
    folder.mkdir()
    with pack_dir_first(folder):
        yield folder
