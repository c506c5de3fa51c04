"""Regula for Python: general games compiled to fast forward models, with an OpenSpiel-style API.

>>> import regula
>>> game = regula.load_game("games/connect4/connect4.hrg")
>>> game.num_players()
2
"""

import numpy as _np

from regula._regula import (
    CHANCE_PLAYER_ID,
    TERMINAL_PLAYER_ID,
    CompileError,
    Game,
    GameError,
    IllegalActionError,
    RegulaError,
    State,
    VectorEnv,
    load_game,
    load_game_from_string,
)


def random_actions(mask, rng):
    """One uniformly random legal action per row of a boolean mask (rows with none get 0).

    Each legal entry draws a uniform number and the largest wins, so every legal action of a row
    is equally likely.
    """
    mask = _np.asarray(mask, dtype=bool)
    draws = rng.random(mask.shape)
    draws[~mask] = -1.0
    return draws.argmax(axis=1).astype(_np.int64)


__all__ = [
    "CHANCE_PLAYER_ID",
    "TERMINAL_PLAYER_ID",
    "CompileError",
    "Game",
    "GameError",
    "IllegalActionError",
    "RegulaError",
    "State",
    "VectorEnv",
    "load_game",
    "load_game_from_string",
    "random_actions",
]
