"""Card face information of 萌E (glossary §2, §4.1): suits, colours, ranks, virtual cards.

Pure value helpers used by the engine and the renderer.

>>> rank_value("A"), rank_value("10"), rank_value("J"), rank_value("K")
(1, 10, 11, 13)
>>> colour_of("diamond"), colour_of("heart"), colour_of("spade"), colour_of(None)
('red', 'red', 'black', None)
>>> rank_text(1), rank_text(12)
('A', 'Q')
"""

from __future__ import annotations

from dataclasses import dataclass, field

SUITS: tuple[str, ...] = ("spade", "heart", "club", "diamond")
SUIT_SYMBOL: dict[str, str] = {"spade": "♠", "heart": "♥", "club": "♣", "diamond": "♦"}
SUIT_NAME: dict[str, str] = {"spade": "黑桃", "heart": "红桃", "club": "梅花", "diamond": "方块"}
_RANK_LETTERS = {"A": 1, "J": 11, "Q": 12, "K": 13}
ATTRIBUTES: tuple[str, ...] = ("元素", "光", "暗")
"""Attributes of 2.3 / 5.20 (元素 is not split further: gap §5.8 of moe-engine.md)."""


def rank_value(text: str | int) -> int:
    """4.1: A=1, 2..10 as written, J=11, Q=12, K=13."""
    if isinstance(text, int):
        value = text
    else:
        t = text.strip().upper()
        value = _RANK_LETTERS[t] if t in _RANK_LETTERS else int(t)
    if not 1 <= value <= 13:
        raise ValueError(f"rank out of range: {text!r}")
    return value


def rank_text(value: int | None) -> str:
    if value is None:
        return ""
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(value, str(value))


def colour_of(suit: str | None) -> str | None:
    """2.2: ♦/♥ red, ♠/♣ black; a card without a suit has no colour."""
    if suit is None:
        return None
    return "red" if suit in ("heart", "diamond") else "black"


@dataclass(frozen=True)
class Card:
    """One physical game card (1.3): an id unique in the game, its definition key, suit and rank."""

    id: int
    key: str
    suit: str
    rank: int

    @property
    def colour(self) -> str | None:
        return colour_of(self.suit)

    def face(self) -> str:
        return f"{SUIT_SYMBOL[self.suit]}{rank_text(self.rank)}"


@dataclass(frozen=True)
class VirtualCard:
    """A card as used (8.10 当 / 8.11 视为): a definition key plus face info and sub-cards.

    * 视为使用 with no physical card: no suit, rank or colour (8.11.1).
    * 视为使用 a physical card: a copy of its face info, but no sub-card moves (8.11.1).
    * 当 (convert): the sub-cards are the physical cards that move; one sub-card lends its face.
    """

    key: str
    suit: str | None = None
    rank: int | None = None
    subcards: tuple[int, ...] = field(default_factory=tuple)
    virtual: bool = False
    attribute: str | None = None

    @property
    def colour(self) -> str | None:
        return colour_of(self.suit)

    @classmethod
    def of(cls, card: Card) -> VirtualCard:
        """The card itself, used as is."""
        return cls(key=card.key, suit=card.suit, rank=card.rank, subcards=(card.id,))

    @classmethod
    def treated(cls, key: str, cards: list[Card]) -> VirtualCard:
        """当: ``cards`` used as a ``key`` card; a single sub-card lends suit and rank."""
        if len(cards) == 1:
            return cls(key=key, suit=cards[0].suit, rank=cards[0].rank, subcards=(cards[0].id,))
        suits = {c.suit for c in cards}
        colours = {colour_of(c.suit) for c in cards}
        suit = suits.pop() if len(suits) == 1 else None
        del colours
        return cls(key=key, suit=suit, rank=None, subcards=tuple(c.id for c in cards))

    @classmethod
    def as_if(cls, key: str, like: Card | None = None) -> VirtualCard:
        """视为使用: no physical card moves; face info copied from ``like`` when given."""
        if like is None:
            return cls(key=key, virtual=True)
        return cls(key=key, suit=like.suit, rank=like.rank, virtual=True)

    def to_dict(self) -> dict[str, object]:
        return {
            "key": self.key,
            "suit": self.suit,
            "rank": self.rank,
            "subcards": list(self.subcards),
            "virtual": self.virtual,
            "attribute": self.attribute,
        }
