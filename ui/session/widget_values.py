"""The widgets' values for a scene's settings: the session-state values that make the method's
hyper-parameter widgets (``ui.widgets.method_params``) return a scene's parameters, used when a
link, a preset or a file loads a scene, with a sentence for every value the widgets cannot show.
How each setting is shown (a checkbox in front of it, a text input, an input per entry) is its
method card's (``ui.methods``).

Rules that hold: every value is checked against its widget's own spec first (the same check a link
and a file get), so a value the widgets cannot show becomes the widget's default; the keys come from
``ui.session.widget_keys``; nothing here draws a widget (it sits below the widgets' layer, so the
session's loading can call it).
"""

from collections.abc import Mapping, Sequence
from typing import Any

from playground import Message
from playground.registry import METHOD_SPECS
from playground.specs import (
    PRIOR_STEP,
    SETTING_NOT_APPLYING,
    SETTING_PROBLEM,
    SETTING_UNKNOWN,
    clean_settings,
)
from ui.methods import CARDS
from ui.text.convention import book_w_init
from ui.text.i18n import N_

from .widget_keys import Widget


def _priors_state(key, priors, present_classes, messages):
    """The prior sliders' values (``key`` their prefix): one per class present, on the sliders' 0.01 steps."""
    if priors is None:
        return {f"{key}_set_priors": False}
    if len(priors) != len(present_classes) or len(present_classes) < 2:
        messages.append(
            Message(
                N_("The priors {priors} do not match the {n} classes present; Nₖ/N from the data is used."),
                priors=_shown(priors),
                n=len(present_classes),
            )
        )
        return {f"{key}_set_priors": False}
    sliders = [min(max(round(float(prior), 2), PRIOR_STEP), 1.0) for prior in priors]
    total = sum(sliders)
    if tuple(round(v / total, 6) for v in sliders) != tuple(priors):
        messages.append(
            Message(
                N_("The priors {priors} were rounded to the sliders' steps of {step:g}: {rounded}."),
                priors=_shown(priors),
                step=PRIOR_STEP,
                rounded=", ".join(f"{v:.2f}" for v in sliders),
            )
        )
    state: dict[str, bool | float] = {f"{key}_set_priors": True}
    state.update({f"{key}_prior_{k}": value for k, value in zip(present_classes, sliders, strict=True)})
    return state


def _shown(values):
    return "(" + ", ".join(f"{v:g}" for v in values) + ")"


def _value_state(widget, control, value, present_classes, messages):
    """Session-state values for one setting ``value`` (already checked against ``widget.spec``),
    shown by ``control`` (its card's, ``ui.methods``)."""
    spec, key = widget
    if spec.kind == "priors":
        return _priors_state(key, value, present_classes, messages)
    state: dict[str, Any] = {}
    if control.toggle:  # a checkbox in front of the setting: checked means None, or unchecked does
        if value is None:
            return {control.toggle.key: control.toggle.checked_means_none}
        state[control.toggle.key] = not control.toggle.checked_means_none
    if control.book_weights:  # a text input in the book's sign (ui.text.convention): "5, -6, 1", blank for zeros
        state[key] = "" if value is None else ", ".join(f"{v:g}" for v in book_w_init(value))
    elif spec.kind == "vector":  # a number input per entry
        state.update({f"{key}{i + 1}": entry for i, entry in enumerate(value)})
    else:
        state[key] = value
    return state


# The app's wording of a setting that cannot be used (see playground.specs), same arguments.
_APP_WORDING = {
    SETTING_PROBLEM: N_("Method parameter {name} = {value} is {problem}; the default ({default}) is used."),
    SETTING_UNKNOWN: N_("Method parameter {name} is unknown and was ignored."),
    SETTING_NOT_APPLYING: N_("Method parameter {name} does not apply to the other settings and was ignored."),
}


def _as_method_parameter(message):
    said = getattr(message, "template", None)
    template = _APP_WORDING.get(said) if isinstance(said, str) else None
    if template is None:
        return message
    args = dict(message.args)
    name = str(args.get("name", ""))
    if len(name) >= 2 and name[0] == name[-1] == "'":
        args["name"] = name[1:-1]
    return Message(template, **args)


def widget_state(
    method: str, params: Mapping[str, Any], present_classes: Sequence[int]
) -> tuple[dict[str, Any], list[Message]]:
    """Session-state values that make the method's widgets (``method_params.method_widgets``) return ``params``.

    Returns (values, messages). Every value is checked against the widget's own spec first (the
    same check a link and a file get), so a value the widgets cannot show becomes the widget's
    default, with a sentence.
    """
    specs = METHOD_SPECS.get(method, ())
    messages: list[Message] = []
    clean, _unused = clean_settings(specs, dict(params), "parameter", "scene", messages)
    # "The scene's parameter 'C' = 7.0 is not ..." as the app's messages write parameters:
    # "Method parameter C = 7.0 is not ...".
    messages = [_as_method_parameter(message) for message in messages]
    values: dict[str, Any] = {}
    card = CARDS.get(method)
    if card is None:
        return values, messages
    for spec in specs:
        key, control = card.widget_key(spec), card.control(spec)
        if spec.name in clean and spec.applies(clean) and key:
            values.update(_value_state(Widget(spec, key), control, clean[spec.name], list(present_classes), messages))
        elif control.toggle and spec.omit_none and spec.applies(clean):  # not set: the checkbox's None state
            values[control.toggle.key] = control.toggle.checked_means_none
    return values, messages
