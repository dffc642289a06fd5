"""AppState: intents validate, change one part, and emit only on a change (no Qt)."""
import dataclasses

import pytest

from engine import Params, ParamsError
from gui.state import (AppState, CostSettings, HeadsInput, StateSnapshot, TrainingSettings,
                       ViewSettings)
from gui.state.app_state import StateError, snap_text_scale


def recorder(signal):
    seen = []
    signal.connect(seen.append)
    return seen


def test_defaults_are_the_first_run_window():
    state = AppState()
    assert state.params == Params()
    assert state.lock_d_model is True and state.lesson_step == 0
    assert state.view == ViewSettings() and state.heads_input == HeadsInput()
    assert state.snapshot() == StateSnapshot()


def test_update_params_emits_once_per_change_and_not_for_the_same_value():
    state = AppState()
    seen = recorder(state.events.params)
    state.update_params(dk=128, heads=4)
    state.update_params(dk=128, heads=4)
    assert [p.dk for p in seen] == [128]
    assert state.params.d_model == 512


def test_invalid_params_change_nothing():
    state = AppState()
    seen = recorder(state.events.params)
    with pytest.raises(ParamsError):
        state.update_params(heads=7)
    assert state.params == Params() and seen == []


@pytest.mark.parametrize("changes", [{"theme": "blue"}, {"language": "fr"},
                                     {"presentation": "yes"}, {"text_scale": float("nan")}])
def test_invalid_view_changes_are_refused(changes):
    state = AppState()
    with pytest.raises(StateError):
        state.update_view(**changes)
    assert state.view == ViewSettings()


@pytest.mark.parametrize("scale, snapped", [(0.2, 1.0), (1.1, 1.0), (1.13, 1.25), (2.9, 3.0),
                                            (7, 3.0)])
def test_text_scale_snaps_to_quarters_from_one_to_three(scale, snapped):
    assert snap_text_scale(scale) == snapped
    assert ViewSettings(text_scale=scale).text_scale == snapped


def test_each_part_has_its_own_event():
    state = AppState()
    events = {name: recorder(getattr(state.events, name)) for name in (
        "params", "lock_d_model", "lesson_step", "view", "heads_input", "training", "model_view",
        "cost")}
    state.set_lock_d_model(False)
    state.set_lesson_step(3)
    state.update_heads_input(random_heads=True, seed=9)
    state.set_training(TrainingSettings("roles", {"steps": 300}))
    state.update_model_view(layer=2)
    state.update_cost(kv_bits=8)
    state.update_cost(kv_bits=8)
    assert {k: len(v) for k, v in events.items()} == {
        "params": 0, "lock_d_model": 1, "lesson_step": 1, "view": 0, "heads_input": 1,
        "training": 1, "model_view": 1, "cost": 1}
    assert state.cost == CostSettings(kv_bits=8)
    assert state.training.option("steps") == 300


def test_restore_sets_every_part_and_emits_the_view_first():
    state = AppState()
    order = []
    for name in ("view", "params", "lesson_step", "heads_input"):
        getattr(state.events, name).connect(lambda _v, name=name: order.append(name))
    target = StateSnapshot(params=Params(dk=32, heads=16, d_model=512), lesson_step=4,
                           view=ViewSettings(theme="dark", language="ja"),
                           heads_input=HeadsInput("猫が座った。", "ja_chars"))
    state.restore(target)
    assert state.snapshot() == target
    assert order[0] == "view" and set(order) == {"view", "params", "lesson_step", "heads_input"}


def test_heads_input_is_validated():
    with pytest.raises(StateError):
        HeadsInput(token_mode="klingon")
    with pytest.raises(StateError):
        HeadsInput(seed=-1)
    with pytest.raises(StateError):
        HeadsInput(sentence="x" * 5000)
    assert dataclasses.replace(HeadsInput(), sentence="").sentence == ""


def test_training_options_must_be_plain_json_scalars():
    with pytest.raises(StateError):
        TrainingSettings("scaling", {"dk": [1, 2]})
    with pytest.raises(StateError):
        TrainingSettings("scaling", {"lr": float("inf")})
    assert TrainingSettings("scaling", {"b": 1, "a": 2}).options == (("a", 2), ("b", 1))


def test_kv_precision_is_one_of_the_engine_precisions():
    from engine.cost import PRECISION_BITS

    state = AppState()
    assert state.cost.kv_bits == 16
    for bits in PRECISION_BITS:
        assert state.update_cost(kv_bits=bits).kv_bits == bits
    for bad in (12, 0, True, 16.0, "8"):
        with pytest.raises(StateError, match="KV cache precision"):
            state.update_cost(kv_bits=bad)
    assert state.cost.kv_bits == PRECISION_BITS[-1]   # a refused change changes nothing
    state.restore(StateSnapshot(cost=CostSettings(kv_bits=32)))
    assert state.snapshot().cost.kv_bits == 32
