"""The examples run: the README's quickstart (kept identical to examples/quickstart.py) and the
Ray example (skipped when Ray is not installed)."""

import pathlib
import runpy
import subprocess
import sys

import pytest

from conftest import ROOT

EXAMPLES = ROOT / "python" / "examples"


def test_readme_shows_the_quickstart_verbatim():
    quickstart = (EXAMPLES / "quickstart.py").read_text()
    readme = (ROOT / "README.md").read_text()
    assert "```python\n" + quickstart + "```" in readme
    assert len(quickstart.strip().splitlines()) <= 12


def test_quickstart_runs():
    run = subprocess.run(
        [sys.executable, str(EXAMPLES / "quickstart.py")], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[-2].startswith("returns: [")
    # The last line is the mean scores of 10000 seeded playouts: red and yellow sum to 100.
    means = eval(lines[-1], {})
    assert set(means) == {"red", "yellow"} and abs(means["red"] + means["yellow"] - 100) < 1e-9


def test_ray_example_runs():
    pytest.importorskip("ray")
    example = runpy.run_path(str(EXAMPLES / "ray_playouts.py"))
    summary = example["main"](
        [str(ROOT / "games/tictactoe/tictactoe.hrg"), "--playouts", "3000", "--tasks", "3", "--rollouts", "20",
         "--num-cpus", "2"]
    )
    assert summary["playouts"] == 3000
    assert sum(summary["outcomes"].values()) == 3000
    # Random tic-tac-toe: the first player wins most often (about 58 %, draws about 13 %).
    first_wins = max(summary["outcomes"].values())
    assert first_wins > 1400
