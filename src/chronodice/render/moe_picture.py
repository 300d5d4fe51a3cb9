"""The 萌E table as a phone-sized picture (``.moe state`` and each round start, issue 27).

Layout, 1080 px wide (the smallest text, :data:`SMALL` px, stays at least 24 px when a phone
shows the picture 1080 px wide):

* a title band: map, round, deck and discard pile;
* whose turn it is, and in which phase;
* one block per seat, in seat order: seat number, player and character, a turn marker; 血量 as
  pips and numbers, 信仰, hand count, 奥秘×N, team (双王国), 托管; the equipment by name; the
  distance from the current player and whether the seat is in their attack range; the cards on
  the character (``pile`` zones: face up, so by name) in one more row when there are any.

Only public facts are drawn: the number of hand cards and of face-down 奥秘, never a face.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from chronodice.rules.moe.ai import is_ai_player
from chronodice.rules.moe.cards import SUIT_SYMBOL, rank_text
from chronodice.rules.moe.engine import Game
from chronodice.rules.moe.state import PHASE_NAMES, Player

from .fonts import fit, font
from .moe_phone import character_piles
from .picture_palette import BG, COLORS, GREEN, GRID, HEAD, INK, MUTED, RED, STRIPE, WHITE, png, tint

WIDTH = 1080
PAD = 28
TITLE, BODY, SMALL = 40, 34, 28
"""Font sizes in px.  ``SMALL`` is the smallest text anywhere in the picture."""
BLOCK = 168
"""Height of one seat's block."""
PILE_ROW = 46
"""Extra height of a block whose character has cards on it."""
PIP = 22
"""Side of one 血量 pip."""
TEAM_COLOURS = (COLORS[0], COLORS[1])


def _card(g: Game, cid: int) -> str:
    c = g.card(cid)
    return f"{SUIT_SYMBOL[c.suit]}{rank_text(c.rank)}{g.cdef(c.key).name}"


def _who(g: Game, p: Player, names: list[str]) -> str:
    name = names[p.seat] if p.seat < len(names) else ""
    return f"{p.seat + 1}号 {name}" + (f"（{p.name}）" if p.name else "")


def _reach(g: Game, current: int, p: Player) -> str:
    """Distance from the current player, and whether ``p`` is in their attack range."""
    if current < 0 or not g.p(current).alive or not p.alive:
        return ""
    if p.seat == current:
        return "当前回合"
    d = g.distance(current, p.seat)
    return f"距离{d} · " + ("在攻击范围内" if g.in_range(current, p.seat) else "攻击范围外")


def _pips(draw: ImageDraw.ImageDraw, x: float, y: float, hp: int, top: int) -> float:
    """``top`` pips, ``hp`` of them filled; returns the x after them."""
    for i in range(max(top, 0)):
        x0 = x + i * (PIP + 6)
        fill = RED if i < hp else WHITE
        draw.rectangle((x0, y, x0 + PIP, y + PIP), fill=fill, outline=RED, width=2)
    return x + max(top, 0) * (PIP + 6)


def table_picture(g: Game, names: list[str]) -> bytes:
    """The table now as a PNG (public facts only)."""
    st = g.state
    players = st.players
    heights = [BLOCK + (PILE_ROW if p.alive and character_piles(g, p.seat) else 0) for p in players]
    height = PAD * 2 + 70 + 56 + sum(heights)
    img = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(img)
    ft, fb, fs = font(TITLE), font(BODY), font(SMALL)
    m = g.pack.maps.get(st.map)
    draw.rectangle((0, 0, WIDTH, PAD + 60), fill=HEAD)
    title = f"萌E · {m.name if m else '地图未定'} · 第{st.round}轮"
    draw.text((PAD, PAD - 6), fit(title, ft, WIDTH - 2 * PAD - 330), font=ft, fill=INK)
    piles = f"牌堆{len(g.zone('deck'))} 弃牌{len(g.zone('discard'))}"
    draw.text((WIDTH - PAD, PAD + 2), piles, font=fs, fill=MUTED, anchor="ra")
    y = PAD + 70
    cur = st.turn.seat
    if 0 <= cur < len(players) and players[cur].alive and not g.finished:
        phase = PHASE_NAMES.get(st.turn.phase, "")
        now = f"▶ 轮到 {_who(g, players[cur], names)}" + (f" · {phase}" if phase else "")
    elif g.finished:
        now = "游戏已结束"
    else:
        now = "等待开始"
    draw.text((PAD, y), fit(now, fb, WIDTH - 2 * PAD), font=fb, fill=INK)
    y += 56
    for p, h in zip(players, heights, strict=True):
        _block(draw, g, p, names, cur, y, h)
        y += h
    return png(img)


def _block(
    draw: ImageDraw.ImageDraw, g: Game, p: Player, names: list[str], cur: int, y: float, tall: int
) -> None:
    fb, fs = font(BODY), font(SMALL)
    ground = STRIPE if p.seat % 2 else BG
    colour = TEAM_COLOURS[p.team % 2] if p.team >= 0 else COLORS[p.seat % len(COLORS)]
    if p.seat == cur and p.alive:
        ground = tint(colour)
    draw.rectangle((0, y, WIDTH, y + tall - 2), fill=ground)
    draw.line((0, y + tall - 1, WIDTH, y + tall - 1), fill=GRID, width=2)
    draw.rectangle((0, y, 14, y + tall - 2), fill=colour if p.alive else MUTED)
    x = PAD + 8
    ink = INK if p.alive else MUTED
    head = ("▶ " if p.seat == cur and p.alive else "") + _who(g, p, names)
    tags = []
    if p.team >= 0:
        tags.append(f"队伍{p.team + 1}")
    if is_ai_player(p):
        tags.append("AI")
    elif p.auto:
        tags.append("托管")
    tag = " · ".join(tags)
    reach = _reach(g, cur, p)
    right = reach or tag
    room = WIDTH - PAD - x - (fs.getlength(right) + 24 if right else 0)
    draw.text((x, y + 12), fit(head, fb, room), font=fb, fill=ink)
    if right:
        draw.text(
            (WIDTH - PAD, y + 18), right, font=fs, fill=GREEN if "范围内" in right else MUTED, anchor="ra"
        )
    if not p.alive:
        draw.text((x, y + 64), "已阵亡", font=fb, fill=MUTED)
        return
    if not p.character:
        draw.text((x, y + 64), "选择角色中", font=fb, fill=MUTED)
        return
    row = y + 62
    after = _pips(draw, x, row + 6, p.hp_value, p.max_hp)
    nums = f"  血量{p.hp_value}/{p.max_hp}  信仰{p.faith}/{p.max_faith}  手牌{len(g.hand(p.seat))}"
    if g.secrets(p.seat):
        nums += f"  奥秘×{len(g.secrets(p.seat))}"
    if tag and reach:
        nums += f"  {tag}"
    draw.text((after, row), fit(nums, fs, WIDTH - PAD - after), font=fs, fill=ink)
    equip = "、".join(_card(g, c) for c in g.equip(p.seat)) or "无装备"
    draw.text((x, row + 48), fit("装备：" + equip, fs, WIDTH - PAD - x), font=fs, fill=ink)
    piles = character_piles(g, p.seat)
    if piles:
        draw.text((x, row + 48 + PILE_ROW), fit("角色牌上：" + piles, fs, WIDTH - PAD - x), font=fs, fill=ink)


__all__ = ["SMALL", "WIDTH", "table_picture"]
