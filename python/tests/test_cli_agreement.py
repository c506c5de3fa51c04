"""`game.playouts` against `regula run`: the same seeded playouts give the same report.

Uses the `regula` binary that `cargo test --workspace` builds (target/debug/regula) or a release
build, whichever is newer; skipped when neither exists.
"""

import json
import subprocess

import pytest

from conftest import ROOT, load

BINARIES = [ROOT / "target" / "debug" / "regula", ROOT / "target" / "release" / "regula"]


@pytest.mark.parametrize("path", ["games/connect4/connect4.hrg", "games/dice/dice.rg"])
def test_playouts_match_regula_run(path):
    built = [b for b in BINARIES if b.exists()]
    if not built:
        pytest.skip("no regula binary built")
    binary = max(built, key=lambda b: b.stat().st_mtime)  # the newest build matches these sources
    run = subprocess.run(
        [str(binary), "run", path, "--playouts", "2000", "--seed", "7", "--json", "--no-timing"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )
    cli = json.loads(run.stdout)
    summary = load(path).playouts(2000, seed=7, threads=2)
    assert summary["mean_plies"] == pytest.approx(cli["mean_plies"], rel=1e-12)
    assert summary["mean_legal_moves"] == pytest.approx(cli["mean_legal_moves"], rel=1e-12)
    assert summary["mean_chance_moves"] == pytest.approx(cli["mean_chance_moves"], rel=1e-12)
    cli_outcomes = sorted((tuple(s["score"] for s in o["scores"]), o["count"]) for o in cli["outcomes"])
    ours = sorted((tuple(o["scores"].values()), o["count"]) for o in summary["outcomes"])
    assert ours == cli_outcomes
