"""The settings a sidebar widget or a panel shows and a link or a file carries: their ``Spec``.

A ``Spec`` gives a setting's kind, its range or options and its default; a method's specs are on
its card (``playground.card``), the bases' and the panels' in the tables below. The widgets take their
ranges, options and defaults from here, and the link and file readers check every value against
the same ``Spec``, so the two cannot drift: a value no widget can show never reaches one, and what
a link holds is exactly what the widgets would return. Standard library only, plain data: the ui
adds labels, help texts and the widgets' session keys (``ui.session.widget_keys``).

>>> margin = Spec("C", "choice", 1.0, C_VALUES, nullable=True)
>>> params, messages = clean_settings((margin,), {"C": 7.0}, "method parameter")
>>> params, messages[0]
({'C': 1.0}, "The link's method parameter 'C' = 7.0 is not one of the values offered; the default (1.0) is used.")
"""

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard, cast

from .basis import MAX_DEGREE
from .errors import Message
from .i18n import N_
from .scene import MAX_CLASSES, MAX_COORDINATE, snap, source_name
from .validation import MAX_POINTS

_ABSENT = object()  # a setting with no value when its condition does not hold

# The values the sidebar offers (log-spaced where the book's plots sweep a scale).
C_VALUES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
PERCEPTRON_ETAS = (0.01, 0.1, 0.2, 0.5, 1.0, 2.0)
LOGISTIC_STEP_SIZES = (0.001, 0.01, 0.03, 0.1, 0.3, 1.0)
LOGISTIC_L2 = (0.0, 0.001, 0.01, 0.1, 1.0, 10.0)
PRIOR_ALPHAS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
RBF_WIDTHS = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)
RBF_GRID_SIZES = (1, 4, 9, 16, 25, 36, 49, 64, 81, 100)
MAX_SEED = 10_000
MAX_RBF_CENTRES = 100
MAX_POSTERIOR_SAMPLES = 30  # boundaries drawn from the Laplace posterior on the canvas
MAX_WEIGHT_INDEX = MAX_RBF_CENTRES + 2  # w0 (bias), the centres' weights, the two inputs' weights
PRIOR_STEP = 0.01  # the prior sliders' step, and their smallest value


@dataclass(frozen=True)
class Spec:
    """One setting.

    Parameters
    ----------
    name : str
        The constructor argument (or panel option) it sets.
    kind : {"choice", "int", "float", "bool", "vector", "points", "priors"}
        choice: one of ``options``; int / float: a number in [low, high]; vector: ``size`` numbers
        in [low, high]; points: at most ``size`` pairs (x, y) on the point grid; priors: one
        positive number per class present (normalised to sum 1).
    default : object
        What a missing or unusable value becomes.
    options, low, high, size
        The widget's own range.
    when : tuple of (name, value)
        The setting exists only while these earlier settings hold these values.
    otherwise : object
        The value while ``when`` does not hold (absent when not given).
    nullable : bool
        None is a meaningful value (a hard margin, zero initial weights, priors N_k / N).
    omit_none : bool
        None means "not set": the setting is left out.
    wrap : bool
        Float settings taken modulo ``high`` (an angle).
    default_text : str
        How a message names a default of None ("zeros", "Nₖ/N").
    """

    name: str
    kind: str
    default: object = None
    options: tuple[object, ...] = ()
    low: float | None = None
    high: float | None = None
    when: tuple[tuple[str, object], ...] = ()
    otherwise: object = _ABSENT
    size: int | None = None
    nullable: bool = False
    omit_none: bool = False
    wrap: bool = False
    default_text: str = ""

    def applies(self, values: Mapping[str, object]) -> bool:
        return all(values.get(name, _ABSENT) == value for name, value in self.when)

    def clean(self, value: object) -> tuple[object, Message | None]:
        """(the value as the widget holds it, None) or (the default, what was wrong as a phrase)."""
        if value is None and (self.nullable or self.omit_none):
            return None, None
        problem = _PROBLEMS[self.kind](self, value)
        if problem:
            return self.default, problem
        return _NORMALISE[self.kind](self, value), None


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number_problem(value: object, low: float | None, high: float | None) -> Message | None:
    """Why ``value`` is not a finite number in [low, high], or None. Compares before converting:
    an integer with 400 digits does not fit a float."""
    if not _is_number(value):
        return Message(N_("not a number"))
    if isinstance(value, float) and not math.isfinite(value):
        return Message(N_("not a finite number"))
    if (low is not None and value < low) or (high is not None and value > high):
        if low is None:
            return Message(N_("outside ±{high:,g}"), high=high)
        return Message(N_("outside {low:g} to {high:g}"), low=low, high=high)
    return None


def _choice_problem(spec: Spec, value: object) -> Message | None:
    found = _option(spec, value)
    return None if found is not _ABSENT else Message(N_("not one of the values offered"))


def _option(spec: Spec, value: object) -> object:
    """The option equal to ``value`` (so 1 finds 1.0), never matching True to 1 or 1 to '1'."""
    for option in spec.options:
        if type(option) is type(value) or (_is_number(option) and _is_number(value)):
            if option == value:
                return option
    return _ABSENT


def _int_problem(spec: Spec, value: object) -> Message | None:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        return Message(N_("not a whole number"))
    return _number_problem(value, spec.low, spec.high)


def _float_problem(spec: Spec, value: object) -> Message | None:
    if spec.wrap:
        return _number_problem(value, -MAX_COORDINATE, MAX_COORDINATE)
    return _number_problem(value, spec.low, spec.high)


def _bool_problem(spec: Spec, value: object) -> Message | None:
    return None if isinstance(value, bool) else Message(N_("not true or false"))


def _vector_problem(spec: Spec, value: object) -> Message | None:
    if not isinstance(value, list | tuple) or len(value) != spec.size:
        return Message(N_("not a list of {n} numbers"), n=spec.size)
    for item in value:
        problem = _number_problem(item, spec.low, spec.high)
        if problem:
            return Message(N_("a list with an entry that is {problem}"), problem=problem)
    return None


def _points_problem(spec: Spec, value: object) -> Message | None:
    if not isinstance(value, list | tuple) or len(value) > cast(int, spec.size):  # a points spec sets its size
        return Message(N_("not a list of at most {n} points [x, y]"), n=spec.size)
    for pair in value:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            return Message(N_("a list with an entry that is not a point [x, y]"))
        for item in pair:
            problem = _number_problem(item, -MAX_COORDINATE, MAX_COORDINATE)
            if problem:
                return Message(N_("a list of points with a coordinate that is {problem}"), problem=problem)
    return None


def _priors_problem(spec: Spec, value: object) -> Message | None:
    if not isinstance(value, list | tuple) or not 2 <= len(value) <= MAX_CLASSES:
        return Message(N_("not a list of 2 to {n} numbers"), n=MAX_CLASSES)
    for item in value:
        problem = _number_problem(item, None, 1e12)
        if problem:
            return Message(N_("a list with an entry that is {problem}"), problem=problem)
        if _is_number(item) and item <= 0:  # (a number: _number_problem said so)
            return Message(N_("a list with a prior of 0 or less (priors must be positive)"))
    return None


_PROBLEMS: dict[str, Callable[[Spec, object], Message | None]] = {
    "choice": _choice_problem,
    "int": _int_problem,
    "float": _float_problem,
    "bool": _bool_problem,
    "vector": _vector_problem,
    "points": _points_problem,
    "priors": _priors_problem,
}


def _normalised_priors(spec: Spec, value: Sequence[float]) -> tuple[float, ...]:
    total = math.fsum(float(v) for v in value)
    return tuple(round(float(v) / total, 6) for v in value)


# Each normaliser gets a value its kind's check accepted (a number, a list of numbers or of
# points): Any, since the kinds differ and the checks above are what narrow them.
_NORMALISE: dict[str, Callable[[Spec, Any], object]] = {
    "choice": _option,
    "int": lambda spec, value: int(value),
    "float": lambda spec, value: float(value) % cast(float, spec.high) if spec.wrap else float(value),  # wrap sets high
    "bool": lambda spec, value: value,
    "vector": lambda spec, value: tuple(float(v) for v in value),
    "points": lambda spec, value: tuple(map(tuple, snap([[float(x), float(y)] for x, y in value]).tolist())),
    "priors": _normalised_priors,
}


# ---- The tables ---------------------------------------------------------------------------------
# A method's settings are on its card (``playground.card``, the ``specs`` of each estimator module's
# CARD), built from the shared pieces below; ``METHOD_SPECS`` (name -> specs) is a view of the cards.


def priors_spec() -> Spec:
    """The class priors p(C_k) of a generative model (eq. 4.65), Nₖ/N when not set."""
    return Spec("priors", "priors", None, nullable=True, default_text=N_("Nₖ/N from the data"))


def w_init_spec() -> Spec:
    """Initial weights [w0, w1, w2] typed in a text input (the app shows them in the book's sign)."""
    return Spec(
        "w_init",
        "vector",
        None,
        low=-MAX_COORDINATE,
        high=MAX_COORDINATE,
        size=3,
        nullable=True,
        default_text=N_("zeros"),
    )


def iterative_solver_specs() -> tuple[Spec, ...]:
    """IRLS (eq. 4.99) or gradient descent, as logistic, softmax and probit regression offer them."""
    return (
        Spec("solver", "choice", "irls", ("irls", "gd")),
        Spec("max_iter", "int", 100, low=1, high=500, when=(("solver", "irls"),)),
        Spec("max_iter", "int", 1000, low=1, high=5000, when=(("solver", "gd"),)),
        Spec("learning_rate", "choice", 0.1, LOGISTIC_STEP_SIZES, when=(("solver", "gd"),)),
        Spec("l2", "choice", 0.0, LOGISTIC_L2),
    )


def __getattr__(name: str) -> dict[str, tuple[Spec, ...]]:
    """``METHOD_SPECS``: each method's settings, a view of the cards (``playground.registry``),
    made on first use: the registry imports the estimator modules, which import this one."""
    if name == "METHOD_SPECS":
        from .registry import METHOD_SPECS

        return METHOD_SPECS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


BASIS_SPECS = {
    "identity": (),
    "polynomial": (Spec("degree", "int", 2, low=1, high=MAX_DEGREE),),
    "rbf": (
        Spec("placement", "choice", "grid", ("grid", "data", "given")),
        Spec("n_centres", "choice", 9, RBF_GRID_SIZES, when=(("placement", "grid"),)),
        Spec("n_centres", "int", 10, low=1, high=50, when=(("placement", "data"),)),
        Spec("random_state", "int", 0, low=0, high=MAX_SEED, when=(("placement", "data"),)),
        Spec("centres", "points", None, size=MAX_RBF_CENTRES, when=(("placement", "given"),), omit_none=True),
        Spec("width", "choice", 1.0, RBF_WIDTHS),
        Spec("include_input", "bool", False),
    ),
}

# Options the panels keep in st.session_state.panel_options (a link's "po"); the panels read them.
PANEL_SPECS = (
    Spec(
        "fisher_angle", "float", None, low=0.0, high=180.0, wrap=True, nullable=True, default_text=N_("the means line")
    ),
    Spec("fisher_show_direction", "bool", True),
    Spec("geometry", "bool", True),
    Spec("multiclass_overlay", "bool", True),
    Spec("posterior_display", "choice", "regions", ("regions", "posterior")),
    Spec("sigmoid_point", "int", None, low=0, high=MAX_POINTS - 1, nullable=True, default_text=N_("the last point")),
    Spec(
        "equation_point",
        "vector",
        None,
        low=-MAX_COORDINATE,
        high=MAX_COORDINATE,
        size=2,
        nullable=True,
        default_text=N_("the last point"),
    ),
    # Bayesian logistic regression (ui/panels/bayesian.py): the contours, the posterior draws, the
    # two weights of the Laplace ellipse (indices into [w0, w1, ...]; the panel falls back to
    # w1, w2 when the model has fewer weights).
    Spec("bayes_contours", "choice", "both", ("both", "predictive", "map", "none")),
    Spec("bayes_samples", "int", 8, low=0, high=MAX_POSTERIOR_SAMPLES),
    Spec("bayes_seed", "int", 0, low=0, high=MAX_SEED),
    Spec("laplace_i", "int", 1, low=0, high=MAX_WEIGHT_INDEX),
    Spec("laplace_j", "int", 2, low=0, high=MAX_WEIGHT_INDEX),
    # Your line (ui/panels/your_line.py): the points sized by their share of the criterion, at the
    # fit's line or the person's.
    Spec("point_shares", "choice", "off", ("off", "fit", "guess")),
)
PANEL_SPEC = {spec.name: spec for spec in PANEL_SPECS}


def spec_for(specs: Sequence[Spec], name: str, values: Mapping[str, object] | None = None) -> Spec:
    """The spec of ``name`` in ``specs`` that applies given the other ``values`` (the first if None)."""
    matching = [spec for spec in specs if spec.name == name]
    if values is not None:
        matching = [spec for spec in matching if spec.applies(values)] or matching
    return matching[0]


# ---- Reading settings from a link or a file ----------------------------------------------------


def shown(value: object) -> str:
    """A value as a message quotes it: JSON, at most 30 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    if len(text) > 30 and isinstance(value, int) and not isinstance(value, bool):
        return Message(N_("a number with {n:,} digits"), n=len(text.lstrip("-")))
    return text if len(text) <= 30 else text[:29] + "…"


def _name(name: object) -> str:
    """A setting's name as a message quotes it (it may come from a link: short, printable)."""
    text = "".join(c if c.isprintable() else "?" for c in str(name)[:30])
    return f"'{text}'" + ("…" if len(str(name)) > 30 else "")


MAX_REPORTED = 5  # unusable settings reported one by one; the rest are counted

# Where settings come from and what they are, as a message names them (singular, plural).
SETTING_NAMES = {
    "method parameter": (N_("method parameter"), N_("method parameters")),
    "basis parameter": (N_("basis parameter"), N_("basis parameters")),
    "parameter": (N_("parameter"), N_("parameters")),
}


# The sentences of a setting that cannot be used (``ui.widgets.method_params`` words them for the app's own
# widgets, keeping the arguments).
SETTING_PROBLEM = N_("The {source}'s {what} '{name}' = {value} is {problem}; the default ({default}) is used.")
SETTING_UNKNOWN = N_("The {source}'s {what} {name} is unknown and was ignored.")
SETTING_NOT_APPLYING = N_("The {source}'s {what} {name} does not apply to the other settings and was ignored.")


def _setting_names(what: str) -> tuple[Message, Message]:
    singular, plural = SETTING_NAMES.get(what, (str(what), f"{what}s"))
    return Message(singular), Message(plural)


def clean_settings(
    specs: Sequence[Spec], raw: object, what: str, source: str = "link", messages: list[Message] | None = None
) -> tuple[dict[str, Any], list[Message]]:
    """The values of ``specs`` from ``raw`` as the widgets would return them, and sentences.

    Missing settings take their defaults silently; an unusable value takes its default and a
    sentence naming it; names the table does not know, or that do not apply to the other
    settings (a step size with IRLS), are left out with a sentence.

    Parameters
    ----------
    specs : tuple of Spec
    raw : dict
        Parsed JSON (anything else gives the defaults and one sentence).
    what : str
        "method parameter", "basis parameter" or "panel setting", for the sentences.
    source : str
        "link" or "file".
    messages : list or None
        Sentences are appended here, and the list is returned.

    Returns
    -------
    values : dict
    messages : list of str
    """
    messages = [] if messages is None else messages
    place = source_name(source)
    singular, whats = _setting_names(what)
    if not isinstance(raw, dict):
        messages.append(
            Message(N_("The {what} in the {source} are not readable; the defaults are used."), what=whats, source=place)
        )
        raw = {}
    values, problems = _values(specs, raw, place, singular)
    problems += _left_out(specs, raw, values, place, singular)
    messages.extend(problems[:MAX_REPORTED])
    if len(problems) > MAX_REPORTED:
        messages.append(Message(N_("{n:,} more {what} were ignored."), n=len(problems) - MAX_REPORTED, what=whats))
    return values, messages


def _values(
    specs: Sequence[Spec], raw: Mapping[str, object], place: Message, what: Message
) -> tuple[dict[str, Any], list[Message]]:
    """(values, problems): each applying spec's value from ``raw`` (its default when absent or
    unusable, with a sentence for the latter), then the ``otherwise`` of those not applying."""
    values: dict[str, Any] = {}
    problems: list[Message] = []
    for spec in specs:
        if spec.name in values or not spec.applies(values):
            continue
        if spec.name in raw:
            value, problem = spec.clean(raw[spec.name])
            if problem:
                default = Message(spec.default_text) if spec.default_text else shown(spec.default)
                problems.append(
                    Message(
                        SETTING_PROBLEM,
                        source=place,
                        what=what,
                        name=spec.name,
                        value=shown(raw[spec.name]),
                        problem=problem,
                        default=default,
                    )
                )
        else:
            value = spec.default
        if value is None and spec.omit_none:
            continue
        values[spec.name] = value
    for spec in specs:  # settings whose condition does not hold, e.g. no shuffle: seed 0
        if spec.name not in values and spec.otherwise is not _ABSENT:
            values[spec.name] = spec.otherwise
    return values, problems


def _left_out(
    specs: Sequence[Spec], raw: Mapping[str, object], values: Mapping[str, object], place: Message, what: Message
) -> list[Message]:
    """Sentences for the names in ``raw`` that the table does not know or that do not apply."""
    problems: list[Message] = []
    for name, value in raw.items():
        named = [spec for spec in specs if spec.name == name]
        if not named:
            problems.append(
                Message(
                    SETTING_UNKNOWN,
                    source=place,
                    what=what,
                    name=_name(name),
                )
            )
        elif not any(spec.applies(values) for spec in named) and value not in (None, named[0].otherwise):
            problems.append(
                Message(
                    SETTING_NOT_APPLYING,
                    source=place,
                    what=what,
                    name=_name(name),
                )
            )
    return problems


def clean_panel_options(
    raw: object, source: str = "link", messages: list[Message] | None = None
) -> tuple[dict[str, Any], list[Message]]:
    """Panel options from a link or a file: known names with valid values only (defaults are
    left out: a panel falls back to them itself)."""
    messages = [] if messages is None else messages
    place = source_name(source)
    if not isinstance(raw, dict):
        messages.append(
            Message(N_("The {source}'s panel settings are not readable; the defaults are used."), source=place)
        )
        return {}, messages
    kept: dict[str, Any] = {}
    problems: list[Message] = []
    for name, value in raw.items():
        spec = PANEL_SPEC.get(name)
        if spec is None:
            problems.append(
                Message(
                    N_("The {source}'s panel setting {name} is unknown and was ignored."),
                    source=place,
                    name=_name(name),
                )
            )
            continue
        clean, problem = spec.clean(value)
        if problem:
            default = Message(spec.default_text) if spec.default_text else shown(spec.default)
            problems.append(
                Message(
                    N_(
                        "The {source}'s panel setting '{name}' = {value} is {problem}; the default ({default}) is used."
                    ),
                    source=place,
                    name=name,
                    value=shown(value),
                    problem=problem,
                    default=default,
                )
            )
        elif clean is not None:
            kept[name] = clean
    messages.extend(problems[:MAX_REPORTED])
    if len(problems) > MAX_REPORTED:
        messages.append(Message(N_("{n:,} more panel settings were ignored."), n=len(problems) - MAX_REPORTED))
    return kept, messages
