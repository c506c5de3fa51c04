"""Times `game.playouts(n)` against `regula run FILE -n N` (issue #8: within 1.5x).

    python python/examples/compare_with_cli.py target/release/regula games/connect4/connect4.hrg 100000

Alternates the two for a few rounds (the machine's load changes between runs) and prints each
round's wall-clock times, the engines' own timings and their ratios; both must report the same
playouts (the same seed gives the same games).
"""

import json
import subprocess
import sys
import time

import regula


def main(binary, path, count, rounds=3):
    for round_number in range(rounds):
        started = time.perf_counter()
        output = subprocess.run(
            [binary, "run", path, "-n", str(count), "--json"], capture_output=True, text=True, check=True
        ).stdout
        cli_wall = time.perf_counter() - started
        cli = json.loads(output)
        started = time.perf_counter()
        summary = regula.load_game(path).playouts(count)
        python_wall = time.perf_counter() - started
        if summary["mean_plies"] != cli["mean_plies"]:
            raise SystemExit("the two runs played different games")
        cli_engine = cli["timing"]["elapsed_seconds"]
        print(
            f"round {round_number}: regula run {cli_wall:.3f} s (engine {cli_engine:.3f} s), "
            f"python {python_wall:.3f} s (engine {summary['elapsed_seconds']:.3f} s), "
            f"ratio {python_wall / cli_wall:.3f}"
        )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 100_000)
