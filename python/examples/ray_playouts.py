"""Scale-out with Ray: random playouts and flat Monte Carlo move evaluation spread over processes.

Ray ships task arguments to worker processes by pickling them; `regula.Game` pickles as its
source text and `regula.State` as its game plus its move history, so both travel to any worker,
on this machine or on a cluster, and come back as the same game and position.

Run on this machine (Ray starts a local cluster of worker processes):

    python python/examples/ray_playouts.py games/connect4/connect4.hrg --playouts 200000 --tasks 8

Run on a Ray cluster: start it (`ray start --head` on one node, `ray start --address=HEAD:6379` on
the others, each with `pip install regula` or this repository's `python/` installed), then pass
`--address auto` on the head node (or `--address ray://HEAD:10001` from a client). The game file
is read once on the driver; the workers receive the compiled game by pickle.
"""

import argparse
import random
import time

import ray

import regula


@ray.remote
def playout_chunk(game, count, seed):
    """`count` random playouts of `game` (received by pickle) on one worker."""
    return game.playouts(count, seed=seed, threads=1)


@ray.remote
def evaluate_move(state, action, rollouts, seed):
    """Mean returns of `rollouts` random games after `action` from `state` (received by pickle)."""
    rng = random.Random(seed)
    totals = [0.0] * state.num_players()
    for _ in range(rollouts):
        child = state.child(action)
        while not child.is_terminal():
            child.apply_action(rng.choice(child.legal_actions()))
        totals = [t + r for t, r in zip(totals, child.returns())]
    return action, [t / rollouts for t in totals]


def spread_playouts(game, playouts, tasks, seed):
    """Splits `playouts` over `tasks` Ray tasks and merges their summaries."""
    shares = [playouts // tasks + (1 if i < playouts % tasks else 0) for i in range(tasks)]
    # Distinct seeds per task: each task's playouts are reproducible on their own.
    summaries = ray.get([playout_chunk.remote(game, n, seed * 1_000_003 + i) for i, n in enumerate(shares) if n])
    merged = {}
    plies = 0
    for summary in summaries:
        plies += summary["total_plies"]
        for outcome in summary["outcomes"]:
            key = tuple(sorted(outcome["scores"].items()))
            merged[key] = merged.get(key, 0) + outcome["count"]
    return {"playouts": sum(s["playouts"] for s in summaries), "mean_plies": plies / max(playouts, 1), "outcomes": merged}


def best_first_move(game, rollouts, seed):
    """Flat Monte Carlo at the start: one Ray task per legal action, each receiving the state."""
    state = game.new_initial_state()
    player = state.current_player()
    results = ray.get([evaluate_move.remote(state, a, rollouts, seed + a) for a in state.legal_actions()])
    scored = sorted(results, key=lambda r: r[1][player], reverse=True)
    return [(game.action_to_string(a), value[player]) for a, value in scored]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a .hrg or .rg file")
    parser.add_argument("--playouts", type=int, default=100_000)
    parser.add_argument("--tasks", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=200, help="rollouts per first move")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--address", default=None, help="a Ray cluster (`auto`, `ray://host:10001`); default: local")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local cluster")
    args = parser.parse_args(argv)

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False)
    try:
        game = regula.load_game(args.game)
        started = time.perf_counter()
        summary = spread_playouts(game, args.playouts, args.tasks, args.seed)
        elapsed = time.perf_counter() - started
        print(f"{summary['playouts']} playouts in {elapsed:.2f} s over {args.tasks} tasks")
        print(f"mean plies: {summary['mean_plies']:.3f}")
        for scores, count in sorted(summary["outcomes"].items(), key=lambda item: -item[1]):
            print("  " + " ".join(f"{p}={s}" for p, s in scores), count)
        print("first moves by flat Monte Carlo (mean return of the player to move):")
        for move, value in best_first_move(game, args.rollouts, args.seed):
            print(f"  {move:<20} {value:.2f}")
        return summary
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
