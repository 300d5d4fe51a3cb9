"""Writing a ``.log`` export to files, split into parts when it is over the size limit.

A log may hold 20,000 lines of 4,000 characters (:class:`~chronodice.core.limits.LogLimits`),
far more than one file of ``max_export_bytes`` takes, so an export over the limit is cut into
parts ``<名字>-1.txt``, ``<名字>-2.txt``, … each at most the limit: a part holds whole lines only
(cut between two lines, never inside one), and each is a complete file of its own — its own
header saying 第k/n部分 and which lines it holds; an HTML part is a complete page.  An export
that fits stays one file under the old name (``<名字>.txt``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from .export import Part, Pieces

EXTS = ("txt", "html", "json", "dice.txt")
"""The export formats (the file names' endings), in the order their files are handed out:
our text and page, SealDice's log JSON and the text SealDice, Dice! and OlivaDice share
(:mod:`.formats`)."""


class TooLarge(ValueError):
    """Not even one line fits in a file with a part's header (only a tiny configured limit
    does that: a line is at most ``max_line_chars`` characters)."""


def size_text(n: int) -> str:
    """A byte count as people say it.

    >>> size_text(20 * 1024 * 1024), size_text(1536 * 1024), size_text(8000), size_text(10)
    ('20MB', '1.5MB', '7.8KB', '10字节')
    """
    mib = 1024 * 1024
    if n >= mib:
        return f"{n // mib}MB" if n % mib == 0 else f"{n / mib:.1f}MB"
    if n >= 1024:
        return f"{n // 1024}KB" if n % 1024 == 0 else f"{n / 1024:.1f}KB"
    return f"{n}字节"


def _encode(text: str) -> bytes:
    # "replace": a character UTF-8 cannot take (a lone surrogate) costs that character, not the file
    return text.encode("utf-8", "replace")


def split_export(pieces: Pieces, limit: int) -> tuple[int, Iterator[bytes]]:
    """The export's files as (how many, their contents in order): one file when it fits in
    ``limit`` bytes, else parts of whole lines, each at most ``limit`` bytes with its own
    header.  Parts are filled greedily in order, so every line is in exactly one part and
    the parts read in order are the log.  :class:`TooLarge` when a line cannot fit at all."""
    blocks = [_encode(b) for b in pieces.blocks]
    tail = _encode(pieces.tail)
    sep = _encode(pieces.sep)
    whole_head = _encode(pieces.head(None))
    if len(whole_head) + sum(map(len, blocks)) + len(sep) * max(len(blocks) - 1, 0) + len(tail) <= limit:
        return 1, iter([whole_head + sep.join(blocks) + tail])
    n = len(blocks)
    # no part's header is longer than one whose numbers all have as many digits as n; each
    # block is counted with a separator, one more than a part has (hence the + len(sep))
    budget = limit - len(_encode(pieces.head(Part(n, n, n, n)))) - len(tail) + len(sep)
    if not blocks:
        raise TooLarge("header")
    spans: list[tuple[int, int]] = []
    start = size = 0
    for i, block in enumerate(blocks):
        cost = len(block) + len(sep)
        if cost > budget:
            raise TooLarge(f"line {i + 1}")
        if size + cost > budget:
            spans.append((start, i))
            start, size = i, 0
        size += cost
    spans.append((start, n))

    def files() -> Iterator[bytes]:
        for k, (a, b) in enumerate(spans, 1):
            part = Part(k, len(spans), a + 1, b)
            yield _encode(pieces.head(part)) + sep.join(blocks[a:b]) + tail

    return len(spans), files()


def export_paths(folder: Path, stem: str, ext: str | None = None) -> list[Path]:
    """The export files of the log whose files are named ``stem`` now on disk: the single file
    and the parts (``stem.txt``, ``stem-1.txt``, …), of ``ext`` or of every format."""
    exts = (ext,) if ext else EXTS
    pattern = re.compile(rf"{re.escape(stem)}(?:-\d+)?\.(?:{'|'.join(map(re.escape, exts))})")
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if pattern.fullmatch(p.name))


def write_export(folder: Path, stem: str, ext: str, pieces: Pieces, limit: int) -> list[Path]:
    """Write one format of a log's export (split as :func:`split_export` says) and return its
    files in order.  Each file is written to a temporary name and renamed, so an upload still
    reading the previous export is unharmed; files of an earlier export this one no longer
    has (the single file once the log needs parts, say) are removed."""
    count, contents = split_export(pieces, limit)
    paths = (
        [folder / f"{stem}.{ext}"]
        if count == 1
        else [folder / f"{stem}-{k}.{ext}" for k in range(1, count + 1)]
    )
    for path, data in zip(paths, contents, strict=True):
        _write(path, data)
    for old in export_paths(folder, stem, ext):
        if old not in paths:
            old.unlink(missing_ok=True)
    return paths


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".part")
    tmp.write_bytes(data)
    tmp.replace(path)
