"""The Python API on hand-checked cases: published perft counts, errors, pickling, undo, playouts."""

import pickle

import numpy as np
import pytest

import regula
from conftest import ROOT, load


def perft(state, depth):
    """Leaf count at `depth` through the Python API (every legal action, clone per child)."""
    if depth == 0 or state.is_terminal():
        return 1
    return sum(perft(state.child(action), depth - 1) for action in state.legal_actions())


def test_tictactoe_perft_matches_the_published_counts(tictactoe):
    # Published counts (games/tictactoe/perft.toml): 9, 72, 504, 3024.
    state = tictactoe.new_initial_state()
    assert [perft(state, d) for d in range(1, 5)] == [9, 72, 504, 3024]


def test_connect4_basics(connect4):
    assert connect4.num_players() == 2
    assert connect4.player_names() == ["red", "yellow"]
    state = connect4.new_initial_state()
    assert state.current_player() == 0
    assert not state.is_chance_node() and state.is_player_node()
    legal = state.legal_actions()
    assert len(legal) == 7  # one move per column (games/connect4/perft.toml: perft(1) = 7)
    assert [perft(state, d) for d in (1, 2, 3)] == [7, 49, 343]
    mask = state.legal_actions_mask()
    assert mask.shape == (connect4.num_distinct_actions(),) and mask.sum() == 7
    # With a player who is not to move, OpenSpiel's convention: no legal actions.
    assert state.legal_actions(1) == [] and not state.legal_actions_mask(1).any()
    assert state.legal_actions(0) == legal
    # Action names round-trip through the game and the state.
    for action in legal:
        text = connect4.action_to_string(action)
        assert state.action_to_string(action) == text == state.action_to_string(0, action)
        assert connect4.string_to_action(text) == action == state.string_to_action(0, text)


def test_a_game_played_to_the_end(connect4):
    # Red drops four in one column while yellow plays elsewhere: red wins on its fourth move.
    state = connect4.new_initial_state()
    red, yellow = state.legal_actions()[0], state.legal_actions()[1]
    for _ in range(3):
        state.apply_action(red)
        state.apply_action(yellow)
    assert not state.is_terminal()
    state.apply_action(red)
    assert state.is_terminal()
    assert state.current_player() == regula.TERMINAL_PLAYER_ID
    assert state.returns() == [100.0, 0.0]
    assert state.rewards() == [100.0, 0.0]
    assert state.player_return(0) == 100.0
    assert state.legal_actions() == []
    assert state.history() == [red, yellow] * 3 + [red]
    assert state.move_number() == 7
    assert state.history_str() == ", ".join(map(str, state.history()))
    name = connect4.action_to_string(red)
    assert state.serialize() == "/" + "/".join([name, connect4.action_to_string(yellow)] * 3 + [name]) + "/"
    # Undo takes the winning move back.
    assert state.undo_action(0, red) == red
    assert not state.is_terminal() and state.returns() == [0.0, 0.0]


def test_illegal_actions_raise_and_change_nothing(connect4):
    state = connect4.new_initial_state()
    illegal = [a for a in range(connect4.num_distinct_actions()) if a not in state.legal_actions()]
    assert illegal
    with pytest.raises(regula.IllegalActionError, match="not legal"):
        state.apply_action(illegal[0])
    with pytest.raises(regula.IllegalActionError):
        state.apply_action(10**6)
    with pytest.raises(regula.IllegalActionError):
        state.string_to_action("no such move")
    assert state.history() == [] and len(state.legal_actions()) == 7
    with pytest.raises(regula.RegulaError, match="nothing to undo"):
        state.undo_action()
    with pytest.raises(regula.RegulaError, match="no player 5"):
        state.observation_tensor(5)
    with pytest.raises(regula.RegulaError):
        connect4.deserialize_state("/not a move/")


def test_undo_checks_what_it_is_told(connect4):
    state = connect4.new_initial_state()
    first = state.legal_actions()[2]
    state.apply_action(first)
    with pytest.raises(regula.RegulaError):
        state.undo_action(0, first + 1)
    with pytest.raises(regula.RegulaError):
        state.undo_action(1, first)  # player 0 made that move
    assert state.history() == [first]


def test_compile_errors_carry_the_rendered_diagnostic(tmp_path):
    bad = tmp_path / "broken.rg"
    bad.write_text("type Score = {0}\n")
    with pytest.raises(regula.CompileError) as error:
        regula.load_game(str(bad))
    message = str(error.value)
    assert str(bad) + ":1:" in message
    assert "E0103" in message and "unexpected end of input" in message
    with pytest.raises(regula.CompileError, match="E0001"):
        regula.load_game_from_string("anything", "game.txt")
    with pytest.raises(OSError):
        regula.load_game(str(tmp_path / "missing.hrg"))
    assert issubclass(regula.CompileError, regula.RegulaError)
    assert issubclass(regula.IllegalActionError, regula.RegulaError)


def test_games_and_states_pickle(connect4):
    state = connect4.new_initial_state()
    for action in (3, 3, 4):
        state.apply_action(action)
    game_copy = pickle.loads(pickle.dumps(connect4))
    assert game_copy.source == connect4.source and game_copy.file_name == connect4.file_name
    state_copy = pickle.loads(pickle.dumps(state))
    assert state_copy.history() == [3, 3, 4]
    assert state_copy.observation_tensor(0).tolist() == state.observation_tensor(0).tolist()
    state_copy.apply_action(state_copy.legal_actions()[0])
    assert state.history() == [3, 3, 4]
    # copy.copy / copy.deepcopy are clones too.
    import copy

    assert copy.deepcopy(state).serialize() == state.serialize()


def test_game_loaded_from_string_equals_the_file(connect4):
    source = (ROOT / "games/connect4/connect4.rg").read_text()
    from_rg = regula.load_game_from_string(source, "connect4.rg")
    assert from_rg.num_players() == 2
    state = from_rg.new_initial_state()
    assert len(state.legal_actions()) == 7
    summary = from_rg.playouts(300, seed=4)
    assert summary == {**summary, **{k: connect4.playouts(300, seed=4)[k] for k in ("mean_plies", "outcomes")}}


def test_playouts_summary_and_arrays_agree(connect4):
    summary = connect4.playouts(500, seed=11)
    with_arrays = connect4.playouts(500, seed=11, threads=2, arrays=True)
    for key in ("playouts", "mean_plies", "mean_legal_moves", "total_plies", "outcomes", "mean_scores"):
        assert summary[key] == with_arrays[key], key
    scores, plies = with_arrays["scores"], with_arrays["plies"]
    assert scores.shape == (500, 2) and plies.shape == (500,)
    assert plies.sum() == summary["total_plies"]
    assert sum(o["count"] for o in summary["outcomes"]) == 500
    assert np.allclose(scores.mean(axis=0), [summary["mean_scores"]["red"], summary["mean_scores"]["yellow"]])
    # Connect four lasts 7 to 42 moves; every decisive game gives 100 to one player, a draw 50 each.
    assert plies.min() >= 7 and plies.max() <= 42
    assert set(map(tuple, scores.tolist())) <= {(100, 0), (0, 100), (50, 50)}
    # Thread counts do not change the playouts.
    assert connect4.playouts(500, seed=11, threads=3)["outcomes"] == summary["outcomes"]
    assert connect4.playouts(500, seed=12)["outcomes"] != summary["outcomes"]


def test_playouts_count_chance_moves():
    dice = load("games/dice/dice.rg")
    summary = dice.playouts(200, seed=3, arrays=True)
    assert summary["mean_chance_moves"] > 0
    assert summary["chance_moves"].sum() == summary["total_chance_moves"]


def test_random_actions_picks_legal_actions_uniformly():
    mask = np.array([[True, False, True, False], [False, False, False, True]])
    rng = np.random.default_rng(0)
    picks = np.array([regula.random_actions(mask, rng) for _ in range(2000)])
    assert set(picks[:, 0]) == {0, 2} and set(picks[:, 1]) == {3}
    assert 800 < (picks[:, 0] == 0).sum() < 1200
