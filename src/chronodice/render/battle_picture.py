"""The ``.bat 图`` picture: a phone-sized page of the battle timeline.

Layout (1080 px wide, so the smallest text — :data:`SMALL` px — is at least 24 px high when a
phone shows the picture 1080 px wide):

* a title band: battle time, number of actions, page;
* who acts next;
* one block per participant: name (own colour), status, 体力 and 意志 (current/max), the current
  action (the latest one, with its window and state) and when they decide next;
* a time chart, one row per item in time order (:mod:`.battle_rows`): each action its own bar
  from where it starts to where it resolves — solid once settled, tinted in its windup, white
  while it has not begun, thin and grey when cancelled — with what, impact, →target and note;
  a stun (眩晕) a red hatched band over its window, and hatched again over the bars it paused;
  体力/意志 changes, deaths and debuffs (减益) markers at their time; the battle clock a red line
  that no label crosses (:func:`label_slot`).

Long battles are split into pages of :data:`ROWS_PER_PAGE` rows counted back from the present;
the picture opens on the page holding now (:func:`~.battle_rows.now_page`).  A participant keeps
one colour for the whole battle (:func:`~.battle_rows.colour_index`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from chronodice.rules.timeline.battle import Action, BattleState, Event, Participant, next_up
from chronodice.rules.timeline.rounding import fmt

from .battle_rows import (
    ROWS_PER_PAGE,
    Row,
    action_label,
    action_state,
    chart_rows,
    colour_index,
    debuff_used,
    event_label,
    now_page,
    page_count,
    page_rows,
    pages_for,
    row_end,
)
from .fonts import fit, font
from .picture_palette import (
    BG,
    COLORS,
    GREEN,
    GRID,
    HEAD,
    INK,
    MUTED,
    RED,
    RED_TINT,
    STRIPE,
    WHITE,
    png,
    tint,
)

WIDTH = 1080
PAD = 28
TITLE, BODY, SMALL = 40, 32, 28
"""Font sizes in px.  ``SMALL`` is the smallest text anywhere in the picture."""
ROW = 50
LABEL_W = 230
"""Left column of the chart (who, action number)."""
AXIS_L, AXIS_R = PAD + LABEL_W, WIDTH - PAD
GAP = 10
"""Between a bar or marker and its label."""
NOW_CLEAR = 8
"""No label comes nearer than this to the now-line."""
MARK = 12
"""Half the width of a marker."""


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


def colour(state: BattleState, key: str) -> tuple[int, int, int]:
    """The participant's colour, the same in every picture of the battle."""
    return COLORS[colour_index(state, key) % len(COLORS)]


# ---------------------------------------------------------------------- label placement
def _free(lo: float, hi: float, cuts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``[lo, hi]`` less the intervals ``cuts``."""
    segs = [(lo, hi)]
    for a, b in cuts:
        out = []
        for s, e in segs:
            if b <= s or a >= e:
                out.append((s, e))
                continue
            if a > s:
                out.append((s, a))
            if b < e:
                out.append((b, e))
        segs = out
    return segs


def label_slot(
    w: float,
    x0: float,
    x1: float,
    now: float | None,
    lo: float = AXIS_L,
    hi: float = WIDTH - 8,
    hatched: tuple[tuple[float, float], ...] = (),
) -> tuple[float, float, bool]:
    """Where a label ``w`` px wide goes for the bar (or marker) ``[x0, x1]``: ``(x, room, inside)``.

    Beside the bar (right, then left), then inside the bar, then beside the now-line; where it
    fits nowhere, the widest free place (the caller cuts the text to ``room``).  Never within
    :data:`NOW_CLEAR` px of the now-line (issue 25: labels ran over it); never inside the bar
    over a ``hatched`` stretch (a stun's pause), where the text would not read."""
    band = [] if now is None else [(now - NOW_CLEAR, now + NOW_CLEAR)]
    outside = _free(lo, hi, [(x0 - GAP, x1 + GAP), *band])
    inside = _free(x0 + 12, x1 - 12, [*band, *((a - 6, b + 6) for a, b in hatched)])
    for x in (x1 + GAP, x0 - GAP - w):
        if any(s <= x and x + w <= e for s, e in outside):
            return x, w, False
    for s, e in inside:
        if e - s >= w:
            return s, w, True
    for x in () if now is None else (now + NOW_CLEAR, now - NOW_CLEAR - w):
        if any(s <= x and x + w <= e for s, e in outside):
            return x, w, False
    best = max(
        [(e - s, s, False) for s, e in outside] + [(e - s, s, True) for s, e in inside],
        default=(0.0, lo, False),
    )
    return best[1], max(0.0, best[0]), best[2]


@dataclass(frozen=True)
class Placed:
    """One chart row as drawn: its span on the axis and its label."""

    row: Row
    x0: int
    x1: int
    text: str
    tx: float
    inside: bool


@dataclass(frozen=True)
class Chart:
    """One page's time chart: the axis and where everything goes (``now``: the red line's x)."""

    t0: float
    t1: float
    now: int | None
    rows: list[Placed]

    def x_of(self, t: float) -> int:
        return int(AXIS_L + (t - self.t0) / (self.t1 - self.t0) * (AXIS_R - AXIS_L))


def chart_layout(state: BattleState, chunk: list[Row], *, holds_now: bool) -> Chart | None:
    """Axis and labels of a page's rows (None for no rows).  ``holds_now``: the axis reaches the
    clock even where no row does."""
    if not chunk:
        return None
    f = font(SMALL)
    t0 = min(r.time for r in chunk)
    t1 = max(max(row_end(r) for r in chunk), t0 + 1)
    if holds_now:
        t0, t1 = min(t0, state.clock), max(t1, state.clock)
    probe = Chart(t0, t1, None, [])
    now = probe.x_of(state.clock) if t0 <= state.clock <= t1 else None
    used = debuff_used(state)
    stuns = [e for e in state.events if e.kind == "stun" and e.after is not None]
    placed = []
    for r in chunk:
        hatched: tuple[tuple[float, float], ...] = ()
        if r.action is not None:
            hatched = tuple(
                (probe.x_of(lo), probe.x_of(hi))
                for lo, hi in paused(r.action, [e for e in stuns if e.key == r.key])
            )
            x0, x1 = (
                probe.x_of(r.action.start),
                max(probe.x_of(r.action.effective_end), probe.x_of(r.action.start) + 6),
            )
            text = action_label(state, r.action, used.get(r.action.id, 0.0))
        elif r.event is not None and r.event.kind == "stun":
            x0, x1 = probe.x_of(r.time), max(probe.x_of(row_end(r)), probe.x_of(r.time) + 6)
            text = event_label(state, r.event)
        else:
            x = probe.x_of(r.time)
            x0, x1 = x - MARK, x + MARK
            text = event_label(state, r.event) if r.event else ""
        tx, room, inside = label_slot(f.getlength(text), x0, x1, now, hatched=hatched)
        if room < f.getlength(text) and r.action is not None and r.action.note.strip():
            short = action_label(state, r.action, used.get(r.action.id, 0.0), note=False)
            slot = label_slot(f.getlength(short), x0, x1, now, hatched=hatched)
            if slot[1] >= f.getlength(short):  # whole without the note beats cut
                text, (tx, room, inside) = short, slot
        placed.append(Placed(r, x0, x1, fit(text, f, room), tx, inside))
    return Chart(t0, t1, now, placed)


def paused(a: Action, stuns: list[Event]) -> list[tuple[float, float]]:
    """The stretches (in t) of ``a``'s bar that its owner's stuns cover."""
    out = []
    for e in stuns:
        lo, hi = max(a.start, e.time), min(a.effective_end, e.after if e.after is not None else e.time)
        if lo < hi:
            out.append((lo, hi))
    return out


# ---------------------------------------------------------------------- the picture
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
    what = action_label(state, a).removesuffix(" 已取消")
    return f"#{a.id} {what} {fmt_t(a.start)}→{fmt_t(a.effective_end)}t {action_state(state, a)} · {nxt}"


def battle_image(
    state: BattleState,
    windup: Callable[[float], str] = fmt,
    *,
    vitals: Mapping[str, Vitals] | None = None,
    page: int | None = None,
) -> bytes:
    """The page ``page`` (1-based; default and out of range: the page holding now) as PNG.

    ``windup`` formats a time (the group's display: two decimals, or whole t like the sheet).
    """
    fmt_t = windup
    vit = vitals_from_events(state, vitals)
    rows = chart_rows(state)
    pages = pages_for(len(rows))
    here = now_page(state, rows)
    page = here if page is None or page > pages or page < 1 else page
    chunk = page_rows(rows, page, pages)
    parts = list(state.participants)
    compact = len(parts) > 12
    block_h = 46 if compact else 84
    height = 128 + 56 + len(parts) * block_h + 24 + 64 + max(1, len(chunk)) * ROW + 70
    img = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(img)
    f_title, f_body, f_small = font(TITLE), font(BODY), font(SMALL)

    y = _draw_head(draw, state, fmt_t, page, pages, here, (f_title, f_body, f_small))
    y = _draw_participants(draw, state, vit, fmt_t, y, (f_body, f_small))

    chart = chart_layout(state, chunk, holds_now=page == here)
    if chart is None:
        draw.text((PAD, y), "还没有行动", fill=MUTED, font=f_body)
        return png(img)
    bottom = _axis(draw, chart, y, len(chunk), fmt_t, f_small)
    top = y + 64
    stuns = [e for e in state.events if e.kind == "stun" and e.after is not None]
    for n, placed in enumerate(chart.rows):
        ry = top + n * ROW
        if n % 2:
            draw.rectangle([0, ry, WIDTH, ry + ROW], fill=STRIPE)
        r = placed.row
        p = state.participant(r.key)
        tag = f"#{r.action.id}" if r.action else ""
        who = fit(f"{p.name if p else ''}{tag}", f_small, LABEL_W - 12)
        draw.text((PAD, ry + 9), who, fill=colour(state, r.key), font=f_small)
        ink = _draw_row(draw, state, chart, placed, ry, [e for e in stuns if e.key == r.key])
        draw.text((placed.tx, ry + 9), placed.text, fill=ink, font=f_small)
    if chart.now is not None:
        draw.line([chart.now, top - 10, chart.now, bottom], fill=RED, width=3)
    legend = "红线=当前  实心=已结算  浅色=前摇中  白=未开始  灰=取消  斜线=眩晕"
    draw.text((PAD, bottom + 16), fit(legend, f_small, WIDTH - 2 * PAD), fill=MUTED, font=f_small)
    return png(img)


Font = ImageFont.FreeTypeFont


def _draw_head(
    draw: ImageDraw.ImageDraw,
    state: BattleState,
    fmt_t: Callable[[float], str],
    page: int,
    pages: int,
    here: int,
    fonts: tuple[Font, Font, Font],
) -> int:
    """The title band (the clock, the page) and who acts next; returns where the page goes on."""
    f_title, f_body, f_small = fonts
    draw.rectangle([0, 0, WIDTH, 112], fill=HEAD)
    draw.text((PAD, 14), f"战斗时间轴 · 当前 {fmt_t(state.clock)}t", fill=INK, font=f_title)
    sub = f"行动 {len(state.actions)} 个 · 第 {page}/{pages} 页"
    if pages > 1:
        sub += "（当前时刻所在页）" if page == here else f"（当前时刻在第 {here} 页）"
        sub += " .bat 图 页码 翻页"
    draw.text((PAD, 66), fit(sub, f_small, WIDTH - 2 * PAD), fill=MUTED, font=f_small)
    y = 128
    nxt = next_up(state)
    line = (
        "所有角色已离场"
        if nxt is None
        else f"▶ 下一个行动：{'、'.join(p.name for p in nxt[1])}（{fmt_t(nxt[0])}t）"
    )
    draw.text((PAD, y), fit(line, f_body, WIDTH - 2 * PAD), fill=INK, font=f_body)
    return y + 56


def _draw_participants(
    draw: ImageDraw.ImageDraw,
    state: BattleState,
    vit: Mapping[str, Vitals],
    fmt_t: Callable[[float], str],
    y: int,
    fonts: tuple[Font, Font],
) -> int:
    """One block per participant: colour, name, status, when next free (compact) or what she
    does now; returns where the chart begins."""
    f_body, f_small = fonts
    compact = len(state.participants) > 12
    block_h = 46 if compact else 84
    for p in state.participants:
        c = colour(state, p.key)
        draw.rectangle([PAD, y + 6, PAD + 10, y + block_h - 12], fill=c)
        name = p.name + ("[NPC]" if p.npc else "")
        due = f"下次 {fmt_t(state.free_at(p.key))}t" if compact and p.status == "active" else ""
        right = "  ".join(x for x in (_status(p), due, vit.get(p.key, Vitals()).line()) if x)
        right_w = f_small.getlength(right)
        draw.text((PAD + 22, y), fit(name, f_body, WIDTH - 2 * PAD - 40 - right_w), fill=c, font=f_body)
        draw.text(
            (WIDTH - PAD - right_w, y + 4), right, fill=RED if p.status == "dead" else INK, font=f_small
        )
        if not compact:
            text = fit(_current(state, p, fmt_t), f_small, WIDTH - 2 * PAD - 22)
            draw.text((PAD + 22, y + 40), text, fill=MUTED, font=f_small)
        y += block_h
    return y + 24


def _axis(
    draw: ImageDraw.ImageDraw,
    chart: Chart,
    y: int,
    rows: int,
    fmt_t: Callable[[float], str],
    f: ImageFont.FreeTypeFont,
) -> int:
    """The time axis with 5 ticks and the grid; returns the chart's bottom."""
    span = chart.t1 - chart.t0
    draw.line([AXIS_L, y + 52, AXIS_R, y + 52], fill=INK, width=2)
    top, bottom = y + 64, y + 64 + rows * ROW
    for k in range(5):
        t = chart.t0 + span * k / 4
        label = f"{fmt_t(round(t, 2))}t"
        w = f.getlength(label)
        x = min(max(chart.x_of(t) - w / 2, AXIS_L - 20), WIDTH - PAD - w)
        draw.text((x, y + 10), label, fill=MUTED, font=f)
        draw.line([chart.x_of(t), y + 46, chart.x_of(t), y + 58], fill=INK, width=2)
        draw.line([chart.x_of(t), top, chart.x_of(t), bottom], fill=GRID)
    return bottom


def _hatch(draw: ImageDraw.ImageDraw, x0: int, x1: int, y0: int, y1: int) -> None:
    """Red diagonal lines over ``[x0, x1] × [y0, y1]`` (a stun window)."""
    h = y1 - y0
    for x in range(x0 - h, x1, 12):
        a, b = max(x, x0), min(x + h, x1)
        if a < b:
            draw.line([a, y1 - (a - x), b, y1 - (b - x)], fill=RED, width=2)


def _draw_row(
    draw: ImageDraw.ImageDraw, state: BattleState, chart: Chart, placed: Placed, ry: int, stuns: list[Event]
) -> tuple[int, int, int]:
    """Draw a row's bar, band or marker; returns the ink its label takes."""
    r, x0, x1 = placed.row, placed.x0, placed.x1
    c = colour(state, r.key)
    if r.action is not None:
        a = r.action
        mark = action_state(state, a)
        if mark == "已取消":
            draw.rectangle([x0, ry + 22, x1, ry + 28], fill=MUTED)
            return MUTED
        fill = {"已结算": c, "前摇中": tint(c)}.get(mark, WHITE)
        draw.rectangle([x0, ry + 8, x1, ry + 42], fill=fill, outline=c, width=3)
        for lo, hi in paused(a, stuns):  # the part of the bar a stun paused
            _hatch(draw, chart.x_of(lo), chart.x_of(hi), ry + 11, ry + 39)
        return WHITE if placed.inside and mark == "已结算" else INK
    e = r.event
    if e is None:
        return INK
    if e.kind == "stun":
        draw.rectangle([x0, ry + 8, x1, ry + 42], fill=RED_TINT, outline=RED, width=2)
        _hatch(draw, x0, x1, ry + 10, ry + 40)
        return RED
    x = (x0 + x1) // 2
    if e.kind == "death":
        draw.line([x, ry + 4, x, ry + ROW - 4], fill=RED, width=4)
        return RED
    if e.kind == "debuff":
        draw.polygon([(x, ry + 12), (x + MARK, ry + 25), (x, ry + 38), (x - MARK, ry + 25)], fill=c)
        return INK
    ink = GREEN if e.delta > 0 else RED
    draw.polygon([(x, ry + 40), (x - 11, ry + 14), (x + 11, ry + 14)], fill=ink)
    return ink


__all__ = [
    "ROWS_PER_PAGE",
    "SMALL",
    "WIDTH",
    "Chart",
    "Placed",
    "Vitals",
    "battle_image",
    "chart_layout",
    "chart_rows",
    "colour",
    "label_slot",
    "now_page",
    "page_count",
    "page_rows",
    "vitals_from_events",
]
