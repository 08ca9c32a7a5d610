"""What every method's numpy cell shares: the design matrix, the two-class value, softmax and the
sigmoid as code snippets, settings written as literals (``literal``) and PEP 8's blank lines
(``pep8_spacing``).

Rules: a snippet is code a student reads, in the book's notation, and never imports ``playground``;
``literal`` is the only way a setting enters the code, and it refuses anything but numbers,
booleans, None, tuples of them and the option names of the methods' choice settings
(``playground.specs.METHOD_SPECS``: fixed words, never a visitor's text).
"""

import re

from playground.specs import METHOD_SPECS

DESIGN = '''\
def design(Phi):
    """Phi~ = (1, phi(x)): the dummy input phi_0 = 1 carries the bias w_0."""
    return np.hstack([np.ones((len(Phi), 1)), Phi])
'''

TWO_CLASS_VALUE = '''\
def as_two_columns(y):
    """[y(x), 0]: the largest column is C1 where y(x) >= 0 (eq. 4.4-4.6)."""
    return np.column_stack([y, np.zeros_like(y)])
'''

SOFTMAX = '''\
def softmax(A):
    """p(C_k|x) = exp(a_k) / sum_j exp(a_j) (eq. 4.62), the largest a_k subtracted first."""
    E = np.exp(A - A.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)
'''

SIGMOID = '''\
def sigmoid(a):
    """sigma(a) = 1 / (1 + exp(-a)) (eq. 4.59), written with tanh so that it never overflows."""
    return 0.5 * (1.0 + np.tanh(0.5 * a))
'''


def literal(value: object) -> str:
    """A setting as Python source: numbers, booleans, None and tuples of them only (never text
    but the fixed option names the spec table allows, checked here)."""
    if value is None or isinstance(value, bool | int | float):
        if isinstance(value, float) and value == float("inf"):
            return "np.inf"
        return repr(value)
    if isinstance(value, tuple | list):
        return "(" + "".join(literal(v) + ", " for v in value) + ")"
    if isinstance(value, str) and value in _OPTION_NAMES:
        return repr(value)
    raise ValueError(f"not a setting: {value!r}")


# The words a method's choice setting may hold ("irls", "midpoint", ...): the spec table's own options.
_OPTION_NAMES = frozenset(
    option
    for specs in METHOD_SPECS.values()
    for spec in specs
    if spec.kind == "choice"
    for option in spec.options
    if isinstance(option, str)
)


def pep8_spacing(code: str) -> str:
    """Two blank lines before a top-level ``def`` and after a function's body, never more."""
    out: list[str] = []
    for line in code.strip("\n").split("\n"):
        top_level = line[:1] not in ("", " ", ")", "]", "}", "#")
        previous = next((earlier for earlier in reversed(out) if earlier), "")
        if top_level and out and (line.startswith("def ") or previous.startswith(" ")):
            while out and not out[-1]:
                out.pop()
            out += ["", ""]
        out.append(line)
    return re.sub(r"\n{4,}", "\n\n\n", "\n".join(out)) + "\n"
