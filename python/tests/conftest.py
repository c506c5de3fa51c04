"""Shared fixtures: the repository root and the corpus games (every source under games/)."""

import pathlib

import pytest

import regula

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"

# Every corpus source, variants included, as paths relative to the repository root.
CORPUS = sorted(
    str(path.relative_to(ROOT))
    for pattern in ("*/*.hrg", "*/*.rg", "*/variants/*.hrg", "*/variants/*.rg")
    for path in GAMES.glob(pattern)
)

_loaded = {}


def load(relative):
    """Loads a corpus game once per test session."""
    if relative not in _loaded:
        _loaded[relative] = regula.load_game(str(ROOT / relative))
    return _loaded[relative]


@pytest.fixture
def connect4():
    return load("games/connect4/connect4.hrg")


@pytest.fixture
def tictactoe():
    return load("games/tictactoe/tictactoe.hrg")
