"""What the models share of build123d: a solid standing on z = 0, and its operators'
results typed as what they are here (its stubs give every kind of shape)."""

from __future__ import annotations

from typing import cast

from build123d import Align, Part, Sketch

UP = (Align.CENTER, Align.CENTER, Align.MIN)   # a solid standing on z = 0, centred on x, y


def part(shape) -> Part:
    """A result of build123d's operators on solids: a Part."""
    return cast(Part, shape)


def sketch(shape) -> Sketch:
    """A result of build123d's operators on faces: a Sketch."""
    return cast(Sketch, shape)
