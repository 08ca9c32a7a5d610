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


def _drag_result(n, client, browser, ok=True):
    from bench.drag import DragResult

    return DragResult("least squares", n, 8.0, int(client * 8), 50, 15.0, ok, "1.0 / 1.0 / 1.0", browser, 40.0)


def test_the_drag_section_is_replaced_or_inserted_and_the_rest_kept():
    from bench import drag

    section = drag.markdown([_drag_result(90, 12.0, 9.0), _drag_result(1000, 10.0, 3.0)])
    text = drag.with_section(PREVIOUS, section)
    assert text.index("## Front-end") < text.index(drag.HEADING) < text.index("## Summary")
    assert "old back-end table" in text and "old front-end table" in text
    assert drag.section_of(text) == section
    again = drag.with_section(text, drag.markdown([_drag_result(90, 20.0, 10.0)]))
    assert again.count(drag.HEADING) == 1 and "| 1,000 |" not in again
    assert drag.section_of(PREVIOUS) is None


def test_the_drag_verdict_takes_the_slower_of_client_and_browser():
    from bench import drag

    assert drag.verdict(_drag_result(90, 12.0, 9.0)) == "met"
    assert drag.verdict(_drag_result(90, 12.0, 7.0)) == "MISSED"
    assert drag.verdict(_drag_result(1000, 5.0, None)) == "met"
    assert drag.verdict(_drag_result(1000, 5.0, 4.5, ok=False)) == "WRONG DROP"


def test_the_crowd_section_is_kept_and_replaced_alone():
    from bench import crowd

    text = crowd.with_section(PREVIOUS, "## Crowd: eight pages\n\nfigures")
    assert crowd.section_of(text) == "## Crowd: eight pages\n\nfigures"
    again = crowd.with_section(text, "## Crowd: eight pages\n\nnew figures")
    assert again.count("## Crowd") == 1 and "new figures" in again and "old front-end table" in again
