"""Spin boxes of the control panel that never change a typed value without a word.

Qt puts the last value back, or snaps to an allowed one, when a typed text cannot be
used (temperature 0, h = 7 at d_model = 512). These spin boxes emit a signal when
that happens, and the control panel says why in the status bar:

    ExplainedSpinBox / ExplainedDoubleSpinBox   refused(text): the last value was kept
    StepSpinBox      arrows and the wheel step through a list of values (d_k locked:
                     the divisors of d_model), typed values are free
    HeadsSpinBox     only a list of values (h locked: divisors of d_model; K/V heads:
                     divisors of h); a typed other value snaps to the nearest,
                     snapped(typed, used)
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox

from gui.common.guard import SUPER, guarded
from gui.controls.shape_rules import nearest


def set_spin(spin, value) -> None:
    """setValue only on a change: Qt repaints a spin box on every setValue, even to the
    value it shows, and the controls render the state after every change."""
    if spin.value() != value:
        spin.setValue(value)


def _kept_last_value(spin, text: str, fixed: str) -> bool:
    """Whether Qt will put the last value back: a non-empty text that fixup cannot mend."""
    if not text.strip():
        return False
    return spin.validate(fixed, len(fixed))[0] != QValidator.State.Acceptable


def _explaining(base: type, kind: str) -> type:
    """`base` (a spin box class) emitting refused(text) when a typed text is thrown away."""

    class Explained(base):
        refused = Signal(str)

        @guarded(fallback=SUPER)
        def fixup(self, text: str) -> str:
            fixed = super().fixup(text)
            if _kept_last_value(self, text, fixed):
                self.refused.emit(text)
            return fixed

    Explained.__name__ = Explained.__qualname__ = f"Explained{kind}"
    Explained.__doc__ = f"A {base.__name__} that emits refused(text) when a typed text is thrown away."
    return Explained


ExplainedSpinBox = _explaining(QSpinBox, "SpinBox")
ExplainedDoubleSpinBox = _explaining(QDoubleSpinBox, "DoubleSpinBox")


class StepSpinBox(ExplainedSpinBox):
    """Arrows, Page keys and the wheel step through `steps` when set (else by 1)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._steps: list[int] | None = None

    def set_steps(self, values: list[int] | None) -> None:
        self._steps = values

    @property
    def steps(self) -> list[int] | None:
        return self._steps

    @guarded
    def stepBy(self, steps: int) -> None:
        values = self._steps
        if values is None:
            super().stepBy(steps)
            return
        i = values.index(nearest(values, self.value()))
        self.setValue(values[max(0, min(len(values) - 1, i + steps))])

    @guarded(fallback=SUPER)
    def stepEnabled(self):
        values = self._steps
        if values is None:
            return super().stepEnabled()
        flags = QAbstractSpinBox.StepEnabledFlag.StepNone
        if self.value() > values[0]:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepDownEnabled
        if self.value() < values[-1]:
            flags |= QAbstractSpinBox.StepEnabledFlag.StepUpEnabled
        return flags


class HeadsSpinBox(StepSpinBox):
    """A spin box that steps through, and snaps typed values to, the allowed values.
    snapped(typed, used) says that a typed value was replaced by the nearest allowed one."""

    snapped = Signal(int, int)

    def __init__(self, parent=None, span: tuple[int, int] | None = None):
        """`span`: a fixed range for the box, the allowed values anywhere inside it (else
        the range follows the allowed values). A new range asks the whole control panel for
        a new layout: a box whose allowed values change with every change of h keeps one."""
        super().__init__(parent)
        self._span = span
        self._allowed = [1]
        if span is not None:
            self.setRange(*span)
        self.set_allowed([1])

    @property
    def allowed(self) -> list[int]:
        return self._allowed

    def set_allowed(self, values: list[int]) -> None:
        self._allowed = values
        self.set_steps(values)
        if self._span is None and (self.minimum(), self.maximum()) != (values[0], values[-1]):
            self.setRange(values[0], values[-1])

    @guarded(fallback=SUPER)
    def validate(self, text: str, pos: int):
        """QSpinBox's validation, with group separators refused (QSpinBox reads a pasted
        "10,1,1,1" as 10111 in English and Japanese) and a value that is not allowed only
        Intermediate (fixup() snaps it)."""
        if self.locale().groupSeparator() in text:
            return QValidator.State.Invalid, text, pos
        state, text, pos = super().validate(text, pos)
        if state == QValidator.State.Acceptable and self.valueFromText(text) not in self._allowed:
            state = QValidator.State.Intermediate
        return state, text, pos

    @guarded(fallback=SUPER)
    def fixup(self, text: str) -> str:
        try:
            typed = int(text)
        except ValueError:
            return str(self.value())
        used = nearest(self._allowed, typed)
        if used != typed:
            self.snapped.emit(typed, used)
        return str(used)
