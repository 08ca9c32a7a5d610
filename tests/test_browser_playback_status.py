"""The status line under the plot says what is drawn during playback (issue 44, item 8): its
sentence for a screen reader gives the boundary of the step drawn (the browser's own while it
plays or steps, the server's once it has the step), in the book's convention, written as a person
writes it (a true minus sign, no zero terms, no "+ -0"); at step 0 from w = 0 it says that
y(x) = 0 everywhere gives the whole plane to C1 (f(0) = +1).

The oracle: the perceptron's own weights at each step (``weights_at``), negated into the book's
sign and written out here with the test's own formatting."""

import dataclasses
from urllib.parse import urlencode

import numpy as np
import pytest

from playground import make_model
from playground.link import encode_scene
from playground.presets import PRESETS
from tests.browser import wait_settled

pytestmark = pytest.mark.browser

PLAYER = ".pg-player"
# What a screen reader reads of the status line's hidden sentences (an aria-hidden one it skips).
SAID = "document.querySelector('[role=\"status\"] .pg-sr-only:not([aria-hidden=\"true\"])')?.textContent || ''"
STATUS_JS = "() => " + SAID


def _scene():
    scene = PRESETS["seed003"].scene
    return dataclasses.replace(scene, step=None).with_method("perceptron", {}, "native")


def _number(value):
    text = f"{value:.3g}"
    return text.replace("-", "−")


def _expected(model, step):
    """The book's y(x) of ``step`` as the status line should write it (w points into C1)."""
    w = -model.weights_at(step)  # the back-end's positive class is classes_[1]; the book's C1 is classes_[0]
    terms = [(w[1], "·x₁"), (w[2], "·x₂"), (w[0], "")]
    text = ""
    for value, name in terms:
        if _number(abs(value)) == "0":
            continue
        sign = ("−" if value < 0 else "") if not text else (" − " if value < 0 else " + ")
        text += sign + _number(abs(value)) + name
    if not text:
        return "y(x) = 0 everywhere, so the whole plane is class 1"
    return f"Boundary: y(x) = {text} = 0; class 1 where y(x) ≥ 0, else class 2."


def _said(page, expected, timeout=30_000):
    try:
        _wait_said(page, expected, timeout)
    except Exception as error:
        raise AssertionError((expected, page.evaluate(STATUS_JS))) from error
    return page.evaluate(STATUS_JS)


def _wait_said(page, expected, timeout):
    page.wait_for_function(
        "e => (" + SAID + ").includes(e)",
        arg=expected,
        timeout=timeout,
    )


def test_the_status_line_tells_the_step_drawn(browser, server):
    scene = _scene()
    points = scene.training.points
    model = make_model("perceptron").fit(points.X, points.y)
    n = model.n_iter_
    assert n >= 2 and not np.any(model.initial_weights_)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{server}/?{urlencode(encode_scene(scene))}")
    page.wait_for_selector(PLAYER, timeout=60_000)
    wait_settled(page)
    assert _expected(model, n) in _said(page, _expected(model, n))  # the final fit
    for step in range(n - 1, -1, -1):
        page.get_by_role("button", name="Step back").click()
        page.wait_for_function("s => document.querySelector('.pg-player')?.dataset.step === String(s)", arg=step)
        # While the browser draws the step, and after the server has drawn it too.
        text = _said(page, _expected(model, step))
        assert "+ -" not in text and "+ −" not in text and "−0" not in text, text
        page.wait_for_function(
            "s => new RegExp('[?&]s=' + s + '(&|$)').test(window.location.search)", arg=step, timeout=30_000
        )
        wait_settled(page)
        text = _said(page, _expected(model, step))
        assert "Boundary: y(x) =" not in text or step > 0, text
    assert "decision regions of Perceptron" in text and "the whole plane is class 1" in text
    # Back to the final fit: the status line reads the final boundary again.
    page.get_by_role("button", name="Final fit").click()
    _said(page, _expected(model, n))
    assert not errors, errors
    context.close()
