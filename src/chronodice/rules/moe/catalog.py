"""Which 萌E packs there are: the built-in ones and those a group added under ``<data dir>/packs``.

:func:`catalog` reads every ``*.yaml`` of :data:`.pack.PACK_DIRS` (the bot puts the data
directory's ``packs/`` first, see ``nonebot_plugin_chronodice.chronodice_core``).  A file that fails validation is
kept in the list with its problems (``.moe packs`` shows them, the log has them) and is never
used; when a valid pack of the same name exists further down (a built-in one), that one is used.
The result is cached on the folders' file names, sizes and modification times, so a pack dropped
into the folder shows up without a restart.

>>> [e.name for e in catalog() if e.usable and e.builtin][:1]
['demo']
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from .pack import PACK_DIR, PACK_DIRS, Pack, PackError, read_pack_file

log = logging.getLogger("chronodice.moe.packs")

DEFAULT_PACK = "demo"


@dataclass(frozen=True)
class Entry:
    """One pack file: its name (file stem), where it is, the pack or its problems."""

    name: str
    path: Path
    builtin: bool
    pack: Pack | None = None
    problems: list[str] = field(default_factory=list)
    shadowed: bool = False
    """Another file of the same name comes first in :data:`PACK_DIRS` and is valid."""
    hidden: bool = False
    """The file says ``hidden: true`` (the built-in test pack): never listed, valid or not."""

    @property
    def usable(self) -> bool:
        return self.pack is not None and not self.shadowed

    @property
    def source(self) -> str:
        return "内置" if self.builtin else "数据目录"


_cache: dict[tuple[object, ...], list[Entry]] = {}


def _signature() -> tuple[object, ...]:
    sig: list[object] = []
    for folder in PACK_DIRS:
        files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
        for f in files:
            try:
                st = f.stat()
            except OSError:
                continue
            sig.append((str(f), st.st_size, st.st_mtime_ns))
        sig.append(str(folder))
    return tuple(sig)


def catalog() -> list[Entry]:
    """Every pack file in :data:`PACK_DIRS` order (hidden packs included; see :func:`listed`)."""
    sig = _signature()
    hit = _cache.get(sig)
    if hit is not None:
        return hit
    out: list[Entry] = []
    valid_names: set[str] = set()
    for folder in PACK_DIRS:
        if not folder.is_dir():
            continue
        builtin = folder.resolve() == PACK_DIR.resolve()
        for path in sorted(folder.glob("*.yaml")):
            name = path.stem
            try:
                pack = read_pack_file(path, name)
            except PackError as exc:
                log.warning("萌E卡包 %s 无效，已跳过：\n%s", path, "\n".join(exc.problems))
                out.append(Entry(name, path, builtin, problems=list(exc.problems), hidden=exc.hidden))
                continue
            shadowed = name in valid_names
            out.append(Entry(name, path, builtin, pack=pack, shadowed=shadowed, hidden=pack.hidden))
            valid_names.add(name)
    _cache.clear()
    _cache[sig] = out
    return out


def listed() -> list[Entry]:
    """What ``.moe packs`` shows: usable packs that are not hidden, then the invalid files that
    are not hidden either (a broken test pack is the built-in demo's problem, reported there)."""
    entries = catalog()
    good = [e for e in entries if e.usable and not e.hidden]
    bad = [e for e in entries if e.pack is None and not e.hidden]
    return good + bad


def problems_of(word: str) -> tuple[str, list[str]] | None:
    """(file name, problems) of the invalid, listed pack file named ``word`` (its file name)
    when no usable pack has that name: ``.moe new broken`` says why instead of taking the word
    for a map."""
    if find(word) is not None:
        return None
    w = word.strip().lower()
    for e in listed():
        if e.pack is None and e.name.lower() == w:
            return e.path.name, list(e.problems)
    return None


def find(word: str) -> str | None:
    """The pack named ``word``: its file name, its title or one of its ``alias`` (case-insensitive
    for Latin letters); ``None`` when no usable, listed pack has that name."""
    w = word.strip().lower()
    for e in catalog():
        if not e.usable or e.pack is None or e.pack.hidden:
            continue
        names = {e.name.lower(), e.pack.name.lower(), *(a.lower() for a in e.pack.alias)}
        if w in names:
            return e.name
    return None


def pack_of_map(word: str) -> list[tuple[str, str]]:
    """(pack, map key) for every usable pack with a map called ``word`` (key or name)."""
    out: list[tuple[str, str]] = []
    for e in catalog():
        if not e.usable or e.pack is None or e.pack.hidden:
            continue
        for key, m in e.pack.maps.items():
            if word in (key, m.name):
                out.append((e.name, key))
    return out
