"""engine.presets: the data against the published model shapes."""
import dataclasses

import pytest

from engine import Params, compute
from engine.presets import MODEL_PRESETS, preset_by_name, preset_by_slug


@pytest.mark.parametrize("preset", MODEL_PRESETS, ids=lambda p: p.name)
def test_shapes_are_consistent(preset):
    assert preset.d_model == preset.heads * preset.dk
    assert preset.layers >= 1
    assert 1 <= preset.kv_heads <= preset.heads and preset.heads % preset.kv_heads == 0
    assert preset.attention_layers == (preset.encoder_layers + preset.decoder_layers
                                       + preset.cross_layers)
    assert preset.attention_heads_total == preset.attention_layers * preset.heads
    # Cross-attention exists exactly when there are two stacks, one per decoder layer.
    both = preset.encoder_layers > 0 and preset.decoder_layers > 0
    assert preset.cross_layers == (preset.decoder_layers if both else 0)
    assert preset.cached_layers == preset.decoder_layers
    assert preset_by_name(preset.name) is preset
    assert preset_by_slug(preset.slug) is preset and preset_by_slug(preset.slug.upper()) is preset
    assert preset.slug == preset.name.lower().replace(" ", "-")
    assert preset.source and "20" in preset.source  # names a dated publication
    # Every preset is a valid engine shape, with its K/V heads and cached layers.
    Params(dk=preset.dk, heads=preset.heads, d_model=preset.d_model, kv_heads=preset.kv_heads,
           cached_layers=preset.cached_layers)


def test_names_and_slugs_are_unique():
    for key in ("name", "slug"):
        values = [getattr(p, key) for p in MODEL_PRESETS]
        assert len(values) == len(set(values))


def test_total_heads_against_published_configs():
    # GPT-2 small: 12 layers × 12 heads (Radford et al. 2019, Table 2; released
    # config n_layer = 12, n_head = 12) → 144 attention heads, decoder only.
    assert preset_by_name("GPT-2 small").attention_heads_total == 144
    # GPT-3 175B: n_layers = 96, n_heads = 96, d_model = 12288, d_head = 128
    # (Brown et al. 2020, Table 2.1) → 9216 attention heads.
    gpt3 = preset_by_name("GPT-3 175B")
    assert gpt3.attention_heads_total == 9216
    assert (gpt3.d_model, gpt3.dk) == (12288, 128)
    # Transformer base: d_model 512, h 8, d_k 64 (Vaswani et al. 2017, Table 3); N = 6 per
    # stack: 6 encoder self + 6 decoder self + 6 cross = 18 attention layers × 8 = 144.
    base = preset_by_slug("transformer-base")
    assert (base.d_model, base.heads, base.dk) == (512, 8, 64)
    assert (base.encoder_layers, base.decoder_layers, base.cross_layers) == (6, 6, 6)
    assert base.attention_layers == 18 and base.attention_heads_total == 144
    # Transformer big: h = 16, so 18 × 16 = 288.
    assert preset_by_slug("transformer-big").attention_heads_total == 288
    # BERT base: encoder only, 12 × 12.
    bert = preset_by_slug("bert-base")
    assert (bert.decoder_layers, bert.cross_layers, bert.attention_heads_total) == (0, 0, 144)


def test_new_presets():
    # GPT-2 medium and large: released configs (n_layer, n_embd, n_head) = (24, 1024, 16)
    # and (36, 1280, 20); Mistral 7B (Jiang et al. 2023, Table 1): dim 4096, 32 layers,
    # head_dim 128, 32 heads, 8 K/V heads.
    for slug, shape in (("gpt-2-medium", (24, 1024, 16, 16)), ("gpt-2-large", (36, 1280, 20, 20)),
                        ("mistral-7b", (32, 4096, 32, 8))):
        p = preset_by_slug(slug)
        assert (p.decoder_layers, p.d_model, p.heads, p.kv_heads) == shape


def test_llama_2_70b_through_compute():
    m = preset_by_slug("llama-2-70b")
    r = compute(Params(dk=m.dk, heads=m.heads, d_model=m.d_model, kv_heads=m.kv_heads,
                       cached_layers=m.cached_layers))
    assert r.cost_multi.params == 150_994_944                 # 151 M a layer, not 4d² = 268 M
    assert r.memory.cache_per_token[16] == 320 * 1024          # 320 KiB a token at 16 bits
    assert r.multihead.kv_heads == 8 and m.attention_heads_total == 80 * 64
    mha = dataclasses.replace(r.params, kv_heads=None)
    assert compute(mha).memory.cache_per_token[16] == 8 * 320 * 1024


def test_unknown_name():
    with pytest.raises(KeyError, match="no model preset"):
        preset_by_name("GPT-5")
    with pytest.raises(KeyError, match="no model 'gpt-5'; choose one of transformer-base"):
        preset_by_slug("gpt-5")
