"""The ``.bat 图`` picture: a phone-sized page of the battle timeline.

Layout (1080 px wide, so the smallest text — :data:`SMALL` px — is at least 24 px high when a
phone shows the picture 1080 px wide; the old grid was 1480–2140 px wide with 12 px text):

* a title band: battle time, number of actions, page;
* who acts next;
* one block per participant: name (own colour), status, 体力 and 意志 (current/max), the current
  action (the latest one, with its window) and when they decide next;
* a time chart, one row per item in time order: each action its own bar from where it starts to
  where it resolves (pending ones light, cancelled ones thin and grey), each 体力/意志 change and
  each death a marker at its own time, the battle clock as a red line.

Long battles are split into pages of :data:`ROWS_PER_PAGE` rows, counted back from the present
(the last page is always full); each page's axis spans its own rows.  The default page is the
last one.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from chronodice.rules.timeline.attributes import CN
from chronodice.rules.timeline.battle import Action, BattleState, Event, Participant, next_up
from chronodice.rules.timeline.modifiers import RESOURCE_CN
from chronodice.rules.timeline.rounding import fmt

from .fonts import font

WIDTH = 1080
PAD = 28
TITLE, BODY, SMALL = 40, 32, 28
"""Font sizes in px.  ``SMALL`` is the smallest text anywhere in the picture."""
ROW = 50
ROWS_PER_PAGE = 18
LABEL_W = 230
"""Left column of the chart (who, action number)."""
AXIS_L, AXIS_R = PAD + LABEL_W, WIDTH - PAD

BG = (250, 248, 242)
INK = (40, 40, 40)
MUTED = (120, 115, 105)
GRID = (215, 210, 200)
HEAD = (228, 222, 208)
RED = (200, 40, 40)
COLORS = [(52, 110, 220), (200, 70, 40), (20, 140, 80), (150, 60, 170), (215, 120, 0), (0, 135, 150)]


@dataclass(frozen=True)
class Vitals:
    """A participant's 体力/意志 now (from the card, or from the latest battle events)."""

    hp: float | None = None
    hp_full: float | None = None
    mp: float | None = None
    mp_full: float | None = None
    overload: str | None = None
    """The overload warning (:func:`chronodice.rules.timeline.load.overload_note`), if any."""

    def line(self) -> str:
        parts = []
        if self.hp is not None:
            parts.append(f"体力 {fmt(self.hp)}/{fmt(self.hp_full or 0)}")
        if self.mp is not None:
            parts.append(f"意志 {fmt(self.mp)}/{fmt(self.mp_full or 0)}")
        if self.overload:
            parts.append("⚠超重")
        return "  ".join(parts)


def vitals_from_events(state: BattleState, known: Mapping[str, Vitals] | None = None) -> dict[str, Vitals]:
    """``known`` (cards) completed by each participant's latest 体力/意志 event."""
    out = dict(known or {})
    for e in sorted(state.events, key=lambda e: (e.time, e.id)):
        if e.kind not in ("hp", "mp") or e.key in (known or {}):
            continue
        v = out.get(e.key, Vitals())
        if e.kind == "hp":
            v = Vitals(e.after, e.full, v.mp, v.mp_full, v.overload)
        else:
            v = Vitals(v.hp, v.hp_full, e.after, e.full, v.overload)
        out[e.key] = v
    return out


# ---------------------------------------------------------------------- rows of the chart
@dataclass(frozen=True)
class Row:
    time: float
    order: int
    key: str
    action: Action | None = None
    event: Event | None = None


def chart_rows(state: BattleState) -> list[Row]:
    """Actions (at their start) and 体力/意志/death events (at their time), in time order."""
    rows = [Row(a.start, 0, a.key, action=a) for a in state.actions]
    rows += [Row(e.time, 1, e.key, event=e) for e in state.events if e.kind in ("hp", "mp", "death")]
    return sorted(
        rows, key=lambda r: (r.time, r.order, r.action.id if r.action else r.event.id if r.event else 0)
    )


def page_count(state: BattleState) -> int:
    return max(1, -(-len(chart_rows(state)) // ROWS_PER_PAGE))


def page_rows(rows: list[Row], page: int, pages: int) -> list[Row]:
    """Pages counted back from the present: the last page is always full, page 1 may be short."""
    end = len(rows) - (pages - page) * ROWS_PER_PAGE
    return rows[max(0, end - ROWS_PER_PAGE) : max(0, end)]


def action_label(a: Action) -> str:
    name = a.weapon["name"] if a.weapon else CN.get(a.attribute, a.attribute)
    if a.kind == "reload":
        return f"{name} 整备"
    value = f"{name} {fmt(a.impact)}"
    return f"{value} 已取消" if a.cancelled else value


# ---------------------------------------------------------------------- drawing helpers
def fit(draw: ImageDraw.ImageDraw, text: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with … so that it is at most ``width`` px long."""
    if draw.textlength(text, font=f) <= width:
        return text
    while text and draw.textlength(text + "…", font=f) > width:
        text = text[:-1]
    return text + "…"


def _status(p: Participant) -> str:
    return {"dead": "☠ 死亡", "out": "已退出"}.get(p.status, "")


def _current(state: BattleState, p: Participant, fmt_t: Callable[[float], str]) -> str:
    own = state.actions_of(p.key)
    nxt = f"下次 {fmt_t(state.free_at(p.key))}t"
    if p.status == "dead":
        deaths = [e for e in state.events if e.key == p.key and e.kind == "death"]
        return f"死于 {fmt_t(deaths[-1].time)}t" if deaths else "死亡"
    if not own:
        return f"{fmt_t(p.joined_at)}t 加入，尚未行动 · {nxt}"
    a = own[-1]
    mark = "已取消" if a.cancelled else ("已结算" if a.resolved(state.clock) else "前摇中")
    return f"#{a.id} {action_label(a)} {fmt_t(a.start)}→{fmt_t(a.effective_end)}t {mark} · {nxt}"


# ---------------------------------------------------------------------- the picture
def battle_image(
    state: BattleState,
    windup: Callable[[float], str] = fmt,
    *,
    vitals: Mapping[str, Vitals] | None = None,
    page: int | None = None,
) -> bytes:
    """The page ``page`` (1-based; default and out of range: the last) as PNG bytes.

    ``windup`` formats a time (the group's display: two decimals, or whole t like the sheet).
    """
    fmt_t = windup
    vit = vitals_from_events(state, vitals)
    rows = chart_rows(state)
    pages = max(1, -(-len(rows) // ROWS_PER_PAGE))
    page = pages if page is None or page > pages or page < 1 else page
    chunk = page_rows(rows, page, pages)
    parts = list(state.participants)
    index = {p.key: i for i, p in enumerate(parts)}
    compact = len(parts) > 12
    block_h = 46 if compact else 84
    height = 128 + 56 + len(parts) * block_h + 24 + 64 + max(1, len(chunk)) * ROW + 70
    img = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(img)
    f_title, f_body, f_small = font(TITLE), font(BODY), font(SMALL)

    # title band
    draw.rectangle([0, 0, WIDTH, 112], fill=HEAD)
    draw.text((PAD, 14), f"战斗时间轴 · 当前 {fmt_t(state.clock)}t", fill=INK, font=f_title)
    sub = f"行动 {len(state.actions)} 个 · 第 {page}/{pages} 页"
    if pages > 1:
        sub += "（.bat 图 页码 翻页）"
    draw.text((PAD, 66), sub, fill=MUTED, font=f_small)
    y = 128
    nxt = next_up(state)
    line = (
        "所有角色已离场"
        if nxt is None
        else f"▶ 下一个行动：{'、'.join(p.name for p in nxt[1])}（{fmt_t(nxt[0])}t）"
    )
    draw.text((PAD, y), fit(draw, line, f_body, WIDTH - 2 * PAD), fill=INK, font=f_body)
    y += 56

    # participants
    for i, p in enumerate(parts):
        color = COLORS[i % len(COLORS)] if p.status == "active" else MUTED
        draw.rectangle([PAD, y + 6, PAD + 10, y + block_h - 12], fill=color)
        name = p.name + ("[NPC]" if p.npc else "")
        status = _status(p)
        v = vit.get(p.key, Vitals()).line()
        due = f"下次 {fmt_t(state.free_at(p.key))}t" if compact and p.status == "active" else ""
        right = "  ".join(x for x in (status, due, v) if x)
        right_w = draw.textlength(right, font=f_small)
        draw.text(
            (PAD + 22, y), fit(draw, name, f_body, WIDTH - 2 * PAD - 40 - right_w), fill=color, font=f_body
        )
        draw.text(
            (WIDTH - PAD - right_w, y + 4), right, fill=RED if p.status == "dead" else INK, font=f_small
        )
        if not compact:
            text = fit(draw, _current(state, p, fmt_t), f_small, WIDTH - 2 * PAD - 22)
            draw.text((PAD + 22, y + 40), text, fill=MUTED, font=f_small)
        y += block_h
    y += 24

    # chart
    if not chunk:
        draw.text((PAD, y), "还没有行动", fill=MUTED, font=f_body)
        return _png(img)
    t0 = min(r.time for r in chunk)
    t1 = max(max(r.action.effective_end if r.action else r.time for r in chunk), t0 + 1)
    if pages == page:
        t1 = max(t1, state.clock)
    span = t1 - t0

    def x_of(t: float) -> int:
        return int(AXIS_L + (t - t0) / span * (AXIS_R - AXIS_L))

    draw.line([AXIS_L, y + 52, AXIS_R, y + 52], fill=INK, width=2)
    for k in range(5):
        t = t0 + span * k / 4
        label = f"{fmt_t(round(t, 2))}t"
        w = draw.textlength(label, font=f_small)
        x = min(max(x_of(t) - w / 2, AXIS_L - 20), WIDTH - PAD - w)
        draw.text((x, y + 10), label, fill=MUTED, font=f_small)
        draw.line([x_of(t), y + 46, x_of(t), y + 58], fill=INK, width=2)
    top = y + 64
    bottom = top + len(chunk) * ROW
    for k in range(5):
        draw.line([x_of(t0 + span * k / 4), top, x_of(t0 + span * k / 4), bottom], fill=GRID)
    for n, r in enumerate(chunk):
        ry = top + n * ROW
        if n % 2:
            draw.rectangle([0, ry, WIDTH, ry + ROW], fill=STRIPE)
        p = state.participant(r.key)
        i = index.get(r.key, 0)
        color = COLORS[i % len(COLORS)]
        who = p.name if p else ""
        tag = f"#{r.action.id}" if r.action else ""
        draw.text((PAD, ry + 9), fit(draw, f"{who}{tag}", f_small, LABEL_W - 12), fill=color, font=f_small)
        if r.action is not None:
            _bar(draw, r.action, state, x_of, ry, color, f_small)
        elif r.event is not None:
            _marker(draw, r.event, x_of, ry, f_small)
    if t0 <= state.clock <= t1:
        cx = x_of(state.clock)
        draw.line([cx, top - 10, cx, bottom], fill=RED, width=3)
    y = bottom + 16
    legend = "红线：战斗时间　实心：已结算　浅色：前摇中　灰：取消"
    draw.text((PAD, y), fit(draw, legend, f_small, WIDTH - 2 * PAD), fill=MUTED, font=f_small)
    return _png(img)


def _bar(
    draw: ImageDraw.ImageDraw,
    a: Action,
    state: BattleState,
    x_of: Callable[[float], int],
    ry: int,
    color: tuple[int, int, int],
    f: ImageFont.FreeTypeFont,
) -> None:
    x0, x1 = x_of(a.start), max(x_of(a.effective_end), x_of(a.start) + 6)
    if a.cancelled:
        draw.rectangle([x0, ry + 22, x1, ry + 28], fill=MUTED)
    elif a.resolved(state.clock):
        draw.rectangle([x0, ry + 12, x1, ry + 38], fill=color)
    else:  # pending: a light tint of the colour, outlined
        draw.rectangle([x0, ry + 6, x1, ry + 44], fill=_tint(color), outline=color, width=3)
    label = action_label(a)
    w = draw.textlength(label, font=f)
    if x1 + 10 + w <= WIDTH - 8:
        draw.text((x1 + 10, ry + 9), label, fill=INK, font=f)
    elif x0 - 10 - w >= AXIS_L - 10:
        draw.text((x0 - 10 - w, ry + 9), label, fill=INK, font=f)
    else:  # inside the bar: white on a solid bar, ink on a pending one's tint
        ink = INK if not a.resolved(state.clock) or a.cancelled else (255, 255, 255)
        draw.text((x0 + 12, ry + 9), fit(draw, label, f, x1 - x0 - 24), fill=ink, font=f)


def _marker(
    draw: ImageDraw.ImageDraw, e: Event, x_of: Callable[[float], int], ry: int, f: ImageFont.FreeTypeFont
) -> None:
    x = x_of(e.time)
    if e.kind == "death":
        draw.line([x, ry + 4, x, ry + ROW - 4], fill=RED, width=4)
        text = "☠ 死亡"
        color = RED
    else:
        sign = "+" if e.delta > 0 else ""
        text = f"{RESOURCE_CN[e.kind]}{sign}{fmt(e.delta)} → {fmt(e.after or 0)}/{fmt(e.full or 0)}"
        color = GREEN if e.delta > 0 else RED
        draw.polygon([(x, ry + 40), (x - 11, ry + 14), (x + 11, ry + 14)], fill=color)
    w = draw.textlength(text, font=f)
    tx = x + 16 if x + 16 + w <= WIDTH - 8 else x - 16 - w
    draw.text((tx, ry + 9), text, fill=color, font=f)


STRIPE = (243, 240, 232)
WHITE = (255, 255, 255)
GREEN = (20, 140, 80)


def _tint(c: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = (int(v * 0.22 + 255 * 0.78) for v in c)
    return (r, g, b)


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], k: float) -> tuple[int, int, int]:
    r, g, bl = (round(x + (y - x) * k) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed palette: every colour drawn, and 4 anti-aliasing steps of each ink on each ground.

    Mapping onto a fixed palette takes a few ms, where an adaptive quantizer takes ~60 ms and
    an RGB PNG's filters ~150 ms for a 1080×1900 page.
    """
    inks = [INK, MUTED, RED, GREEN, *COLORS]
    grounds = [BG, STRIPE, HEAD]
    colours = [BG, STRIPE, HEAD, INK, MUTED, GRID, RED, GREEN, WHITE, *COLORS, *map(_tint, COLORS)]
    pairs = [(i, g) for i in inks for g in grounds]
    pairs += [(WHITE, c) for c in COLORS] + [(INK, _tint(c)) for c in COLORS]
    for ink, ground in pairs:
        colours += [_mix(ground, ink, k / 5) for k in range(1, 5)]
    colours = list(dict.fromkeys(colours))[:256]
    colours += [INK] * (256 - len(colours))
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in colours for v in c])
    return pal


def _png(img: Image.Image) -> bytes:
    """PNG of the page mapped onto :func:`_palette` (a third of an RGB PNG's bytes, ~10× faster)."""
    buf = io.BytesIO()
    img.quantize(palette=_palette(), dither=Image.Dither.NONE).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


__all__ = [
    "ROWS_PER_PAGE",
    "SMALL",
    "WIDTH",
    "Vitals",
    "battle_image",
    "chart_rows",
    "page_count",
    "vitals_from_events",
]
