"""``python -m bench --backend-only --methods ... --sizes ... --classes ...``: one back-end case
alone (issue 17's target is one case: fit plus the 200 x 200 predictive at N = 1,000), printed,
never written over the whole table of BENCHMARKS.md."""

import time

import pytest

from bench import backend
from bench.__main__ import main


def test_the_selected_cases_alone_are_measured_and_nothing_is_written(tmp_path, capsys, monkeypatch):
    asked = []

    def measure_pair(method, n, k, repeats, deadline, epochs=backend.PERCEPTRON_EPOCHS, sides=("ours", "sklearn")):
        asked.append((sides, method, n, k))
        timings = {side: backend.Timing() for side in sides}
        for timing in timings.values():
            timing.fit, timing.total = [0.001], [0.002]
        return timings

    monkeypatch.setattr(backend, "measure_pair", measure_pair)
    output = tmp_path / "BENCHMARKS.md"
    output.write_text("kept\n")
    main(
        ["--backend-only", "--methods", "bayesian_logistic,probit", "--sizes", "1000", "--classes", "2"]
        + ["--output", str(output)]
    )
    assert asked == [  # both sides of a case together (timed alternately, see bench.backend)
        (("ours", "sklearn"), "bayesian_logistic", 1_000, 2),
        (("ours", "sklearn"), "probit", 1_000, 2),
    ]
    printed = capsys.readouterr().out
    assert "bayesian_logistic" in printed and "Wrote" not in printed
    assert "least_squares" not in printed  # no growth line for a method not measured
    assert output.read_text() == "kept\n"  # a part of the table never replaces the whole


@pytest.mark.parametrize(
    "argv",
    [
        ["--backend-only", "--methods", "quantum"],
        ["--backend-only", "--sizes", "1,000"],  # comma-separated: 1 and 000, neither a size
        ["--backend-only", "--classes", "7"],
        ["--methods", "probit"],  # a selection is of back-end cases
    ],
)
def test_an_unknown_selection_is_refused(argv, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    assert "error" in capsys.readouterr().err


def test_the_two_sides_are_timed_alternately_in_one_worker(monkeypatch):
    """ours, scikit-learn, then scikit-learn, ours, ...: the order swaps every round, after one
    warm-up run of each side (the fake run returns its rank among the worker's runs)."""
    runs = []

    def one_run(side, method, k, X, y, grid, epochs):
        runs.append(side)
        return len(runs) - 1, len(runs) - 1, {}

    monkeypatch.setattr(backend, "_one_run", one_run)  # the forked worker inherits it
    timings = backend.measure_pair("logistic", 100, 2, repeats=4, deadline=30.0)
    assert timings["ours"].fit == [2, 5, 6, 9] and timings["sklearn"].fit == [3, 4, 7, 8]
    assert not timings["ours"].timed_out and not timings["sklearn"].timed_out


def test_a_side_past_its_deadline_is_stopped_and_the_other_finishes_alone(monkeypatch):
    def one_run(side, method, k, X, y, grid, epochs):
        if side == "ours" and len(X) == 1_000:  # the timed runs of ours hang (not the warm-up)
            time.sleep(60)
        return 0.001, 0.002, {}

    monkeypatch.setattr(backend, "_one_run", one_run)
    timings = backend.measure_pair("logistic", 1_000, 2, repeats=3, deadline=1.0)
    assert timings["ours"].timed_out == 1.0 and not timings["ours"].total
    assert timings["sklearn"].total == [0.002] * 3 and not timings["sklearn"].timed_out
