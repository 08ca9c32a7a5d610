"""Errors and messages the back-end gives: each is one sentence a student can act on.

Naming classes
--------------
A message that names a class does not bake the label into its text. It is a ``Message``: a
``str`` built from parts, some of which are ``Classes`` (one or more class labels). Whoever
shows the sentence decides how a class is named:

- ``str(message)`` (and ``str(err)``) names each class by its label, as a notebook user
  knows it: "class 0", "class -1", "class 'setosa'" (``label_name``);
- ``message.phrase(name)`` (or ``phrase(message_or_error, name)``) names each class with
  ``name(label)``; the playground app passes one that numbers classes from 1, as the book
  does ("class 1" for label 0). Several labels read "class 1, class 2 and class 3".

Errors carry the same parts: ``PlaygroundError(*parts)``, e.g.
``DegenerateFitError("Fisher's discriminant needs at least 2 points in each class; ",
Classes(label), " has one.")``; ``err.message`` is the ``Message``, ``err.labels`` the labels
it names. Fitted models' ``fit_message_`` sentences are ``Message`` values too, so the app
phrases notes and errors alike. A ``Message`` is a plain ``str`` to everything else
(comparisons, ``in``, f-strings give the label-named text), and both it and the errors
pickle, so cached fits keep them.

A wrapper that fits sub-problems (one-versus-rest, one-versus-one) rewrites the labels of
its sub-problems' messages with ``Message.relabel`` so that they name the real classes.
"""


def label_name(label):
    """The default name of a class: its label as given ("class 0", "class 'setosa'")."""
    value = label.item() if hasattr(label, "item") else label
    return f"class {value!r}" if isinstance(value, str | bytes) else f"class {value}"


def join_names(names):
    """Names joined as "a", "a and b", "a, b and c"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class Classes(tuple):
    """One or more class labels inside a message, named by whoever shows the message."""

    def __new__(cls, *labels):
        return super().__new__(cls, labels)

    def __reduce__(self):
        return (Classes, tuple(self))

    def __repr__(self):
        return f"Classes{tuple.__repr__(self)}"


def _render(parts, name):
    return "".join(join_names(name(label) for label in part) if isinstance(part, Classes) else part for part in parts)


class Message(str):
    """A sentence built from text and ``Classes`` parts; ``str`` names classes by ``label_name``.

    Parameters
    ----------
    *parts : str, Message or Classes
        Text, a message to splice in (its parts are kept), or class labels.
    """

    def __new__(cls, *parts):
        flat = []
        for part in parts:
            if isinstance(part, Message):
                flat.extend(part.parts)
            elif isinstance(part, Classes):
                flat.append(part)
            else:
                flat.append(str(part))
        self = super().__new__(cls, _render(flat, label_name))
        self.parts = tuple(flat)
        return self

    def __reduce__(self):
        return (Message, self.parts)

    @property
    def labels(self):
        """Every label the message names, in order of appearance."""
        return tuple(label for part in self.parts if isinstance(part, Classes) for label in part)

    def phrase(self, name=label_name):
        """The sentence with each class named by ``name(label)`` (a plain str)."""
        return _render(self.parts, name)

    def relabel(self, mapping):
        """A new Message with each label replaced by ``mapping(label)``: a label (still a class
        to name) or a ``str`` (literal text, e.g. "the other classes")."""
        parts = []
        for part in self.parts:
            if not isinstance(part, Classes):
                parts.append(part)
                continue
            texts, labels = [], []
            for label in part:
                new = mapping(label)
                (texts if isinstance(new, str) else labels).append(new)
            if labels:
                parts.append(Classes(*labels))
            if texts:
                parts.append((" and " if labels else "") + " and ".join(texts))
        return Message(*parts)


def phrase(message, name=label_name):
    """``message`` (a Message, an error, a str or None) as text with classes named by ``name``."""
    if message is None:
        return None
    if isinstance(message, PlaygroundError):
        message = message.message
    if isinstance(message, Message):
        return message.phrase(name)
    return str(message)


class PlaygroundError(ValueError):
    """Base class: the fit or the input cannot go ahead; ``str(err)`` says why.

    ``PlaygroundError(*parts)``: the parts of a ``Message`` (text and ``Classes``).
    """

    def __init__(self, *parts):
        super().__init__(*parts)
        self.message = Message(*parts)

    def __str__(self):
        return str(self.message)

    @property
    def labels(self):
        """The class labels the message names."""
        return self.message.labels

    def phrase(self, name=label_name):
        """The message with classes named by ``name(label)``."""
        return self.message.phrase(name)

    def relabel(self, mapping, *prefix):
        """The same kind of error with its labels mapped (see ``Message.relabel``) and ``prefix``
        parts put in front (a wrapper naming its sub-problem)."""
        return type(self)(*prefix, self.message.relabel(mapping))


class InvalidDataError(PlaygroundError):
    """The points themselves are unusable (wrong shape, NaN, too few classes...)."""


class InvalidTypeError(InvalidDataError, TypeError):
    """The input holds something that is not a number at all (e.g. a dict in X)."""


class NotFittedError(PlaygroundError, AttributeError):
    """A method that needs a fitted model was called before ``fit`` (an AttributeError too,
    as scikit-learn's NotFittedError is)."""


class NotAvailableError(PlaygroundError, AttributeError):
    """The model has no such method (e.g. probabilities from a method that gives none); an
    AttributeError too, so ``hasattr`` says False."""


class DegenerateFitError(PlaygroundError):
    """The data are valid but the method has no well-defined answer on them."""


class ConvergenceError(PlaygroundError):
    """An iterative method cannot produce a usable solution (e.g. hard margin on overlap)."""
