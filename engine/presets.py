"""Published model shapes, as data.

Each entry gives d_model, heads h, per-head width d_k, layers and key/value
heads (fewer than h means grouped-query attention). Sources are cited per line.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelPreset:
    name: str
    d_model: int
    heads: int
    dk: int
    layers: int
    kv_heads: int

    @property
    def attention_heads_total(self) -> int:
        """layers × heads: independent attention patterns in the whole model."""
        return self.layers * self.heads


MODEL_PRESETS = (
    # Vaswani et al. 2017, "Attention Is All You Need", Table 3 (base); N = 6 layers per stack.
    ModelPreset("Transformer base", 512, 8, 64, 6, 8),
    # Same table, row "big": d_model 1024, h 16, d_k 64.
    ModelPreset("Transformer big", 1024, 16, 64, 6, 16),
    # Devlin et al. 2019, BERT, §3: L=12, H=768, A=12.
    ModelPreset("BERT base", 768, 12, 64, 12, 12),
    # Same section: L=24, H=1024, A=16.
    ModelPreset("BERT large", 1024, 16, 64, 24, 16),
    # Radford et al. 2019, GPT-2, Table 2 (117M: 12 layers, 768); released config n_head = 12.
    ModelPreset("GPT-2 small", 768, 12, 64, 12, 12),
    # Same table (1542M: 48 layers, 1600); released config n_head = 25.
    ModelPreset("GPT-2 XL", 1600, 25, 64, 48, 25),
    # Brown et al. 2020, GPT-3, Table 2.1: 96 layers, d_model 12288, 96 heads, d_head 128.
    ModelPreset("GPT-3 175B", 12288, 96, 128, 96, 96),
    # Touvron et al. 2023, Llama 2, released params.json: dim 4096, 32 layers, 32 heads.
    ModelPreset("LLaMA-2 7B", 4096, 32, 128, 32, 32),
    # Same source: dim 8192, 80 layers, 64 heads, n_kv_heads 8 (grouped-query attention).
    ModelPreset("LLaMA-2 70B", 8192, 64, 128, 80, 8),
)


def preset_by_name(name: str) -> ModelPreset:
    for preset in MODEL_PRESETS:
        if preset.name == name:
            return preset
    raise KeyError(f"no model preset named {name!r}")
