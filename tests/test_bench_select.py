"""``python -m bench --backend-only --methods ... --sizes ... --classes ...``: one back-end case
alone (issue 17's target is one case: fit plus the 200 x 200 predictive at N = 1,000), printed,
never written over the whole table of BENCHMARKS.md."""

import pytest

from bench import backend
from bench.__main__ import main


def test_the_selected_cases_alone_are_measured_and_nothing_is_written(tmp_path, capsys, monkeypatch):
    asked = []

    def measure(side, method, n, k, repeats, deadline, epochs=backend.PERCEPTRON_EPOCHS):
        asked.append((side, method, n, k))
        timing = backend.Timing()
        timing.fit, timing.total = [0.001], [0.002]
        return timing

    monkeypatch.setattr(backend, "measure", measure)
    output = tmp_path / "BENCHMARKS.md"
    output.write_text("kept\n")
    main(
        ["--backend-only", "--methods", "bayesian_logistic,probit", "--sizes", "1000", "--classes", "2"]
        + ["--output", str(output)]
    )
    assert asked == [
        ("ours", "bayesian_logistic", 1_000, 2),
        ("sklearn", "bayesian_logistic", 1_000, 2),
        ("ours", "probit", 1_000, 2),
        ("sklearn", "probit", 1_000, 2),
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
