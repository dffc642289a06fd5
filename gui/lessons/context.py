"""What a lesson step's facts are computed from (no Qt).

The window builds one LessonContext each time the lesson text is refreshed and hands it
to the step's `facts(context) -> dict`:

    results      engine Results of the simulation (the current Params), or None
    head_roles   engine.head_roles.HeadsResult on screen in the Head roles tab, or None
    training     experiment name → the last finished engine.training result of that
                 experiment (ScalingResult, RolesResult, HeadsResult); absent = never run
    running      the experiment training now, or None
    real_heads   gui.realheads.study.ModelHeadsResult of the Real heads tab, or None
    minilm_ready True when MiniLM is in the model cache (the Real heads step can run)
    sentence     the sentence the Real heads tab is asked to read now (a result for
                 another sentence is not the one on screen: its numbers are not quoted)

Everything in it is read-only: frozen results and a mapping proxy.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class LessonContext:
    results: Any = None
    head_roles: Any = None
    training: Mapping[str, Any] = field(default_factory=_empty)
    running: str | None = None
    real_heads: Any = None
    minilm_ready: bool = False
    sentence: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.training, MappingProxyType):
            object.__setattr__(self, "training", MappingProxyType(dict(self.training)))

    def trained(self, experiment: str):
        """The last finished result of `experiment` that ran to its end, or None."""
        result = self.training.get(experiment)
        return None if result is None or getattr(result, "stopped", False) else result
