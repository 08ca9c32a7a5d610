"""bench/report.py: a run of one half keeps the other half of BENCHMARKS.md."""

from bench import report

PREVIOUS = """# Benchmarks

Written by `python -m bench` in 200 s.

## Machine

| date | 2026-01-01 10:00 UTC |

## Back-end: ours against scikit-learn

old back-end table

## Front-end: click-to-repaint in headless Chromium

old front-end table

## Summary

- back-end: 1 of 2 targeted cases meet their target
- front-end N=50: playground / floor 1.60 (median): target <= 1.3 MISSED
"""

BACKEND_ONLY = """# Benchmarks

Written by `python -m bench` in 20 s.

## Machine

| date | 2026-02-02 10:00 UTC |

## Back-end: ours against scikit-learn

new back-end table

## Summary

- back-end: 2 of 2 targeted cases meet their target
"""


def test_backend_only_run_keeps_the_front_end_section_and_its_date():
    merged = report.keep_other_half(BACKEND_ONLY, PREVIOUS, "backend")
    assert "new back-end table" in merged and "old back-end table" not in merged
    assert "old front-end table" in merged
    assert merged.index("## Back-end") < merged.index("## Front-end") < merged.index("## Summary")
    summary = merged[merged.index("## Summary") :]
    assert "2 of 2" in summary and "1 of 2" not in summary and "front-end N=50" in summary
    assert "kept from the run of 2026-01-01 10:00 UTC; this run was `--backend-only`" in merged
    # Kept again by a later partial run: still dated by the run that measured it.
    again = report.keep_other_half(BACKEND_ONLY.replace("2026-02-02", "2026-03-03"), merged, "backend")
    assert "kept from the run of 2026-01-01 10:00 UTC" in again and again.count("old front-end table") == 1


def test_frontend_only_run_keeps_the_back_end_section():
    frontend_only = PREVIOUS.replace("## Back-end: ours against scikit-learn\n\nold back-end table\n\n", "")
    frontend_only = frontend_only.replace("- back-end: 1 of 2 targeted cases meet their target\n", "")
    merged = report.keep_other_half(frontend_only, PREVIOUS, "frontend")
    assert merged.index("## Machine") < merged.index("## Back-end") < merged.index("## Front-end")
    assert "- back-end: 1 of 2" in merged


def test_nothing_to_keep_leaves_the_text_alone():
    assert report.keep_other_half(BACKEND_ONLY, "# Benchmarks\n", "backend") == BACKEND_ONLY


def _drag_result(n, route, browser, ok=True, cpu=3.0, long_tasks=0):
    from bench.drag import DragResult

    result = DragResult("least squares", n, 8.0, int(route * 8), 0, 4.0, cpu, ok, "1.0 / 1.0 / 1.0")
    result.browser_per_second, result.draw_ms, result.long_tasks, result.longest_task_ms = browser, 22.0, long_tasks, 0
    return result


def test_the_drag_section_is_replaced_or_inserted_and_the_rest_kept():
    from bench import drag

    section = drag.markdown([_drag_result(90, 40.0, 30.0), _drag_result(1000, 30.0, 13.0)])
    text = drag.with_section(PREVIOUS, section)
    assert text.index("## Front-end") < text.index(drag.HEADING) < text.index("## Summary")
    assert "old back-end table" in text and "old front-end table" in text
    assert drag.section_of(text) == section
    again = drag.with_section(text, drag.markdown([_drag_result(90, 20.0, 10.0)]))
    assert again.count(drag.HEADING) == 1 and "| 1,000 |" not in again
    assert drag.section_of(PREVIOUS) is None


def test_the_drag_verdict_names_each_target_missed():
    from bench import drag

    assert drag.verdict(_drag_result(90, 40.0, 30.0)) == "met"
    assert drag.verdict(_drag_result(90, 40.0, 20.0)) == "MISSED: rate"
    assert drag.verdict(_drag_result(90, 40.0, 30.0, long_tasks=2)) == "MISSED: long tasks"
    assert drag.verdict(_drag_result(90, 40.0, 30.0, cpu=6.0)) == "MISSED: server CPU"
    assert drag.verdict(_drag_result(1000, 40.0, 13.0, cpu=6.0)) == "met"  # no CPU target at N = 1,000
    assert drag.verdict(_drag_result(1000, 13.0, None)) == "met"  # no page: the route's rate
    assert drag.verdict(_drag_result(1000, 5.0, 12.5, ok=False)) == "WRONG DROP"


OLD_DRAG_OUTPUT = """
Live drag: boundary updates per second while a point is dragged (websocket client)
  method                                    N  client/s  browser/s  target  draw ms  page CPU ms  \
server CPU ms/update  load (client; browser)
  least squares (the default scene)        90      18.5        8.7    >= 8       21          133  \
                   8  0.7 / 4.2 / 5.0; 2.0 / 4.2 / 4.9  met
  logistic regression                   1,000      55.2        —    >= 4       —          244  \
                   9  2.2 / 4.3 / 5.0; 4.6 / 4.6 / 5.0  MISSED
""".replace("\\\n", "")


def test_the_drag_before_columns_are_read_from_the_older_tree_s_output():
    from bench import drag

    rows = drag.parse_before(OLD_DRAG_OUTPUT)
    assert rows[("least squares (the default scene)", 90)] == {
        "client_per_second": 18.5,
        "browser_per_second": 8.7,
        "draw_ms": 21.0,
        "page_cpu_ms": 133.0,
        "server_cpu_ms": 8.0,
        "load": "2.0 / 4.2 / 4.9",
    }
    assert rows[("logistic regression", 1000)]["browser_per_second"] is None
    result = _drag_result(90, 40.0, 30.0)
    result.before = rows[("least squares (the default scene)", 90)]
    section = drag.markdown([result], before_root="/tmp/before")
    assert "| 30.0 | 8.7 |" in section and "`/tmp/before`" in section


def _click_result(label, oks, median):
    from bench.clicks import ClickResult, SeriesRun

    runs = [SeriesRun(busy, 20 if ok else 19, 20 if ok else 19, 0.1, [median] * 20, 20, "1.0") for busy, ok in oks]
    return ClickResult(label, runs, [median] * 15, 15, 12.0, "0.5")


def test_the_clicks_section_and_its_verdict():
    from bench import clicks, drag

    good = _click_result("this tree", [(False, True), (True, True)], 40.0)
    bad = _click_result("before", [(False, True), (True, False)], 120.0)
    assert clicks.verdict(good) == "met"
    assert clicks.verdict(bad) == "MISSED: busy series 0 of 1, click-to-boundary 120 ms"
    section = clicks.markdown([good, bad])
    assert "| this tree | 1 of 1 (worst 0.10 px) | 1 of 1 (worst 0.10 px) | 40 / 40 (15 of 15) |" in section
    text = clicks.with_section(drag.with_section(PREVIOUS, drag.markdown([_drag_result(90, 40.0, 30.0)])), section)
    assert text.index("## Front-end") < text.index(clicks.HEADING) < text.index(drag.HEADING)
    assert clicks.section_of(text) == section
    assert clicks.with_section(text, section) == text


def test_the_crowd_section_is_kept_and_replaced_alone():
    from bench import crowd

    text = crowd.with_section(PREVIOUS, "## Crowd: eight pages\n\nfigures")
    assert crowd.section_of(text) == "## Crowd: eight pages\n\nfigures"
    again = crowd.with_section(text, "## Crowd: eight pages\n\nnew figures")
    assert again.count("## Crowd") == 1 and "new figures" in again and "old front-end table" in again
