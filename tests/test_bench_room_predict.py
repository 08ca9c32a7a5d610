"""bench/room_predict_report.py: the prediction round benchmark's figures from its logs, and its
BENCHMARKS.md rows (one per setting and hall size, the others kept)."""

from types import SimpleNamespace

import pytest

from bench import room_predict_report as r

TEXT = "# Benchmarks\n\n## Room: a hall (issue 38)\n\nold\n\n## First screen: x\n\ny\n\n## Summary\n\n- z\n"


def student(*lines):
    """A student who had ``lines`` acknowledged, one a second (each answered 0.5 s after its send)."""
    sends = [(float(i), float(i) + 0.5, line) for i, line in enumerate(lines)]
    mine = lines[-1] if lines else None
    return SimpleNamespace(
        sends=sends, blink=len(lines) > 1, dropped=0, dropped_kept=0, refused=0, retries=1, gateway=0, mine=mine
    )


def test_each_acknowledgement_waits_for_a_count_at_least_its_rank():
    counts = [(0, 0.5), (1, 1.2), (3, 2.5)]
    assert r.count_delays([3.0, 1.0, 2.0, 4.0], counts) == [pytest.approx(0.2), 0.5, 0.0, None]


def test_a_lost_line_and_a_stale_one_are_told_apart():
    seated = [student([0, 0, 1, 1]), student([0, 1, 1, 0], [0, 1, 1, 2]), student()]
    assert r.held(seated, [[0, 0, 1, 1], [0, 1, 1, 2]]) == (0, 0)
    assert r.held(seated, [[0, 0, 1, 1], [0, 1, 1, 0]]) == (1, 1)  # the older line kept over the newer
    assert r.held(seated, [[0, 0, 1, 1]]) == (1, 0)


def test_the_overlay_is_timed_from_its_answer_to_the_frame_after_its_drawing():
    seen = {"answers": [["predict", 0, 10.0, 11.0], ["show", 2, 100.0, 102.0]], "phases": [["show", 130.0, 145.5]]}
    assert r.draw_times(seen, "show") == {"lines": 2, "frame ms": 45.5, "status ms": 30.0}
    assert r.draw_times(seen, "reveal") is None


def result(lines):
    seated = [student([0, 0, 1, 1]), student([0, 1, 1, 0], [0, 1, 1, 2])]
    box = {"seated": seated, "start": 0.0, "refused seats": 0, "sent at": 2.0, "client cpu": 0.01}
    seen = {"counts": [[1, 600], [2, 900]], "phases": [], "answers": []}
    got = {
        "seen": seen,
        "final": {"round": {"phase": "reveal", "predictions": len(lines), "lines": lines}},
        "show": {"lines": len(lines), "frame ms": 40.0, "status ms": 30.0},
        "alone": [[0.5, 3.0], [0.4, 2.0], [0.6, 4.0]],
        "reveal": None,
        "server cpu": 0.2,
    }
    return r.figures(box, got, "1.0 / 1.0 / 1.0")


def test_a_run_s_figures_and_its_row():
    figures = result([[0, 0, 1, 1], [0, 1, 1, 2]])
    assert figures["ack-to-count median / p90 / max s"] == [0.25, 0.37, 0.4]  # both first acks at 0.5 s
    assert (figures["lost"], figures["stale"], figures["own line not the last sent"]) == (0, 0, 0)
    assert figures["last acknowledgement s after the start"] == 1.5
    line = r.row(figures, "one server", "2026-12-04 20:00 UTC")
    assert line.count("|") == len(r.COLUMNS) + 1  # the load averages hold no "|"
    assert line.endswith("| met / met / met |")
    lost = r.row(result([[0, 0, 1, 1]]), "one server", "t")
    assert lost.endswith("| met / met / **missed** / **lines lost** |")  # 1 line drawn of 2


def test_a_row_replaces_its_setting_and_hall_size_alone():
    described = [("CPU", "test"), ("cores available", "2")]
    one = r.row(result([[0, 0, 1, 1], [0, 1, 1, 2]]), "one server", "first")
    text = r.with_row(TEXT, one, described)
    assert text.index(r.HEADING) < text.index("## First screen") and "## Room: a hall" in text
    two = r.row(result([[0, 0, 1, 1], [0, 1, 1, 2]]), "two replicas", "second")
    again = r.row(result([[0, 0, 1, 1], [0, 1, 1, 2]]), "one server", "third")
    text = r.with_row(r.with_row(text, two, described), again, described)
    rows = [line for line in r.report.markdown_section(text, r.HEADING).splitlines() if line.startswith("| ")]
    assert [row.split(" | ")[2].split(",")[0] for row in rows[1:3]] == ["second", "third"]
    assert "| CPU | test |" in rows and text.count(r.HEADING) == 1 and text.endswith("- z\n")
    noted = text.replace("\n\n## First screen", "\n\nWhat this says:\n\n- a note\n\n## First screen")
    kept = r.with_row(noted, again, described)
    assert kept == noted and r.report.markdown_section(kept, r.HEADING).endswith("What this says:\n\n- a note")
