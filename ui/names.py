"""What classes are called: "class 1" ... "class 6" in the session's language, as the book counts."""

from playground.errors import phrase

from .i18n import _
from .theme import SYMBOL_GLYPHS

N_CLASSES = 6  # the most classes the playground draws (one colour, symbol and name each)


def class_name(label):
    """The name a sentence, legend or table gives the app's class label k (0..5): "class k + 1"."""
    return _("class {number}").format(number=int(label) + 1)


def class_label(k):
    """'● class 1': the symbol and name a legend or widget shows for class index k."""
    return f"{SYMBOL_GLYPHS[k]} {class_name(k)}"


def phrased(message):
    """A back-end ``Message`` (or error, or plain text) in the session's language, its classes named
    from 1 as the book counts; None stays None."""
    return phrase(message, class_name, _)
