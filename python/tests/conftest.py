"""Shared fixtures: the repository root and the corpus games (every source under games/)."""

import pathlib

import pytest

import regula

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"

# Every corpus source: each file under games/ in a format the compiler reads (perft.toml files
# and anything else are not games).
FORMATS = {".rg", ".hrg", ".blocks", ".rules"}
CORPUS = sorted(str(path.relative_to(ROOT)) for path in GAMES.rglob("*") if path.suffix in FORMATS)

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
