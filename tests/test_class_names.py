"""Class names in messages (issue 13): the back-end carries labels, whoever shows a sentence names them.

A notebook user reads the labels they gave ("class 0", "class 'setosa'"); the app numbers its
classes from 1, as the book does ("class 1" for label 0), through ``phrase``.
"""

import pickle
import warnings

import numpy as np
import pytest

from playground import (
    Classes,
    DegenerateFitError,
    InvalidDataError,
    Message,
    PlaygroundError,
    Window,
    make_model,
    phrase,
)
from playground.errors import label_name
from playground.scene import PointSet
from tests.conftest import clusters


def one_based(label):
    return f"class {int(label) + 1}"


def test_a_message_names_classes_by_label_unless_told_otherwise():
    message = Message("The covariance of ", Classes(0, 1, 4), " is singular.")
    assert message == "The covariance of class 0, class 1 and class 4 is singular."
    assert message.phrase(one_based) == "The covariance of class 1, class 2 and class 5 is singular."
    assert message.labels == (0, 1, 4)
    assert isinstance(message, str) and "singular" in message
    assert phrase(message, one_based) == message.phrase(one_based)
    assert phrase("plain text", one_based) == "plain text" and phrase(None, one_based) is None


def test_labels_of_any_kind_read_naturally():
    assert label_name(np.int64(-3)) == "class -3"
    assert label_name(np.str_("setosa")) == "class 'setosa'"
    assert label_name(True) == "class True"
    assert Message(Classes("a", "b"), " differ.") == "class 'a' and class 'b' differ."


def test_messages_nest_and_relabel():
    inner = Message("Fisher's discriminant needs at least 2 points in each class; ", Classes(1), " has one.")
    outer = Message("In the sub-problem ", Classes(7), " versus the rest: ", inner.relabel(lambda s: 7))
    assert outer.labels == (7, 7)
    assert outer.phrase(one_based).endswith("class 8 has one.")
    rest = inner.relabel(lambda s: "the other classes")
    assert rest.endswith("; the other classes has one.") and rest.labels == ()


def test_messages_and_errors_survive_pickling():
    """Fitted models are cached (pickled) by the app: their notes and the errors must come back whole."""
    message = Message("Note on ", Classes(2), ".")
    again = pickle.loads(pickle.dumps(message))
    assert again == message and again.parts == message.parts and again.phrase(one_based) == "Note on class 3."
    err = DegenerateFitError("Too few points in ", Classes(0), ".")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is DegenerateFitError and str(back) == str(err) and back.phrase(one_based).endswith("class 1.")


def test_too_few_points_names_the_class_from_one_in_the_app():
    X, y = clusters(3, 10)
    X, y = np.vstack([X, [[5.0, 5.0]]]), np.append(y, 3)  # label 3 has one point
    with pytest.raises(DegenerateFitError) as caught:
        make_model("fisher").fit(X, y)
    assert str(caught.value).endswith("class 3 has one.")
    assert caught.value.labels == (3,)
    assert phrase(caught.value, one_based).endswith("class 4 has one.")


def test_text_labels_make_sense_in_a_notebook():
    X, y = clusters(2, 10)
    names = np.array(["setosa", "versicolor"])[y]
    names[0] = "virginica"  # one point of a third class
    with pytest.raises(DegenerateFitError, match="class 'virginica' has one"):
        make_model("gaussian_separate").fit(X, names)
    model = make_model("gaussian_shared").fit(X, np.array(["setosa", "versicolor"])[y])
    assert list(model.classes_) == ["setosa", "versicolor"]
    assert set(model.predict(X)) <= {"setosa", "versicolor"}


def test_singular_covariances_are_named_from_one_in_the_app():
    X = np.array([[0, 0], [1, 1], [2, 2], [0, 1], [1, 2], [2, 3.0], [5, 0], [6, 1], [5, 1.5]])
    y = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])  # classes 0 and 1 lie on lines
    model = make_model("gaussian_separate").fit(X, y)
    assert model.fit_message_.startswith("The covariances of class 0 and class 1 are singular")
    assert phrase(model.fit_message_, one_based).startswith("The covariances of class 1 and class 2 are singular")
    assert model.fit_message_.endswith("was added to their diagonals.")
    spread = [[0, 0], [1, 0.2], [0.3, 1]]
    single = make_model("gaussian_separate").fit(spread + X[3:].tolist(), y)  # only class 1 on a line
    assert single.fit_message_.startswith("The covariance of class 1 is singular")
    assert single.fit_message_.endswith("was added to its diagonal.")


@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
def test_sub_problems_name_the_real_classes(strategy):
    X, y = clusters(3, 10)
    X, y = np.vstack([X, [[9.0, 9.0]]]), np.append(y, 5)  # label 5 has a single point
    with pytest.raises(DegenerateFitError) as caught:
        make_model("fisher", multiclass=strategy).fit(X, y)
    text = phrase(caught.value, one_based)
    if strategy == "ovr":
        assert text.startswith("In the sub-problem class 6 versus the rest: ")
    else:
        assert text.startswith("In the sub-problem class 1 versus class 6: ")
    assert text.endswith("class 6 has one.") and "class 0" not in text and "-1" not in text


def test_one_versus_rest_notes_name_their_sub_problems():
    X, y = clusters(3, 20, spread=(2.5, 2.0))
    model = make_model("perceptron", multiclass="ovr", max_epochs=2).fit(X, y + 10)
    note = model.fit_message_
    assert isinstance(note, Message)
    # The same note for every sub-problem is said once, after all of their names.
    assert note.startswith(
        "class 10 versus the rest, class 11 versus the rest and class 12 versus the rest: "
        "The perceptron did not converge"
    )
    assert note.count("did not converge") == 1
    assert phrase(note, one_based).startswith("class 11 versus the rest, class 12 versus the rest and class 13")
    assert note.labels == (10, 11, 12)


def test_the_apps_status_line_numbers_classes_from_one():
    """ui.session.compute keeps errors and notes as Messages; the app phrases them (label k is class k + 1)."""
    from ui.session.compute import fit_view

    X, y = clusters(3, 10)
    points = PointSet.from_arrays(np.vstack([X, [[5.0, 5.0]]]), np.append(y, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # st.cache_data outside a running app
        view = fit_view(points, "fisher", (), "native", Window())
        assert phrase(view.error, one_based).endswith("class 4 has one.")
        lines = np.array([[0, 0], [1, 1], [2, 2], [0, 1], [1, 2], [2, 3.0], [5, 0], [6, 1], [5, 1.5]])
        view = fit_view(
            PointSet.from_arrays(lines, [0, 0, 0, 1, 1, 1, 2, 2, 2]), "gaussian_separate", (), "native", Window()
        )
        assert view.error is None
        assert phrase(view.note, one_based).startswith("The covariances of class 1 and class 2 are singular")


def test_every_error_is_a_value_error_with_a_sentence():
    for error in (PlaygroundError("A."), InvalidDataError("B ", Classes(1), ".")):
        assert isinstance(error, ValueError) and str(error).endswith(".")
