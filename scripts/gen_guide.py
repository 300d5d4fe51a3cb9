"""Write the Chinese user guide (``docs/guide/``) from its templates, every example reply real.

Each template ``docs/guide/_src/<page>.md`` is Markdown with two kinds of fenced block:

* ````` ```cast ````` — who speaks on the page, one per line: ``名字 QQ号 [owner|admin|superuser]``
  (an ``owner``/``admin`` is a GM of the group; a ``superuser`` is one of the bot's owners).  Without one the page uses :data:`DEFAULT_CAST`.
* ````` ```chat ````` — a scene: ``名字: 指令`` lines sent in order to one ``App`` per page, so a
  card entered in the first scene is there in the last.  ``名字（私聊）: 指令`` is sent in a
  private chat; ``~名字: 指令`` is sent but not shown (a scene's setup); ``@名字`` of someone in the
  cast is a real QQ mention (taken out of the text, as NapCat delivers it); ``!seed N`` reseeds
  the dice; ``!picture 名 说明`` saves the picture of the next command's reply as
  ``img/<page>-<名>.png``; ``# …`` is a comment.

The scene is replaced by the transcript of what the bot answered — texts, private messages,
pictures, files, group-card changes — produced by :meth:`chronodice.app.App.dispatch`, the path
every chat message takes, on a fresh SQLite store with a seeded RNG and a fixed clock.  Nothing
in the output is typed by hand, so re-running the script after a change of wording picks it up.

``python scripts/gen_guide.py`` rewrites ``docs/guide/`` (pages and ``img/``);
``--check`` exits 1 naming the first page or picture that differs (``tests/deploy/test_guide.py``
runs the same comparison in memory).
"""

from __future__ import annotations

import asyncio
import io
import random
import re
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import chronodice.services.moe as moe  # noqa: E402
from chronodice.app import App  # noqa: E402
from chronodice.core.clock import ManualClock  # noqa: E402
from chronodice.core.context import Context, Role  # noqa: E402
from chronodice.core.ratelimit import FloodSettings  # noqa: E402
from chronodice.core.reply import Reply  # noqa: E402
from chronodice.datadir import DataDir  # noqa: E402
from chronodice.services import load_all  # noqa: E402
from chronodice.services.gamelog import recorder  # noqa: E402
from chronodice.store import Store  # noqa: E402

GUIDE = ROOT / "docs" / "guide"
SOURCES = GUIDE / "_src"
IMAGES = "img"
BOT = "骰娘"
GROUP = "20002"
SELF_ID = "123456"
DEFAULT_SEED = 1
CHINA = timezone(timedelta(hours=8))
NOW = datetime(2026, 11, 22, 20, 0, tzinfo=CHINA)
MESSAGE_GAP = 5.0
"""Seconds between two messages of a scene: people type a few seconds apart (a ``.init next``
right after another's is a duplicate press, C02)."""
"""The fixed wall clock of every scene (a Sunday evening, when groups play)."""
HEADER = (
    "<!-- 本页由 scripts/gen_guide.py 从 docs/guide/_src/{name} 生成：请改模板后重新运行，不要直接修改 -->\n"
)


@dataclass(frozen=True)
class Member:
    """One speaker of a page: the name the group sees, the QQ id and the platform roles."""

    name: str
    user_id: str
    roles: tuple[Role, ...] = ()


OWNER = Member("骰主", "90000", ("superuser",))
"""The bot's owner (``SUPERUSERS``): where ``.send`` delivers; speaks only on a page whose cast
names it (``骰主 90000 superuser``)."""
DEFAULT_CAST = (
    Member("GM", "10000", ("owner",)),
    Member("艾拉", "10001"),
    Member("托林", "10002"),
    Member("白鸦", "10003"),
)

LINE = re.compile(r"^(?P<hide>~)?(?P<who>[^:：\s（(]+)(?P<private>[（(]私聊[）)])?\s*[:：]\s?(?P<text>.*)$")
BLOCK = re.compile(r"^```(cast|chat)[ \t]*\n(.*?)^```[ \t]*$\n?", re.S | re.M)


@dataclass
class Page:
    """What one template produced: the Markdown, its pictures and the commands it ran."""

    name: str
    text: str = ""
    images: dict[str, bytes] = field(default_factory=dict)
    commands: set[str] = field(default_factory=set)


@dataclass
class Scene:
    """The running state of one page: its App, cast and the pictures asked for."""

    app: App
    page: Page
    cast: dict[str, Member]
    picture: tuple[str, str] | None = None
    tail: list[str] = field(default_factory=list)
    messages: int = 0
    """Messages recorded so far (their ids, and a second apart in a log)."""
    """Markdown put after the current transcript (its pictures)."""


# ---------------------------------------------------------------------- running a scene
def parse_cast(body: str) -> dict[str, Member]:
    """``名字 QQ号 [owner|admin|superuser]`` lines → members by name."""
    cast: dict[str, Member] = {}
    for line in body.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        roles = tuple(w for w in words[2:] if w in ("owner", "admin", "superuser"))
        cast[words[0]] = Member(words[0], words[1], roles)  # type: ignore[arg-type]
    return cast


def mentions(text: str, cast: dict[str, Member]) -> tuple[str, tuple[str, ...]]:
    """The text NapCat hands over (``@名字`` of a cast member taken out) and the ids mentioned;
    an ``@`` before any other name is typed text (an NPC's name) and stays."""
    ids: list[str] = []

    def take(m: re.Match[str]) -> str:
        member = cast.get(m.group(1))
        if member is None:
            return m.group(0)
        ids.append(member.user_id)
        return ""

    plain = re.sub(r"@([^\s@]+)", take, text)
    return re.sub(r"\s{2,}", " ", plain).strip(), tuple(ids)


def name_of(user_id: str | None, cast: dict[str, Member]) -> str:
    for m in (*cast.values(), OWNER):
        if m.user_id == user_id:
            return m.name
    return user_id or ""


def indent(text: str) -> str:
    """A multi-line message: the first line after the speaker, the others indented under it."""
    return text.replace("\n", "\n    ")


def show_reply(scene: Scene, reply: Reply, sender: Member, private_chat: bool) -> list[str]:
    """One outgoing message as transcript lines (the picture saved when one was asked for)."""
    cast = scene.cast
    if reply.private:
        to = name_of(reply.to_user or sender.user_id, cast)
        head = f"{BOT}（私聊{to}）："
    elif reply.group is not None:  # the GM screen: a private command's public part
        head = f"{BOT}（发到群里）："
    elif private_chat:
        head = f"{BOT}（私聊{sender.name}）："
    else:
        head = f"{BOT}："
    lines: list[str] = []
    body = "".join(f"@{name_of(u, cast)} " for u in reply.mentions) + reply.text
    if reply.image is not None:
        if scene.picture is None:
            raise ValueError(f"{scene.page.name}: a reply has a picture; put !picture 名 说明 before it")
        label, caption = scene.picture
        file = f"{IMAGES}/{scene.page.name}-{label}.png"
        scene.page.images[file] = reply.image
        scene.picture = None
        body = (body + "\n" if body else "") + f"[图片：{caption}，见下图]"
        scene.tail.append(f"![{caption}]({file})")
    if body:
        lines.append(head + indent(body))
    lines += [f"{head}[文件 {f.name}]" for f in reply.files]
    if reply.group_card is not None:
        who, card = reply.group_card
        lines.append(f"（{BOT}把 {name_of(who, cast)} 的群名片改为「{card}」）")
    if reply.leave_group:
        lines.append(f"（{BOT}退出了本群）")
    return lines


async def send(scene: Scene, line: str) -> list[str]:
    """Run one ``名字: 指令`` line; the transcript lines it makes (empty when hidden)."""
    m = LINE.match(line)
    if m is None:
        raise ValueError(f"{scene.page.name}: cannot read the chat line {line!r}")
    member = scene.cast.get(m["who"])
    if member is None:
        raise ValueError(f"{scene.page.name}: {m['who']!r} is not in the cast")
    private = m["private"] is not None
    text, at = mentions(m["text"], scene.cast)
    if isinstance(scene.app.clock, ManualClock):
        scene.app.clock.advance(MESSAGE_GAP)
    ctx = Context(
        user_id=member.user_id,
        group_id=None if private else GROUP,
        sender_name=member.name,
        roles=frozenset(member.roles),
        self_id=SELF_ID,
        at_ids=at,
    )
    routed = scene.app.registry.route(text)
    if routed is not None:
        scene.page.commands.add(routed.spec.name)
    if not private:
        await record(scene, ctx, member.user_id, member.name, message_parts(m["text"], scene.cast))
    replies = [(r, private) for r in await scene.app.dispatch(ctx, text) or []]
    answered = bool(replies)
    for _group, later in await moe.sweep(scene.app, NOW.timestamp()):  # a private choice's
        replies += [(r, False) for r in later]  # group text waits in the 萌E outbox
    out = [f"{member.name}{'（私聊）' if private else ''}：{m['text']}"]
    for reply, in_private in replies:
        out += show_reply(scene, reply, member, in_private)
        if not in_private and not reply.private and (reply.text or reply.mentions):
            check = None
            if reply.check is not None:
                check = recorder.check_dict(reply.check, ctx.user_id, await scene.app.display_name(ctx))
            parts = [["at", name_of(u, scene.cast)] for u in reply.mentions] + [["text", reply.text]]
            await record(scene, ctx, SELF_ID, BOT, parts, check=check)
    if not answered and routed is not None:
        out.append(f"（{BOT}没有回应）")
    return [] if m["hide"] else out


def message_parts(text: str, cast: dict[str, Member]) -> list[list[str]]:
    """A message as ``.log`` stores it: text, with ``@名字`` of a cast member as a mention."""
    parts: list[list[str]] = []
    for piece in re.split(r"(@[^\s@]+)", text):
        if piece.startswith("@") and piece[1:] in cast:
            parts.append(["at", piece[1:]])
        elif piece:
            parts.append(["text", piece])
    return parts


async def record(
    scene: Scene,
    ctx: Context,
    user_id: str,
    name: str,
    parts: list[list[str]],
    check: dict[str, Any] | None = None,
) -> None:
    """What the plugin's ``.log`` recorder does at the NoneBot edge for a group message: the
    player's message before the command runs, each group reply after it is sent."""
    scene.messages += 1
    await recorder.record(
        scene.app.store,
        scene.app.log_limits,
        GROUP,
        user_id=user_id,
        nickname=name,
        parts=parts,
        when=NOW.astimezone(timezone.utc) + timedelta(seconds=scene.messages),
        self_id=SELF_ID,
        message_id=str(scene.messages),
        is_bot=user_id == SELF_ID,
        check=check,
    )


async def run_chat(scene: Scene, body: str) -> str:
    """A ``chat`` block → its transcript as a fenced text block (and the pictures below it)."""
    scene.tail = []
    lines: list[str] = []
    for raw in body.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("!seed"):
            scene.app.rng.seed(int(line.split()[1]))
        elif line.startswith("!picture"):
            _, label, *caption = line.split()
            scene.picture = (label, " ".join(caption) or label)
        else:
            lines += await send(scene, line)
    if scene.picture is not None:
        raise ValueError(f"{scene.page.name}: !picture {scene.picture[0]} but no picture came")
    out = "```text\n" + "\n".join(lines) + "\n```\n" if lines else ""
    return out + "".join(f"\n{t}\n" for t in scene.tail)


async def build_page(source: Path) -> Page:
    """One template → its page, on a fresh store and App of its own."""
    page = Page(source.stem)
    template = source.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="chronodice-guide-") as tmp:
        clock = ManualClock(NOW, 1000.0)  # the store stamps its rows with it too
        store = Store(f"sqlite+aiosqlite:///{tmp}/guide.db", clock=clock)
        await store.migrate()
        try:
            app = App(
                store,
                random.Random(DEFAULT_SEED),
                clock=clock,
                flood=FloodSettings(enabled=False),
                data_dir=DataDir(Path(tmp)),
                owners=(OWNER.user_id,),
            )
            scene = Scene(app, page, {m.name: m for m in DEFAULT_CAST})
            parts: list[str] = []
            pos = 0
            for block in BLOCK.finditer(template):
                parts.append(template[pos : block.start()])
                pos = block.end()
                if block.group(1) == "cast":
                    scene.cast = parse_cast(block.group(2))
                else:
                    parts.append(await run_chat(scene, block.group(2)))
            parts.append(template[pos:])
        finally:
            await store.close()
    page.text = HEADER.format(name=source.name) + re.sub(r"\n{3,}", "\n\n", "".join(parts))
    return page


async def build(sources: Path = SOURCES) -> dict[str, bytes]:
    """Every page and picture of the guide: relative path under ``docs/guide`` → content."""
    load_all()
    out: dict[str, bytes] = {}
    for source in sorted(sources.glob("*.md")):
        page = await build_page(source)
        out[f"{page.name}.md"] = page.text.encode("utf-8")
        out.update(page.images)
        out[f"_commands/{page.name}"] = " ".join(sorted(page.commands)).encode()
    return out


def commands_shown(built: dict[str, bytes]) -> set[str]:
    """The command names the guide's scenes ran (from :func:`build`'s bookkeeping entries)."""
    names: set[str] = set()
    for path, data in built.items():
        if path.startswith("_commands/"):
            names.update(data.decode().split())
    return names


def files_of(built: dict[str, bytes]) -> dict[str, bytes]:
    """The entries of :func:`build` that are files of the guide (not bookkeeping)."""
    return {p: d for p, d in built.items() if not p.startswith("_commands/")}


def committed(guide: Path = GUIDE) -> dict[str, bytes]:
    """The generated files as they lie in ``docs/guide`` (pages and pictures, not templates)."""
    out = {p.name: p.read_bytes() for p in guide.glob("*.md")}
    out.update({f"{IMAGES}/{p.name}": p.read_bytes() for p in (guide / IMAGES).glob("*.png")})
    return out


def first_difference(path: str, want: bytes, have: bytes | None) -> str:
    """A one-line account of how a committed file differs from what the bot produces now."""
    if have is None:
        return f"docs/guide/{path} is missing: run python scripts/gen_guide.py"
    if path.endswith(".md"):
        new, old = want.decode().splitlines(), have.decode().splitlines()
        for i, (a, b) in enumerate(zip(new, old, strict=False), 1):
            if a != b:
                return f"docs/guide/{path} line {i}: committed {b!r}, the bot now gives {a!r}"
        return f"docs/guide/{path}: {len(old)} lines committed, {len(new)} generated"
    return f"docs/guide/{path}: the picture differs from what the bot draws now"


def same_pixels(a: bytes, b: bytes) -> bool:
    """Two PNGs show the same picture (zlib settings may differ between Pillow builds)."""
    from PIL import Image

    one, two = Image.open(io.BytesIO(a)), Image.open(io.BytesIO(b))
    return one.size == two.size and one.convert("RGBA").tobytes() == two.convert("RGBA").tobytes()


def compare(want: dict[str, bytes], have: dict[str, bytes], same: Any = same_pixels) -> list[str]:
    """Every difference between generated (``want``) and committed (``have``) files; ``same``
    decides whether two versions of a picture are equal."""
    problems = []
    for path, data in sorted(want.items()):
        old = have.get(path)
        if old is None or (old != data and (path.endswith(".md") or not same(data, old))):
            problems.append(first_difference(path, data, old))
    problems += [f"docs/guide/{p} is no longer generated: delete it" for p in sorted(set(have) - set(want))]
    return problems


def main() -> int:
    built = files_of(asyncio.run(build()))
    if "--check" in sys.argv:
        problems = compare(built, committed())
        for p in problems:
            print(p)
        return 1 if problems else 0
    (GUIDE / IMAGES).mkdir(parents=True, exist_ok=True)
    for stale in set(committed()) - set(built):
        (GUIDE / stale).unlink()
    for path, data in built.items():
        target = GUIDE / path
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)
    print(
        f"docs/guide: {sum(p.endswith('.md') for p in built)} pages, {sum(p.endswith('.png') for p in built)} pictures"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
