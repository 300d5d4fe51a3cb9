"""Every database URL form README lists opens a real store (issue 24).

The forms hosting panels hand out (``postgresql://``, ``postgres://``, ``?sslmode=…``) are mapped
onto asyncpg; both connection paths (SQLAlchemy's engine for migrations, asyncpg's pool for
commands) must accept the mapped URL.  ``?sslmode=disable`` once stopped the bot with
``parameter "ssl" cannot be changed now``: asyncpg sent the ``ssl`` key to the server as a
run-time setting.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chronodice.store import Store
from chronodice.store.url import normalize_database_url

pytestmark = pytest.mark.postgres


async def _round_trip(url: str, user: str = "10001") -> None:
    """Migrate, write a card, read it back through the command path, close."""
    store = Store(normalize_database_url(url))
    try:
        await store.migrate()
        card = await store.characters.create_character(user, "艾拉", attributes={"力量": 60})
        assert (await store.characters.get_character(card.id)) == card
        await store.groups.set_nickname(user, None, "阿拉")
        assert await store.groups.get_nickname(user, None) == "阿拉"
    finally:
        await store.close()


def _pg_forms(pg_url: str) -> list[str]:
    rest = pg_url.split("://", 1)[1]
    return [
        f"postgresql+asyncpg://{rest}",
        f"postgresql://{rest}",
        f"postgres://{rest}",
        f"postgresql://{rest}?sslmode=disable",
        f"postgres://{rest}?sslmode=prefer",
        f"postgresql://{rest}?sslmode=allow",
        f"postgresql+asyncpg://{rest}?ssl=disable",
    ]


async def test_every_postgresql_form_opens_a_real_store(pg_url: str) -> None:
    for number, url in enumerate(_pg_forms(pg_url)):
        await _round_trip(url, user=f"2000{number}")


async def test_sslmode_require_asks_the_server_for_tls(pg_url: str) -> None:
    """The test server has ``ssl = off``: ``require`` must fail because the server refuses TLS,
    proving the mode reached the driver, and not because the server was sent an ``ssl`` setting."""
    rest = pg_url.split("://", 1)[1]
    for url in (f"postgresql://{rest}?sslmode=require", f"postgres://{rest}?sslmode=verify-full"):
        with pytest.raises(Exception) as caught:
            await _round_trip(url)
        message = f"{type(caught.value).__name__}: {caught.value}"
        assert "cannot be changed" not in message
        assert any(word in message for word in ("SSL", "ssl", "certificate")), message


@pytest.mark.parametrize(
    "form",
    ["sqlite+aiosqlite:///{abs}", "sqlite:///{abs}", "sqlite+aiosqlite:///{rel}", "sqlite:///{rel}"],
)
async def test_every_sqlite_form_opens_a_real_file(
    form: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = form.format(abs=tmp_path / "abs.db", rel="data/rel.db")
    (tmp_path / "data").mkdir()
    await _round_trip(url)
    written = tmp_path / ("abs.db" if "{abs}" in form else "data/rel.db")
    assert written.stat().st_size > 0
