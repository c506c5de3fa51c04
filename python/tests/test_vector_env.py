"""`regula.VectorEnv`: batched stepping checked against the single-state API."""

import numpy as np
import pytest

import regula
from conftest import load


def play(env, steps, seed):
    rng = np.random.default_rng(seed)
    result = env.reset()
    results = [result]
    for _ in range(steps):
        result = env.step(regula.random_actions(result["mask"], rng))
        results.append(result)
    return results


def test_shapes_and_agreement_with_states(connect4):
    env = regula.VectorEnv(connect4, 6, seed=2)
    assert len(env) == env.num_envs == 6
    assert env.num_actions == connect4.num_distinct_actions()
    assert env.observation_size == connect4.observation_tensor_size()
    result = env.reset()
    assert result["mask"].shape == (6, env.num_actions) and result["mask"].dtype == np.bool_
    assert result["observation"].shape == (6, env.observation_size) and result["observation"].dtype == np.float32
    assert result["reward"].shape == (6, 2) and not result["reward"].any()
    assert not result["terminal"].any()
    rng = np.random.default_rng(0)
    for _ in range(50):
        result = env.step(regula.random_actions(result["mask"], rng))
        for i in range(6):
            state = env.state(i)
            assert np.array_equal(result["mask"][i], state.legal_actions_mask())
            assert result["current_player"][i] == state.current_player()
            player = state.current_player()
            assert np.array_equal(result["observation"][i], state.observation_tensor(player))
        # Rewards only where a game ended, and then they are a connect-four result.
        assert not result["reward"][~result["terminal"]].any()
        for reward in result["reward"][result["terminal"]]:
            assert tuple(reward) in {(100, 0), (0, 100), (50, 50)}
        assert (result["episode_length"][result["terminal"]] >= 7).all()
        assert not result["episode_length"][~result["terminal"]].any()


def test_results_do_not_depend_on_threads(connect4):
    one = play(regula.VectorEnv(connect4, 7, seed=9), 60, seed=1)
    three = play(regula.VectorEnv(connect4, 7, seed=9, threads=3), 60, seed=1)
    for a, b in zip(one, three):
        assert a.keys() == b.keys()
        for key in a:
            assert np.array_equal(a[key], b[key]), key
    assert sum(r["terminal"].sum() for r in one) > 0  # games did end and restart


def test_each_episode_matches_a_replayed_game(connect4):
    # Record environment 0's actions; the episode's reward must be what the same actions give
    # through the single-state API.
    env = regula.VectorEnv(connect4, 2, seed=3)
    rng = np.random.default_rng(4)
    result = env.reset()
    state = connect4.new_initial_state()
    finished = 0
    for _ in range(120):
        actions = regula.random_actions(result["mask"], rng)
        state.apply_action(int(actions[0]))
        result = env.step(actions)
        if result["terminal"][0]:
            assert state.is_terminal()
            assert result["reward"][0].tolist() == state.returns()
            assert result["episode_length"][0] == state.move_number()
            state = connect4.new_initial_state()
            finished += 1
        else:
            assert not state.is_terminal()
            assert env.state(0).history() == state.history()
    assert finished >= 2


def test_without_auto_reset_finished_games_wait(tictactoe):
    env = regula.VectorEnv(tictactoe, 3, seed=0, auto_reset=False, observations=False)
    rng = np.random.default_rng(1)
    result = env.reset()
    assert "observation" not in result
    done = np.zeros(3, dtype=bool)
    for _ in range(9):
        result = env.step(regula.random_actions(result["mask"], rng))
        assert not (result["terminal"] & done).any()  # a game ends once
        done |= result["terminal"]
    assert done.all()  # tic-tac-toe ends within nine moves
    assert (env.current_player() == regula.TERMINAL_PLAYER_ID).all()
    assert not env.legal_actions_mask().any()
    result = env.reset()
    assert (result["current_player"] == 0).all()


def test_chance_is_sampled_inside():
    dice = load("games/dice/dice.rg")
    env = regula.VectorEnv(dice, 4, seed=5)
    result = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(30):
        assert (result["current_player"] >= 0).all()  # never a chance node
        result = env.step(regula.random_actions(result["mask"], rng))


def test_bad_calls_raise(connect4):
    env = regula.VectorEnv(connect4, 2)
    with pytest.raises(regula.RegulaError, match="needs 2 actions"):
        env.step(np.zeros(3, dtype=np.int64))
    mask = env.legal_actions_mask()
    illegal = int(np.flatnonzero(~mask[1])[0])
    legal = int(np.flatnonzero(mask[0])[0])
    with pytest.raises(regula.IllegalActionError, match="environment 1"):
        env.step([legal, illegal])
    assert env.state(0).history() == []  # nothing moved
    env.step([legal, legal])  # a list works as well as an array
    assert env.state(0).history() == [legal]
    with pytest.raises(regula.RegulaError):
        regula.VectorEnv(connect4, 2, observer=7)


def test_reset_with_a_seed_replays_and_without_goes_on():
    dice = load("games/dice/dice.rg")
    env = regula.VectorEnv(dice, 8, seed=5)

    def run(reset_seed):
        result = env.reset(seed=reset_seed) if reset_seed is not None else env.reset()
        rng = np.random.default_rng(3)
        for _ in range(25):
            result = env.step(regula.random_actions(result["mask"], rng))
        return [env.state(i).history() for i in range(8)]

    first = run(5)
    assert run(5) == first  # the same seed replays the same chance moves
    assert run(None) != first  # without a seed the generators go on
