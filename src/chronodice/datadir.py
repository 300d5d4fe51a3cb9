"""The data directory (``CHRONODICE_DATA_DIR``): everything the bot writes.

* ``chronodice.db`` — the SQLite store, unless ``CHRONODICE_DATABASE_URL`` names another;
* ``packs/`` — 萌E content packs that add to or replace the bundled ones (``demo.yaml`` …);
* ``exports/`` — files the bot hands out (logs, character sheets);
* ``decks/`` — deck files for ``.draw`` (``*.json``/``*.yaml``, SealDice and Dice! format);
* ``jrrp.key`` — the secret that makes ``.jrrp`` values unguessable, written on first use.

A relative path is taken from the working directory, which ``bot.py`` sets to the repository
root; the standalone bot's default is ``<repo>/data`` (:data:`DEFAULT_DATA_DIR`).  In the
container image it is the volume ``/data``; in another NoneBot bot that sets none, the plugin uses
nonebot-plugin-localstore's folder.

>>> d = DataDir.resolve("/srv/dice")
>>> d.sqlite_url(), d.packs.as_posix(), d.decks.as_posix()
('sqlite+aiosqlite:////srv/dice/chronodice.db', '/srv/dice/packs', '/srv/dice/decks')
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA_DIR = "data"
DATABASE_FILE = "chronodice.db"


@dataclass(frozen=True)
class DataDir:
    root: Path

    @classmethod
    def resolve(cls, value: str | os.PathLike[str] | None, base: Path | None = None) -> DataDir:
        """``value`` (empty: ``data``) as an absolute path; relative ones start at ``base`` (cwd)."""
        path = Path(os.path.expanduser(str(value or DEFAULT_DATA_DIR)))
        if not path.is_absolute():
            path = (base or Path.cwd()) / path
        return cls(Path(os.path.normpath(path)))

    @property
    def database(self) -> Path:
        return self.root / DATABASE_FILE

    @property
    def packs(self) -> Path:
        return self.root / "packs"

    @property
    def exports(self) -> Path:
        return self.root / "exports"

    @property
    def decks(self) -> Path:
        """Deck files players' groups share (SealDice / Dice! format), read by ``.draw``."""
        return self.root / "decks"

    def sqlite_url(self) -> str:
        """The default store: ``chronodice.db`` in this directory."""
        return f"sqlite+aiosqlite:///{self.database.as_posix()}"

    def create(self) -> None:
        """Create the directory (and its parents) if missing; OSError says why it cannot be."""
        self.root.mkdir(parents=True, exist_ok=True)
