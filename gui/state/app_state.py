"""AppState: the one place the window's settings live (no Qt).

Every part is an immutable value replaced wholesale by an intent method, which
validates the new value and emits the matching psygnal signal only on a change:

    params       engine Params (d_k, h, d_model, scores, …)      events.params(Params)
    lock_d_model keep d_model fixed while h or d_k move            events.lock_d_model(bool)
    lesson_step  0-based step of the guided lesson                 events.lesson_step(int)
    view         theme, text scale, presentation, palette, language events.view(ViewSettings)
    heads_input  the head-roles sentence, token mode, random heads  events.heads_input(HeadsInput)
    training     the training lab's run settings                   events.training(TrainingSettings)
    model_view   the pretrained-model view's choice                 events.model_view(ModelViewSettings)
    cost         the cost panel's KV-cache precision                events.cost(CostSettings)

Callbacks run synchronously on the caller's thread; the window calls intents on
the GUI thread only.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from psygnal import Signal, SignalGroup

from engine import Params, ParamsError
from engine.cost import PRECISION_BITS
from engine.head_roles import MODES

THEMES = ("light", "dark")
#: The languages the app speaks: code → the language's own name (its menu entry).
LANGUAGES = {"en": "English", "ja": "日本語"}
TEXT_SCALE_MIN, TEXT_SCALE_MAX, TEXT_SCALE_STEP = 1.0, 3.0, 0.25
SENTENCE_MAX_CHARS = 2000
HEADS_SEED_MAX = 2**31 - 1
LESSON_STEP_MAX = 999
EXPORT_SCALES = (1, 2, 4)

DEFAULT_SENTENCES = {
    "en": "The cat sat on the mat because it was warm.",
    "ja": "猫がマットに座った。それは暖かかった。",
}
#: The token mode of each language's default sentence.
DEFAULT_TOKEN_MODES = {"en": "en", "ja": "ja_words"}


class StateError(ValueError):
    """A setting is out of range; the message names it and the allowed values."""


def _check_choice(name: str, value, choices) -> str:
    if not isinstance(value, str) or value not in choices:
        raise StateError(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def _check_bool(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise StateError(f"{name} must be true or false, got {value!r}")
    return value


def _check_int(name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StateError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    return value


#: Presentation mode never shows text smaller than this scale (a projector at 100 % text
#: gets 140 %); at larger text sizes it shows the size chosen, so that 300 % on a 1280×720
#: projector still leaves the figure its room.
PRESENTATION_MIN_SCALE = 1.4


def shown_text_scale(text_scale: float, presentation: bool) -> float:
    """The scale text is drawn at: `text_scale`, raised to PRESENTATION_MIN_SCALE in
    presentation mode."""
    return max(text_scale, PRESENTATION_MIN_SCALE) if presentation else text_scale


def _finite(value) -> bool:
    """A finite number a float can hold (a whole number of 400 digits is not one)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _short(value) -> str:
    """`value` for a message: at most 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}… ({len(text)} characters)"


def snap_text_scale(scale: float) -> float:
    """Text scale clamped to 1…3 and rounded to the nearest quarter."""
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not _finite(scale):
        raise StateError(f"text scale must be a number from 1 to 3, got {_short(scale)}")
    return max(TEXT_SCALE_MIN, min(TEXT_SCALE_MAX, round(scale / TEXT_SCALE_STEP) * TEXT_SCALE_STEP))


@dataclass(frozen=True)
class ViewSettings:
    """How the window looks: none of it changes a number."""

    theme: str = "light"
    text_scale: float = 1.0
    presentation: bool = False
    colour_safe: bool = True
    language: str = "en"
    export_scale: int = 1          # PNG export and Copy at 1, 2 or 4 × the size on screen

    def __post_init__(self) -> None:
        _check_choice("theme", self.theme, THEMES)
        object.__setattr__(self, "text_scale", snap_text_scale(self.text_scale))
        _check_bool("presentation", self.presentation)
        _check_bool("colour_safe", self.colour_safe)
        _check_choice("language", self.language, LANGUAGES)
        if self.export_scale not in EXPORT_SCALES or isinstance(self.export_scale, bool):
            raise StateError(f"export scale must be one of 1, 2, 4, got {self.export_scale!r}")

    @property
    def dark(self) -> bool:
        return self.theme == "dark"

    @property
    def shown_scale(self) -> float:
        """The scale text is drawn at (shown_text_scale)."""
        return shown_text_scale(self.text_scale, self.presentation)


@dataclass(frozen=True)
class HeadsInput:
    """The head-roles study's input: a sentence, how to split it, and which heads."""

    sentence: str = DEFAULT_SENTENCES["en"]
    token_mode: str = "en"
    random_heads: bool = False
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.sentence, str) or len(self.sentence) > SENTENCE_MAX_CHARS:
            raise StateError(f"the sentence must be text of at most {SENTENCE_MAX_CHARS} characters")
        _check_choice("token mode", self.token_mode, MODES)
        _check_bool("random heads", self.random_heads)
        _check_int("heads seed", self.seed, 0, HEADS_SEED_MAX)


@dataclass(frozen=True)
class TrainingSettings:
    """The training lab's run settings (experiment name and its options as JSON-ready data)."""

    experiment: str = "scaling"
    options: tuple = ()   # sorted (key, value) pairs of JSON scalars

    def __post_init__(self) -> None:
        if not isinstance(self.experiment, str) or not self.experiment.isidentifier():
            raise StateError(f"training experiment must be a name, got {self.experiment!r}")
        items = dict(self.options).items() if not isinstance(self.options, dict) \
            else self.options.items()
        for key, value in items:
            if not isinstance(key, str) or not (value is None or isinstance(
                    value, (bool, int, float, str))):
                raise StateError(f"training option {key!r} must be a number, text or flag")
            if isinstance(value, (int, float)) and not isinstance(value, bool) and \
                    not _finite(value):
                raise StateError(f"training option {key!r} must be a finite number, got "
                                 f"{_short(value)}")
        object.__setattr__(self, "options", tuple(sorted(items)))

    def option(self, key: str, default=None):
        return dict(self.options).get(key, default)


@dataclass(frozen=True)
class ModelViewSettings:
    """The pretrained-model view's choice: a model name or folder, and the head in focus."""

    model: str = "minilm"
    model_dir: str = ""
    layer: int = 0
    head: int = 0

    def __post_init__(self) -> None:
        for name in ("model", "model_dir"):
            value = getattr(self, name)
            if not isinstance(value, str) or len(value) > 4096:
                raise StateError(f"{name} must be text of at most 4096 characters")
        _check_int("layer", self.layer, 0, 999)
        _check_int("head", self.head, 0, 999)


@dataclass(frozen=True)
class CostSettings:
    """The cost panel's choice: bits per stored key and value for the KV-cache and
    score-memory figures. Results hold the bytes at every precision in PRECISION_BITS;
    this picks the one shown (Params, and so `report`, do not depend on it)."""

    kv_bits: int = 16

    def __post_init__(self) -> None:
        if type(self.kv_bits) is not int or self.kv_bits not in PRECISION_BITS:
            raise StateError(f"KV cache precision must be one of "
                             f"{', '.join(map(str, PRECISION_BITS))} bits, got {self.kv_bits!r}")


@dataclass(frozen=True)
class StateSnapshot:
    """All of AppState at one moment: what a session file holds."""

    params: Params = Params()
    lock_d_model: bool = True
    lesson_step: int = 0
    view: ViewSettings = ViewSettings()
    heads_input: HeadsInput = HeadsInput()
    training: TrainingSettings = TrainingSettings()
    model_view: ModelViewSettings = ModelViewSettings()
    cost: CostSettings = CostSettings()

    def __post_init__(self) -> None:
        if not isinstance(self.params, Params):
            raise StateError("params must be engine Params")
        _check_bool("lock_d_model", self.lock_d_model)
        _check_int("lesson_step", self.lesson_step, 0, LESSON_STEP_MAX)
        for name, kind in (("view", ViewSettings), ("heads_input", HeadsInput),
                           ("training", TrainingSettings), ("model_view", ModelViewSettings),
                           ("cost", CostSettings)):
            if not isinstance(getattr(self, name), kind):
                raise StateError(f"{name} must be a {kind.__name__}")


PARTS = tuple(f.name for f in dataclasses.fields(StateSnapshot))


class StateEvents(SignalGroup):
    params = Signal(object)
    lock_d_model = Signal(bool)
    lesson_step = Signal(int)
    view = Signal(object)
    heads_input = Signal(object)
    training = Signal(object)
    model_view = Signal(object)
    cost = Signal(object)


class AppState:
    """The window's settings, one immutable value per part (see the module docstring)."""

    def __init__(self, snapshot: StateSnapshot | None = None):
        self.events = StateEvents()
        snapshot = snapshot or StateSnapshot()
        self._values = {name: getattr(snapshot, name) for name in PARTS}

    # -- reading -------------------------------------------------------------
    @property
    def params(self) -> Params:
        return self._values["params"]

    @property
    def lock_d_model(self) -> bool:
        return self._values["lock_d_model"]

    @property
    def lesson_step(self) -> int:
        return self._values["lesson_step"]

    @property
    def view(self) -> ViewSettings:
        return self._values["view"]

    @property
    def heads_input(self) -> HeadsInput:
        return self._values["heads_input"]

    @property
    def training(self) -> TrainingSettings:
        return self._values["training"]

    @property
    def model_view(self) -> ModelViewSettings:
        return self._values["model_view"]

    @property
    def cost(self) -> CostSettings:
        return self._values["cost"]

    def snapshot(self) -> StateSnapshot:
        return StateSnapshot(**self._values)

    # -- intents -------------------------------------------------------------
    def _set(self, name: str, value) -> bool:
        if value == self._values[name]:
            return False
        self._values[name] = value
        getattr(self.events, name).emit(value)
        return True

    def set_params(self, params: Params) -> bool:
        if not isinstance(params, Params):
            raise StateError("params must be engine Params")
        return self._set("params", params)

    def update_params(self, **changes) -> Params:
        """Replace some Params fields; raises ParamsError and changes nothing if invalid."""
        params = dataclasses.replace(self.params, **changes)
        self._set("params", params)
        return params

    def set_lock_d_model(self, locked: bool) -> bool:
        return self._set("lock_d_model", _check_bool("lock_d_model", locked))

    def set_lesson_step(self, step: int) -> bool:
        return self._set("lesson_step", _check_int("lesson_step", step, 0, LESSON_STEP_MAX))

    def update_view(self, **changes) -> ViewSettings:
        view = dataclasses.replace(self.view, **changes)
        self._set("view", view)
        return view

    def update_heads_input(self, **changes) -> HeadsInput:
        heads = dataclasses.replace(self.heads_input, **changes)
        self._set("heads_input", heads)
        return heads

    def set_training(self, training: TrainingSettings) -> bool:
        if not isinstance(training, TrainingSettings):
            raise StateError("training must be TrainingSettings")
        return self._set("training", training)

    def update_model_view(self, **changes) -> ModelViewSettings:
        model_view = dataclasses.replace(self.model_view, **changes)
        self._set("model_view", model_view)
        return model_view

    def update_cost(self, **changes) -> CostSettings:
        cost = dataclasses.replace(self.cost, **changes)
        self._set("cost", cost)
        return cost

    def restore(self, snapshot: StateSnapshot) -> None:
        """Take every part from `snapshot` (a loaded session); each changed part is emitted,
        the view first so that texts are in the right language when numbers arrive."""
        if not isinstance(snapshot, StateSnapshot):
            raise StateError("restore needs a StateSnapshot")
        for name in ("view", "lock_d_model", "lesson_step", "heads_input", "training",
                     "model_view", "cost", "params"):
            self._set(name, getattr(snapshot, name))


__all__ = ["AppState", "CostSettings", "DEFAULT_SENTENCES", "DEFAULT_TOKEN_MODES", "HeadsInput", "LANGUAGES",
           "ModelViewSettings", "ParamsError", "StateError", "StateSnapshot", "TrainingSettings",
           "ViewSettings", "snap_text_scale"]
