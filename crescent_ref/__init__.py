"""crescent_ref: the reference engine of the Crescent conformance kit.

>>> from crescent_ref import Game
>>> game = Game.deal("app", "CR1-N-AAAAAAB")
>>> game.status()
'playing'
"""

from crescent_ref.actions import Action, parse_place, place_text
from crescent_ref.cards import Card
from crescent_ref.deal import GameCode, deal_position
from crescent_ref.errors import (
    CrescentError,
    IllegalActionError,
    NonConformingError,
    NotationError,
    ScenarioError,
)
from crescent_ref.game import Game, Outcome, Status
from crescent_ref.position import Position
from crescent_ref.profiles import Profile, get_profile

__version__ = "0.2.0"

__all__ = [
    "Action",
    "Card",
    "CrescentError",
    "Game",
    "GameCode",
    "IllegalActionError",
    "NonConformingError",
    "NotationError",
    "Outcome",
    "Position",
    "Profile",
    "ScenarioError",
    "Status",
    "__version__",
    "deal_position",
    "get_profile",
    "parse_place",
    "place_text",
]
