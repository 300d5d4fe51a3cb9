"""Settings: database URL forms, the data directory, the banner's text, log routing, packs."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from chronodice.datadir import DataDir
from chronodice.store import Store
from chronodice.store.url import DatabaseURLError, display_database_url, normalize_database_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://dice:pw@db:5432/chronodice", "postgresql+asyncpg://dice:pw@db:5432/chronodice"),
        ("postgres://dice:pw@db/chronodice", "postgresql+asyncpg://dice:pw@db/chronodice"),
        ("postgresql+asyncpg://dice@db/chronodice", "postgresql+asyncpg://dice@db/chronodice"),
        ("  postgres://dice:p%40ss@db/x  ", "postgresql+asyncpg://dice:p%40ss@db/x"),
        ("postgres://u@h/db?sslmode=require", "postgresql+asyncpg://u@h/db?ssl=require"),
        ("postgresql://u@/db?host=/run/postgresql", "postgresql+asyncpg://u@/db?host=/run/postgresql"),
        ("sqlite:///data/chronodice.db", "sqlite+aiosqlite:///data/chronodice.db"),
        ("sqlite+aiosqlite:////abs/chronodice.db", "sqlite+aiosqlite:////abs/chronodice.db"),
        ("sqlite+aiosqlite://", "sqlite+aiosqlite://"),
    ],
)
def test_accepted_forms(given: str, expected: str) -> None:
    assert normalize_database_url(given) == expected


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "nonsense",
        "mysql://root:secret@127.0.0.1/dice",
        "postgresql+psycopg://u:secret@h/db",
        "postgresql+psycopg2://u:secret@h/db",
        "sqlite+pysqlite:///x.db",
        "oracle://u:secret@h",
    ],
)
def test_other_urls_are_refused_with_one_line_naming_the_accepted_forms(bad: str) -> None:
    with pytest.raises(DatabaseURLError) as info:
        normalize_database_url(bad)
    message = str(info.value)
    assert "\n" not in message and "secret" not in message
    assert "postgresql+asyncpg://" in message and "sqlite+aiosqlite://" in message
    assert "postgres://" in message


def test_store_accepts_the_plain_forms_and_refuses_others(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'x.db'}")
    assert store.url.startswith("sqlite+aiosqlite:///")
    with pytest.raises(DatabaseURLError):
        Store("mysql://root@localhost/dice")


def test_passwords_are_masked_for_display() -> None:
    assert display_database_url("postgresql+asyncpg://dice:s3cret@db:5432/x") == (
        "postgresql+asyncpg://dice:***@db:5432/x"
    )
    assert "s3" not in display_database_url("postgres://dice:s3@cr@t@db/x")
    assert display_database_url("postgresql+asyncpg://dice@db/x") == "postgresql+asyncpg://dice@db/x"


def test_data_dir_resolution(tmp_path: Path) -> None:
    d = DataDir.resolve(None, base=tmp_path)
    assert d.root == tmp_path / "data"
    assert d.sqlite_url() == f"sqlite+aiosqlite:///{tmp_path / 'data' / 'chronodice.db'}"
    assert DataDir.resolve("var/../dice", base=tmp_path).root == tmp_path / "dice"
    assert DataDir.resolve(str(tmp_path / "abs")).root == tmp_path / "abs"
    nested = DataDir.resolve(tmp_path / "a" / "b")
    nested.create()
    assert nested.root.is_dir()


def test_plugin_settings_and_banner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import nonebot

    plugin = nonebot.get_plugin("nonebot_plugin_chronodice:chronodice_core")
    assert plugin is not None and plugin.module is not None
    core: Any = plugin.module
    monkeypatch.setenv("CHRONODICE_DATA_DIR", str(tmp_path / "dd"))
    monkeypatch.setenv("CHRONODICE_DATABASE_URL", "postgres://dice:s3cret@db.example:5432/chronodice")
    settings = core.load_settings()
    assert settings.database_url == "postgresql+asyncpg://dice:s3cret@db.example:5432/chronodice"
    lines = core.banner_lines(settings, host="::", port=8080, token="unset", superusers={"1"})
    text = "\n".join(lines)
    assert lines[0].endswith("ws://[::]:8080/onebot/v11/ws")
    assert "数据库：postgresql postgresql+asyncpg://dice:***@db.example:5432/chronodice" in text
    assert "s3cret" not in text
    assert f"数据目录：{tmp_path / 'dd'}" in text
    monkeypatch.setenv("CHRONODICE_DATABASE_URL", "mysql://x")
    with pytest.raises(DatabaseURLError):
        core.load_settings()


def test_data_dir_inside_another_bot_is_localstores_folder_unless_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: with no CHRONODICE_DATA_DIR (environment or NoneBot's configuration) the plugin
    keeps its data in nonebot-plugin-localstore's folder for the top plugin; a setting wins (the
    standalone bot.py sets ``data``: test_startup.py)."""
    import nonebot
    import nonebot_plugin_localstore

    top, core = (
        nonebot.get_plugin(n)
        for n in ("nonebot_plugin_chronodice", "nonebot_plugin_chronodice:chronodice_core")
    )
    assert top is not None and core is not None
    base = tmp_path / "share" / "nonebot2"
    monkeypatch.setattr(nonebot_plugin_localstore, "BASE_DATA_DIR", base)
    Config = top.module.Config
    folder = top.module.localstore_data_dir(Config(), {})
    assert folder == base / "nonebot_plugin_chronodice" and folder.is_dir()  # not …/chronodice_core
    for environ, configured in [({"CHRONODICE_DATA_DIR": "/srv/dice"}, None), ({}, "/srv/dice")]:
        assert top.module.localstore_data_dir(Config(chronodice_data_dir=configured), environ) is None

    monkeypatch.delenv("CHRONODICE_DATA_DIR", raising=False)
    monkeypatch.delenv("CHRONODICE_DATABASE_URL", raising=False)
    monkeypatch.setattr(top.module, "LOCALSTORE_DATA_DIR", folder)
    monkeypatch.setattr(core.module.config, "chronodice_data_dir", None)
    assert core.module.load_settings().data_dir.root == folder
    monkeypatch.setattr(core.module.config, "chronodice_data_dir", str(tmp_path / "configured"))
    assert core.module.load_settings().data_dir.root == tmp_path / "configured"
    monkeypatch.setenv("CHRONODICE_DATA_DIR", str(tmp_path / "environment"))
    assert core.module.load_settings().data_dir.root == tmp_path / "environment"


def test_the_test_sessions_plugin_never_asked_localstore() -> None:
    """conftest.py sets a data directory: the in-process plugin writes nothing in the home."""
    import nonebot

    top = nonebot.get_plugin("nonebot_plugin_chronodice")
    assert top is not None and top.module.LOCALSTORE_DATA_DIR is None


def test_library_logging_goes_through_nonebot_logger() -> None:
    from nonebot.log import logger

    seen: list[Any] = []
    sink = logger.add(lambda message: seen.append(message.record), level=0)
    try:
        logging.getLogger("chronodice.app").warning("probe %s", 42)
    finally:
        logger.remove(sink)
    assert [(r["level"].name, r["message"]) for r in seen] == [("WARNING", "probe 42")]


def test_describe_error_gives_the_onebot_reason() -> None:
    import nonebot
    from nonebot.adapters.onebot.v11.exception import ActionFailed

    plugin = nonebot.get_plugin("nonebot_plugin_chronodice:chronodice_core")
    assert plugin is not None and plugin.module is not None
    describe = plugin.module.describe_error
    exc = ActionFailed(status="failed", retcode=1200, data=None, message="send failed", wording="不是好友")
    assert describe(exc) == "ActionFailed retcode=1200：不是好友"
    assert describe(TimeoutError()) == "TimeoutError"
    assert describe(OSError("disk full\nmore")) == "OSError: disk full"


def test_packs_in_the_data_dir_come_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from chronodice.rules.moe import pack

    bundled = (pack.PACK_DIR / "test.yaml").read_text(encoding="utf-8")
    # the ``pack:`` field must match the file name (docs/PACKS.md)
    (tmp_path / "mine.yaml").write_text(bundled.replace("pack: test\n", "pack: mine\n"), encoding="utf-8")
    monkeypatch.setattr(pack, "PACK_DIRS", [tmp_path, pack.PACK_DIR])
    pack.load_pack.cache_clear()
    try:
        assert pack.load_pack("mine").cards["attack"].name == "攻击"
        assert pack.load_pack("demo").characters  # bundled packs are still found
    finally:
        pack.load_pack.cache_clear()
