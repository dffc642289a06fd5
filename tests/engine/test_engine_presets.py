"""engine.presets: the data against the published model shapes."""
import pytest

from engine import Params
from engine.presets import MODEL_PRESETS, preset_by_name


@pytest.mark.parametrize("preset", MODEL_PRESETS, ids=lambda p: p.name)
def test_shapes_are_consistent(preset):
    assert preset.d_model == preset.heads * preset.dk
    assert preset.layers >= 1
    assert 1 <= preset.kv_heads <= preset.heads and preset.heads % preset.kv_heads == 0
    assert preset.attention_heads_total == preset.layers * preset.heads
    assert preset_by_name(preset.name) is preset
    # Every preset is a valid engine shape.
    Params(dk=preset.dk, heads=preset.heads, d_model=preset.d_model)


def test_names_are_unique():
    names = [p.name for p in MODEL_PRESETS]
    assert len(names) == len(set(names))


def test_total_heads_against_published_configs():
    # GPT-2 small: 12 layers × 12 heads (Radford et al. 2019, Table 2; released
    # config n_layer = 12, n_head = 12) → 144 attention heads.
    assert preset_by_name("GPT-2 small").attention_heads_total == 144
    # GPT-3 175B: n_layers = 96, n_heads = 96, d_model = 12288, d_head = 128
    # (Brown et al. 2020, Table 2.1) → 9216 attention heads.
    gpt3 = preset_by_name("GPT-3 175B")
    assert gpt3.attention_heads_total == 9216
    assert (gpt3.d_model, gpt3.dk) == (12288, 128)
    # Transformer base: d_model 512, h 8, d_k 64 (Vaswani et al. 2017, Table 3).
    base = preset_by_name("Transformer base")
    assert (base.d_model, base.heads, base.dk) == (512, 8, 64)


def test_unknown_name():
    with pytest.raises(KeyError, match="no model preset"):
        preset_by_name("GPT-5")
