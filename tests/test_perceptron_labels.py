"""The perceptron's "update k: xₙ" label sits where the plot's edge cannot cut it off."""

import pytest

from playground.grid import Window
from ui.panels.perceptron import _label_position

WINDOW = Window(-5.0, 5.0, -4.0, 4.0)


@pytest.mark.parametrize(
    "point, position",
    [
        ((0.0, 0.0), "bottom center"),  # the middle: below the ring, as before
        ((0.0, -3.8), "top center"),  # near the bottom edge: above it
        ((4.8, 0.0), "bottom left"),  # near the right edge: towards the middle
        ((-4.8, -3.9), "top right"),  # the bottom-left corner
    ],
)
def test_the_label_turns_away_from_the_nearest_edge(point, position):
    assert _label_position(point, WINDOW) == position
