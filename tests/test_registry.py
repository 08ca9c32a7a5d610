"""The method registry (issue 13): the book's order, each method with its section."""

import re

import pytest

from playground import MODELS, PlaygroundError, make_model

# The book's order: chapter 4 section by section, then the SVM of chapter 7.
BOOK = {
    "least_squares": "4.1.3",
    "fisher": "4.1.4",
    "perceptron": "4.1.7",
    "gaussian_shared": "4.2",
    "gaussian_separate": "4.2",
    "naive_bayes": "4.2.3",
    "logistic": "4.3.2",
    "softmax": "4.3.4",
    "svm": "7.1",
}


def _key(section):
    """ "4.2.1-4.2.2" -> (4, 2, 1): where the section range starts (hyphen or en dash)."""
    return tuple(int(part) for part in re.split("[-–]", section)[0].split("."))


def test_methods_come_in_the_books_order_with_their_sections():
    names = list(MODELS)
    assert [n for n in names if n in BOOK] == list(BOOK)
    for name, cls in MODELS.items():
        assert cls.book_section, f"{name} has no book section"
        if name in BOOK:
            assert cls.book_section.startswith(BOOK[name]), (name, cls.book_section)
    # Methods added later (probit 4.3.5, the Bayesian logistic model 4.4-4.5) slot in by section.
    sections = [_key(MODELS[name].book_section) for name in names]
    assert sections == sorted(sections)
    assert names[-1] == "svm"


@pytest.mark.parametrize("name", list(MODELS))
def test_every_method_reads_as_name_and_section(name):
    cls = MODELS[name]
    label = f"{cls.display_name} (§{cls.book_section})"
    assert cls.display_name and "§" in label and make_model(name).book_section == cls.book_section
    assert cls.section == cls.book_section  # the short name reads the same


def test_unknown_names_are_refused():
    with pytest.raises(PlaygroundError, match="Unknown method"):
        make_model("kernel_svm")
