"""Database URLs as admins write them → the SQLAlchemy URL the store is configured with.

Hosting panels and ``psql`` hand out ``postgresql://…`` or ``postgres://…``; SQLAlchemy would
open those with psycopg, which is not installed.  The store speaks asyncpg (PostgreSQL) and
SQLite, so the plain forms are mapped onto one canonical form each and anything else is
refused with one line that names the forms we accept.  (The SQLite form keeps its historical
``+aiosqlite`` name; the store opens the file with SQLAlchemy's synchronous ``sqlite3`` engine,
see :mod:`.sqlite_backend`.)

>>> normalize_database_url("postgres://dice:pw@db:5432/chronodice")
'postgresql+asyncpg://dice:pw@db:5432/chronodice'
>>> normalize_database_url("sqlite:///data/chronodice.db")
'sqlite+aiosqlite:///data/chronodice.db'
>>> display_database_url("postgresql+asyncpg://dice:secret@db/chronodice")
'postgresql+asyncpg://dice:***@db/chronodice'
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

ACCEPTED_FORMS = (
    "sqlite+aiosqlite:///路径/chronodice.db（也可写 sqlite:///…）、"
    "postgresql+asyncpg://用户:密码@主机:5432/库名（也可写 postgresql://… 或 postgres://…）"
)

_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "sqlite+aiosqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
    "postgresql+asyncpg": "postgresql+asyncpg",
}


_PASSWORD = re.compile(r"(://[^:/@\s]*:)\S*@")


class DatabaseURLError(ValueError):
    """A database URL the store cannot open; the message is one line for the admin."""


def _parse(url: str) -> URL:
    try:
        return make_url(url.strip())
    except (ArgumentError, ValueError) as exc:
        raise DatabaseURLError(f"无法解析数据库地址 {_mask(url)}；可用的写法：{ACCEPTED_FORMS}") from exc


def normalize_database_url(url: str) -> str:
    """The URL with its scheme mapped onto aiosqlite / asyncpg; :class:`DatabaseURLError` if none fits.

    The rest of the URL is kept as written (so percent-escapes in passwords survive); a
    libpq-style ``sslmode=`` becomes asyncpg's ``ssl=``.

    >>> normalize_database_url("mysql://root:pw@localhost/dice")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    chronodice.store.url.DatabaseURLError: 不支持的数据库地址 mysql://root:***@localhost/dice（mysql）；可用的写法：...
    """
    raw = url.strip()
    parsed = _parse(raw)
    scheme = parsed.drivername
    driver = _DRIVERS.get(scheme.lower())
    if driver is None:
        raise DatabaseURLError(f"不支持的数据库地址 {_mask(raw)}（{scheme}）；可用的写法：{ACCEPTED_FORMS}")
    result = driver + raw[len(scheme) :]
    if driver == "postgresql+asyncpg" and "sslmode" in parsed.query:
        base, _, query = result.partition("?")
        pairs = [("ssl" if k == "sslmode" else k, v) for k, v in parse_qsl(query, keep_blank_values=True)]
        result = f"{base}?{urlencode(pairs)}"
    return result


def _mask(url: str) -> str:
    """The URL with any password replaced by ``***`` (also when SQLAlchemy cannot parse it)."""
    return _PASSWORD.sub(r"\1***@", url.strip()) or "（空）"


def display_database_url(url: str) -> str:
    """The URL for logs and the start-up banner: the password replaced by ``***``."""
    return _mask(url)
