"""BENCHMARKS.md and the closing summary, from the back-end cases and front-end results."""

from . import backend, frontend

FRONTEND_TARGET = 1.3


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines)


def growth_rows(cases):
    from playground import MODELS

    rows = []
    for method in MODELS:
        for k in backend.CLASSES:
            ours = backend.growth_exponent(cases, method, k, "ours")
            theirs = backend.growth_exponent(cases, method, k, "sklearn")
            rows.append(
                (
                    method,
                    str(k),
                    f"{ours:.2f}" if ours is not None else "—",
                    f"{theirs:.2f}" if theirs is not None else "—",
                )
            )
    return rows


def growth_lines(cases):
    return [f"{m:18} K={k}: ours N^{a}   scikit-learn N^{b}" for m, k, a, b in growth_rows(cases)]


def backend_misses(cases):
    return [c for c in cases if c.verdict in ("MISSED", "n/a")]


def summary_lines(cases, results):
    lines = []
    if cases is not None:
        targeted = [c for c in cases if c.target is not None]
        met = [c for c in targeted if c.verdict == "met"]
        lines.append(f"back-end: {len(met)} of {len(targeted)} targeted cases meet their target")
        for case in backend_misses(cases):
            ratio = f"{case.ratio:.2f}" if case.ratio is not None else "no ratio"
            ours, theirs = backend._ms(case.ours.median_total), backend._ms(case.sklearn.median_total)
            lines.append(
                f"  missed: {case.method} K={case.k} N={case.n:,}: {ratio} (target <= {case.target:.1f}; "
                f"ours {ours} ms, scikit-learn {theirs} ms)"
            )
        problems = [c for c in cases if c.ours.error or c.sklearn.error or c.ours.timed_out or c.sklearn.timed_out]
        for case in problems:
            for side in ("ours", "sklearn"):
                timing = getattr(case, side)
                if timing.error or timing.timed_out:
                    what = timing.error or f"stopped after {timing.timed_out:.0f} s"
                    lines.append(f"  {case.method} K={case.k} N={case.n:,} ({side}): {what}")
    if results is not None:
        for n, floor, median, p90 in frontend.ratios(results):
            verdict = "met" if median <= FRONTEND_TARGET else "MISSED"
            lines.append(
                f"front-end N={n:,}: playground / {floor} {median:.2f} (median), {p90:.2f} (p90): "
                f"target <= {FRONTEND_TARGET} {verdict}"
            )
    return lines


def markdown(description, cases, results, *, quick, elapsed):
    out = [
        "# Benchmarks",
        "",
        "Written by `python -m bench"
        + (" --quick` (a smoke run: few repeats)" if quick else "`")
        + f" in {elapsed:.0f} s.",
        "Rerun it to refresh this file; `--backend-only` / `--frontend-only` run one half, `--quick` a smoke run.",
        "",
        "## Machine",
        "",
        _table(("", ""), description),
        "",
    ]
    if cases is not None:
        out += [
            "## Back-end: ours against scikit-learn",
            "",
            "Each case fits N points from K overlapping Gaussian clusters, then evaluates on a 200 x 200 grid "
            "(40,000 points) over a window around them: `predict_proba` for the probabilistic methods "
            "(Gaussian generative models, naive Bayes, logistic and softmax regression), `decision_function` "
            "for the others. *total* = fit + grid evaluation, the median of "
            f"{backend.repeats_for(100, quick)} / {backend.repeats_for(1_000, quick)} / "
            f"{backend.repeats_for(10_000, quick)} repeats at N = 100 / 1,000 / 10,000, after one warm-up run on a "
            "small subset. Both sides run on the same data in the same run, each in its own forked worker "
            "process limited to one BLAS thread (threadpoolctl), with a deadline "
            "(a case that is too slow shows `> deadline`, a `*` marks partial repeats). "
            "*ratio* = ours / scikit-learn on the total; below 1 we are faster.",
            "",
            "scikit-learn counterparts: "
            + "; ".join(f"`{m}`: {name}" for m, name in backend.SKLEARN_NAMES.items())
            + '. Two-class-only methods use our `multiclass="ovr"` for K = 3 (the SVM `"ovo"`, as SVC). '
            "The perceptron runs the same number of epochs on both sides (sklearn's `max_iter` = our `n_epochs_`).",
            "",
            "Targets: ratio <= 1.0 for every closed-form method and logistic/softmax (all N, both K), "
            "<= 2.0 for the SVM at N = 1,000; the perceptron and the other SVM sizes have none.",
            "",
            _table(backend.HEADER[:-1] + ("verdict",), [backend.row(c) for c in cases]),
            "",
            "### Growth of the fit time with N",
            "",
            "Slope of log(median fit time) on log(N) over N = 100, 1,000, 10,000 (1 = linear). At small N "
            "fixed overheads dominate, so the slopes understate the asymptotic growth.",
            "",
            _table(("method", "K", "ours", "scikit-learn"), growth_rows(cases)),
            "",
        ]
    if results is not None:
        out += [
            "## Front-end: click-to-repaint in headless Chromium",
            "",
            "Time from the `mousedown` of a click on empty space to the canvas marking its root `.pg-canvas` "
            "with the new point count (`data-points`, set right after `Plotly.react` has drawn the figure "
            "with the new point and, in the playground, the re-evaluated regions), measured inside the page. "
            f'The playground is prepared through the sidebar ("Generate Gaussian clusters": 2 classes, N/2 '
            f'points each, "Replace points"), then the method is set to *{frontend.METHOD_LABEL}*: every '
            "click refits by IRLS and evaluates the 200 x 200 posterior grid behind the regions. The floor app "
            "(`bench/floor_app.py`) mounts the same canvas component with a figure holding only the points "
            "(N random ones to start with), echoing each click: no fit, no regions, no sidebar. It runs twice: "
            "*floor* on Streamlit's defaults, as anyone would write it, and *floor, tuned* with the "
            "playground's runtime tuning (`ui/runtime.py`: the objects alive after the first run are frozen "
            "out of the full garbage collection Streamlit runs after every script run, which otherwise holds "
            "every click up by 55-60 ms while it walks the heap). Against the tuned floor the ratio measures "
            "the playground's own work alone. "
            "Clicks land on the emptiest spot of the plot, at least "
            f"{frontend.DOUBLE_CLICK_GAP_MS} ms apart, each after the page has been quiet for 500 ms; two "
            "warm-up clicks are not counted. *KiB per click* = websocket frames received from the click "
            "until quiet (median), split into the canvas element (its figure JSON), the other plotly charts "
            "on the page (the open method panel's), and the rest (widgets, text, layout); *reruns* = script "
            "runs per click (the playground's canvas runs alone and draws; its panels run next, after the draw, "
            "and their bytes are counted too). *to canvas ms* = from the click until the new figure reaches "
            "the canvas (the server's run, the transfer and the page's update before the canvas draws); "
            "*Plotly.react ms* = "
            "the canvas's own draw time (medians).",
            "",
            _table(frontend.HEADER, [frontend.row(r) for r in results]),
            "",
            _table(
                (
                    "N",
                    "against",
                    "playground / floor, median",
                    "playground / floor, p90",
                    f"target <= {FRONTEND_TARGET}",
                ),
                [
                    (
                        f"{n:,}",
                        floor,
                        f"{median:.2f}",
                        f"{p90:.2f}",
                        "met" if median <= FRONTEND_TARGET else f"MISSED by {median / FRONTEND_TARGET:.2f}x",
                    )
                    for n, floor, median, p90 in frontend.ratios(results)
                ],
            ),
            "",
        ]
    out += ["## Summary", ""] + [f"- {line.strip()}" for line in summary_lines(cases, results)] + [""]
    return "\n".join(out)


def _sections(text):
    """The lines of a markdown text grouped under its "## " headings: [(heading, lines)], the
    part before the first heading under ""."""
    sections = [("", [])]
    for line in text.splitlines():
        if line.startswith("## "):
            sections.append((line, []))
        sections[-1][1].append(line)
    return sections


def keep_other_half(text, previous, ran):
    """``text``, written by a run of one half (``ran``: "backend" or "frontend"), with the other
    half's section and summary lines carried over from ``previous``, the file it replaces."""
    kept = "## Front-end" if ran == "backend" else "## Back-end"
    old = _sections(previous)
    kept_sections = [section for section in old if section[0].startswith(kept)]
    if not kept_sections:
        return text
    old_summary = next((lines for heading, lines in old if heading == "## Summary"), [])
    kept_lines = [
        line for line in old_summary if line.startswith("- ") and line.startswith("- front-end") == (ran == "backend")
    ]
    sections = _sections(text)
    headings = [heading for heading, _ in sections]
    at = headings.index("## Summary") if ran == "backend" else headings.index("## Machine") + 1
    sections[at:at] = kept_sections
    out = []
    for heading, lines in sections:
        if heading == "## Summary":
            new_lines = [line for line in lines if line.startswith("- ")]
            both = new_lines + kept_lines if ran == "backend" else kept_lines + new_lines
            lines = ["## Summary", ""] + both + [""]
        out += lines
    # Date the kept half by the run that measured it (an earlier note says so if it was kept before).
    lead = f"The {kept[3:].lower()} section below is kept from the run"
    earlier = [line for line in previous.splitlines() if line.startswith(lead)]
    dates = [line.split("|")[2].strip() for line in previous.splitlines() if line.startswith("| date |")]
    since = earlier[0][len(lead) :].split(";")[0] if earlier else f" of {dates[0]}" if dates else ""
    note = f"{lead}{since}; this run was `--{ran}-only`."
    out.insert(out.index("## Machine") - 1, note)
    return "\n".join(out).rstrip("\n") + "\n"
