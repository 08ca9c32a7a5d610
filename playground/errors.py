"""Errors and messages the back-end gives: each is one sentence a student can act on.

Messages are whole sentences
----------------------------
A ``Message`` is a ``str`` made of a whole-sentence template, marked with ``N_`` for the app's
translation catalogs, and its named arguments::

    DegenerateFitError(
        N_("Fisher's discriminant needs at least {n} points in each class; {classes} has one."),
        n=2, classes=Classes(label))

The template is never cut into fragments (word order differs between languages). An argument is
a number or text (put in as it is), ``Classes`` (one or more class labels, named by whoever shows
the sentence) or another ``Message`` (a sentence or phrase inside this one, itself translated).

Whoever shows the sentence decides its language and how a class is named:

- ``str(message)`` (and ``str(err)``) is English, each class named by its label as a notebook
  user knows it: "class 0", "class -1", "class 'setosa'" (``label_name``);
- ``phrase(message_or_error, name, translate)`` translates the template (and those of the
  arguments) with ``translate`` (the app passes its ``_``), then names each class with
  ``name(label)``; the app's names number classes from 1, as the book does ("class 1" for
  label 0). Several labels read "class 1, class 2 and class 3".

``err.message`` is the error's ``Message``, ``err.labels`` the labels it names. Fitted models'
``fit_message_`` sentences are ``Message`` values too, so the app phrases notes and errors alike.
A ``Message`` is a plain ``str`` to everything else (comparisons, ``in``, f-strings give the
English, label-named text), and both it and the errors pickle, so cached fits keep them.

A wrapper that fits sub-problems (one-versus-rest, one-versus-one) rewrites the labels of its
sub-problems' messages with ``Message.relabel`` so that they name the real classes, and puts the
sub-problem's message inside its own ("In the sub-problem {problem}: {message}").

The older form ``Message("text ", Classes(label), " more text")`` (parts) still works; its text
is not translated.
"""

import string
from collections.abc import Callable, Iterable
from typing import Any, Self, TypeAlias, overload

from .i18n import N_

_FORMATTER = string.Formatter()

#: A translation: an English template in, the template in the reader's language out.
Translate: TypeAlias = Callable[[str], str]
#: How a class is named from its label. The label is Any, not object: labels are whatever the
#: caller's y holds (ints in the app, strings in a notebook), and a namer written for the app's
#: int labels (``Callable[[int], str]``) must be accepted, which ``Callable[[object], str]`` refuses.
LabelNamer: TypeAlias = Callable[[Any], str]
#: What ``Message.relabel`` maps a label to: another label, or a phrase (Message or str) in its place.
Relabel: TypeAlias = Callable[[Any], Any]


def identity(text: str) -> str:
    """No translation: the English template itself."""
    return text


def label_name(label: object) -> str:
    """The default name of a class: its label as given ("class 0", "class 'setosa'")."""
    value = label.item() if hasattr(label, "item") else label
    return f"class {value!r}" if isinstance(value, str | bytes) else f"class {value}"


def join_names(names: Iterable[object], translate: Translate = identity) -> str:
    """Names joined as "a", "a and b", "a, b and c" (in the language of ``translate``)."""
    texts = [str(name) for name in names]
    if not texts:
        return ""
    text = texts[0]
    for k, name in enumerate(texts[1:], start=2):
        template = N_("{names} and {name}") if k == len(texts) else N_("{names}, {name}")
        text = _fill(translate(template), template, names=text, name=name)
    return text


def _fill(translated: str, template: str, **values: object) -> str:
    """``translated`` filled with ``values``; the English ``template`` if a translation is broken."""
    try:
        return translated.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError, AttributeError):
            return template  # text that was never a template (e.g. braces in an old-style message)


class Classes(tuple[Any, ...]):
    """One or more class labels inside a message, named by whoever shows the message."""

    def __new__(cls, *labels: Any) -> Self:
        return super().__new__(cls, labels)

    def __reduce__(self) -> tuple[type["Classes"], tuple[Any, ...]]:
        return (Classes, tuple(self))

    def __repr__(self) -> str:
        return f"Classes{tuple.__repr__(self)}"


def _field_names(template: str) -> list[str]:
    """The names of a template's fields, in order of appearance."""
    try:
        fields = [field for _text, field, _spec, _conversion in _FORMATTER.parse(template) if field]
    except ValueError:
        return []
    return [field.split(".")[0].split("[")[0] for field in fields]


def _from_parts(parts: Iterable[object]) -> tuple[str, dict[str, object]]:
    """(template, args) of the older form's parts: text, ``Classes`` and messages in a row."""
    template: list[str] = []
    args: dict[str, object] = {}
    for index, part in enumerate(parts):
        if isinstance(part, Classes | Message):
            key = f"part{index}"
            template.append("{" + key + "}")
            args[key] = part
        else:
            template.append(str(part).replace("{", "{{").replace("}", "}}"))
    return "".join(template), args


def _restore(cls: type["Message"], template: str, args: dict[str, object]) -> "Message":
    return cls(template, **args)


class Message(str):
    """A whole sentence: a template with named arguments; ``str`` is its English text, classes
    named by ``label_name``.

    Parameters
    ----------
    template : str
        The sentence, ``{name}`` for each argument (marked ``N_`` where it is written). A
        ``Message`` given alone is copied.
    **args
        Numbers, text, ``Classes`` or ``Message`` values filling the template.

    ``Message("text ", Classes(label), " text")`` (several parts, the older form) is a sentence
    whose text is not translated.
    """

    template: str
    args: dict[str, object]

    def __new__(cls, template: object = "", /, *parts: object, **args: object) -> Self:
        if parts or isinstance(template, Classes):
            text, args = _from_parts((template, *parts))
        elif isinstance(template, Message):
            text, args = template.template, {**template.args, **args}
        else:
            text = str(template)
        self = super().__new__(cls, _phrase(text, args, label_name, identity))
        self.template = text
        self.args = args
        return self

    def __reduce__(self) -> tuple[Callable[..., "Message"], tuple[type["Message"], str, dict[str, object]]]:
        return (_restore, (Message, self.template, self.args))

    @property
    def parts(self) -> tuple[str, tuple[tuple[str, object], ...]]:
        """(template, arguments): what the message is made of."""
        return self.template, tuple(self.args.items())

    @property
    def labels(self) -> tuple[Any, ...]:
        """Every label the message names, in order of appearance."""
        labels: list[Any] = []
        for key in _field_names(self.template):
            value = self.args.get(key)
            if isinstance(value, Classes):
                labels.extend(value)
            elif isinstance(value, Message):
                labels.extend(value.labels)
        return tuple(labels)

    def phrase(self, name: LabelNamer = label_name, translate: Translate = identity) -> str:
        """The sentence translated by ``translate``, each class named by ``name(label)`` (a str)."""
        return _phrase(self.template, self.args, name, translate)

    def relabel(self, mapping: Relabel) -> "Message":
        """A new Message with each label replaced by ``mapping(label)``: a label (still a class to
        name), or a ``Message`` or ``str`` (a phrase put in its place, e.g. "the other classes")."""
        return Message(self.template, **{key: _relabel(value, mapping) for key, value in self.args.items()})


def _relabel(value: object, mapping: Relabel) -> object:
    if isinstance(value, Message):
        return value.relabel(mapping)
    if not isinstance(value, Classes):
        return value
    labels: list[Any] = []
    phrases: list[Message | str] = []
    for label in value:
        new = mapping(label)
        (phrases if isinstance(new, str) else labels).append(new)
    items: list[object] = [Classes(*labels)] if labels else []
    items += phrases
    if len(items) == 1:
        return items[0]
    return listing(items)


def listing(items: Iterable[object]) -> Message:
    """A Message naming ``items`` (messages, ``Classes`` or text) as "a, b and c"."""
    given = list(items)
    if not given:
        return Message("")
    message = given[0] if isinstance(given[0], Message) else Message(N_("{name}"), name=given[0])
    for k, item in enumerate(given[1:], start=2):
        template = N_("{names} and {name}") if k == len(given) else N_("{names}, {name}")
        message = Message(template, names=message, name=item)
    return message


def sentences(messages: Iterable[object]) -> Message | None:
    """Messages (or ``None``) said one after another, as one Message; ``None`` when there are none."""
    said = [Message(message) for message in messages if message]
    if not said:
        return None
    text = said[0]
    for message in said[1:]:
        text = Message(N_("{first} {second}"), first=text, second=message)
    return text


def _phrase(template: str, args: dict[str, object], name: LabelNamer, translate: Translate) -> str:
    values: dict[str, object] = {}
    for key, value in args.items():
        if isinstance(value, Classes):
            values[key] = join_names((name(label) for label in value), translate)
        elif isinstance(value, Message):
            values[key] = value.phrase(name, translate)
        elif isinstance(value, PlaygroundError):
            values[key] = value.message.phrase(name, translate)
        else:
            values[key] = value
    return _fill(translate(template), template, **values)


@overload
def phrase(message: None, name: LabelNamer = ..., translate: Translate = ...) -> None: ...
@overload
def phrase(message: "Message | PlaygroundError | str", name: LabelNamer = ..., translate: Translate = ...) -> str: ...
@overload
def phrase(
    message: "Message | PlaygroundError | str | None", name: LabelNamer = ..., translate: Translate = ...
) -> str | None: ...


def phrase(
    message: "Message | PlaygroundError | str | None", name: LabelNamer = label_name, translate: Translate = identity
) -> str | None:
    """``message`` (a Message, an error, a str or None) as text in the language of ``translate``,
    with classes named by ``name``. A plain str is shown as it is."""
    if message is None:
        return None
    if isinstance(message, PlaygroundError):
        message = message.message
    if isinstance(message, Message):
        return message.phrase(name, translate)
    return str(message)


def _restore_error(cls: type["PlaygroundError"], message: Message) -> "PlaygroundError":
    return cls(message)


class PlaygroundError(ValueError):
    """Base class: the fit or the input cannot go ahead; ``str(err)`` says why.

    ``PlaygroundError(template, **args)``: a ``Message``'s template and arguments (or a
    ``Message``, or the older form's parts).
    """

    def __init__(self, template: object = "", /, *parts: object, **args: object) -> None:
        self.message = Message(template, *parts, **args)
        super().__init__(str(self.message))

    def __reduce__(self) -> tuple[Callable[..., "PlaygroundError"], tuple[object, ...]]:
        return (_restore_error, (type(self), self.message))

    def __str__(self) -> str:
        return str(self.message)

    @property
    def labels(self) -> tuple[Any, ...]:
        """The class labels the message names."""
        return self.message.labels

    def phrase(self, name: LabelNamer = label_name, translate: Translate = identity) -> str:
        """The message translated by ``translate``, classes named by ``name(label)``."""
        return self.message.phrase(name, translate)

    def relabel(self, mapping: Relabel, *prefix: object, **args: object) -> Self:
        """The same kind of error with its labels mapped (see ``Message.relabel``).

        ``relabel(mapping, template, **args)`` puts the mapped message inside ``template`` as its
        ``{message}`` (a wrapper naming its sub-problem); ``relabel(mapping, *parts)`` (the older
        form) puts the parts in front of it.
        """
        message = self.message.relabel(mapping)
        if args or (len(prefix) == 1 and isinstance(prefix[0], str) and "{message}" in prefix[0]):
            return type(self)(prefix[0], message=message, **args)
        return type(self)(*prefix, message) if prefix else type(self)(message)


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
