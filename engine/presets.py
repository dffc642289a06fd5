"""Published model shapes, as data.

Each entry gives d_model, heads h, per-head width d_k, key/value heads (fewer than h
means grouped-query attention), and how many layers of each kind of attention the model
has: self-attention in the encoder stack, self-attention in the decoder stack, and
cross-attention (decoder attending to the encoder, one per decoder layer in an
encoder–decoder model). Every attention layer has h heads, so the model holds
(encoder + decoder + cross layers) × h attention patterns. `source` names where the
numbers come from.
"""
from __future__ import annotations

from dataclasses import dataclass

VASWANI = "Vaswani et al. 2017, Attention Is All You Need, Table 3 and §3.1 (N = 6 per stack)"
BERT = "Devlin et al. 2019, BERT, §3 (L layers, hidden size H, A heads)"
GPT2 = "Radford et al. 2019, GPT-2, Table 2; released config (n_layer, n_embd, n_head)"
GPT3 = "Brown et al. 2020, GPT-3, Table 2.1 (n_layers, d_model, n_heads, d_head)"
LLAMA2 = "Touvron et al. 2023, Llama 2; released params.json (dim, n_layers, n_heads, n_kv_heads)"
MISTRAL = "Jiang et al. 2023, Mistral 7B, Table 1 (dim, n_layers, head_dim, n_heads, n_kv_heads)"


@dataclass(frozen=True)
class ModelPreset:
    name: str
    slug: str
    d_model: int
    heads: int
    dk: int
    kv_heads: int
    encoder_layers: int
    decoder_layers: int
    cross_layers: int
    source: str

    @property
    def layers(self) -> int:
        """Layers per stack as papers quote them: the decoder's, or the encoder's if it has none."""
        return self.decoder_layers or self.encoder_layers

    @property
    def attention_layers(self) -> int:
        """Every attention layer: encoder self + decoder self + cross-attention."""
        return self.encoder_layers + self.decoder_layers + self.cross_layers

    @property
    def attention_heads_total(self) -> int:
        """attention layers × heads: independent attention patterns in the whole model."""
        return self.attention_layers * self.heads

    @property
    def cached_layers(self) -> int:
        """Layers whose keys and values a decoder caches for each generated token: its
        self-attention layers (cross-attention caches the source once; an encoder-only
        model generates nothing and caches none)."""
        return self.decoder_layers


def _decoder_only(name, slug, d_model, heads, dk, layers, kv_heads, source):
    return ModelPreset(name, slug, d_model, heads, dk, kv_heads, 0, layers, 0, source)


def _encoder_only(name, slug, d_model, heads, dk, layers, source):
    return ModelPreset(name, slug, d_model, heads, dk, heads, layers, 0, 0, source)


def _encoder_decoder(name, slug, d_model, heads, dk, layers, source):
    return ModelPreset(name, slug, d_model, heads, dk, heads, layers, layers, layers, source)


MODEL_PRESETS = (
    _encoder_decoder("Transformer base", "transformer-base", 512, 8, 64, 6, VASWANI),
    _encoder_decoder("Transformer big", "transformer-big", 1024, 16, 64, 6, VASWANI),
    _encoder_only("BERT base", "bert-base", 768, 12, 64, 12, BERT),
    _encoder_only("BERT large", "bert-large", 1024, 16, 64, 24, BERT),
    _decoder_only("GPT-2 small", "gpt-2-small", 768, 12, 64, 12, 12, GPT2),
    _decoder_only("GPT-2 medium", "gpt-2-medium", 1024, 16, 64, 24, 16, GPT2),
    _decoder_only("GPT-2 large", "gpt-2-large", 1280, 20, 64, 36, 20, GPT2),
    _decoder_only("GPT-2 XL", "gpt-2-xl", 1600, 25, 64, 48, 25, GPT2),
    _decoder_only("GPT-3 175B", "gpt-3-175b", 12288, 96, 128, 96, 96, GPT3),
    _decoder_only("LLaMA-2 7B", "llama-2-7b", 4096, 32, 128, 32, 32, LLAMA2),
    _decoder_only("LLaMA-2 70B", "llama-2-70b", 8192, 64, 128, 80, 8, LLAMA2),
    _decoder_only("Mistral 7B", "mistral-7b", 4096, 32, 128, 32, 8, MISTRAL),
)


def preset_by_name(name: str) -> ModelPreset:
    for preset in MODEL_PRESETS:
        if preset.name == name:
            return preset
    raise KeyError(f"no model preset named {name!r}")


def preset_by_slug(slug: str) -> ModelPreset:
    """The preset whose slug is `slug` (case-insensitive); KeyError lists the slugs."""
    for preset in MODEL_PRESETS:
        if preset.slug == slug.lower():
            return preset
    raise KeyError(f"no model {slug!r}; choose one of {', '.join(p.slug for p in MODEL_PRESETS)}")
