"""The canvas in words for screen readers (issue 18): a live status region with the method and the
boundary's equation in the book's convention."""

from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from playground import make_model
from playground.scene import PointSet, Scene
from tests.conftest import SEED003_CLASS, SEED003_X
from ui.text.accessible import canvas_description
from ui.text.convention import book_line

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def test_two_classes_give_the_boundary_in_the_books_convention():
    y = SEED003_CLASS - 1
    model = make_model("least_squares").fit(SEED003_X, y)
    scene = Scene(points=PointSet.from_arrays(SEED003_X, y), method="least_squares")
    text = canvas_description(scene, model)
    line = book_line(model)
    assert text.startswith("Plot of the points with the decision regions of Least squares.")
    assert "y(x) = " + f"{line.w[0]:.3g}·x₁".replace("-", "−") in text  # a true minus sign
    assert "class 1 where y(x) ≥ 0, else class 2." in text
    # The book's sign: y(x) >= 0 on class 1's points.
    assert np.all(line.value(SEED003_X[y == 0]) >= 0)


def test_a_failed_fit_and_many_classes_are_described():
    scene = Scene(points=PointSet(), method="svm")
    assert "could not be fitted" in canvas_description(scene, None, "an error")
    X = np.array([[0, 0], [1, 0], [0, 1], [1, 1], [5, 5], [6, 5]], float)
    y = np.array([0, 0, 1, 1, 2, 2])
    model = make_model("least_squares").fit(X, y)
    assert "3 classes" in canvas_description(Scene(points=PointSet.from_arrays(X, y)), model)


def test_markup_in_a_description_is_escaped():
    scene = Scene(points=PointSet(), method="<img src=x onerror=alert(1)>")
    assert "<img" not in canvas_description(scene, None, "x")


def test_the_status_line_is_a_live_region_with_the_description():
    at = AppTest.from_file(APP, default_timeout=60).run()
    status = next(m.value for m in at.markdown if "role='status'" in m.value)
    assert "aria-live='polite'" in status and "class='pg-sr-only'" in status
    assert "decision regions of Least squares" in status


def test_the_boundary_is_written_as_a_person_writes_it_and_w0_is_said_in_words():
    """No "+ -0", a true minus sign, zero terms left out (issue 44, item 8); w = 0 (the perceptron's
    step 0) has no boundary: y(x) = 0 gives the whole plane to C1, f(0) = +1."""
    from ui.text.accessible import boundary_sentence

    y = SEED003_CLASS - 1
    model = make_model("perceptron").fit(SEED003_X, y)
    assert model.n_iter_ == 2 and not np.any(model.initial_weights_)
    assert boundary_sentence(model.at_step(0)) == (
        "No boundary: y(x) = 0 everywhere, so the whole plane is class 1 (y(x) ≥ 0 gives class 1)."
    )
    book = -model.weights_at(1)  # the book's sign: w points into C1
    assert boundary_sentence(model.at_step(1)).startswith(
        f"Boundary: y(x) = {book[1]:g}·x₁ + {book[2]:g}·x₂ + {book[0]:g} = 0;"
    )
    final = boundary_sentence(model)  # w = (0, -1, 1) in the book's sign: the bias term is zero
    assert final.startswith("Boundary: y(x) = −1·x₁ + 1·x₂ = 0;"), final
    for text in (final, boundary_sentence(model.at_step(1))):
        assert "-" not in text and "+ −" not in text and "−0" not in text
