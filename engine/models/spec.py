"""config.json → ModelConfig, for the supported model types.

    model_type   family   config keys read (Hugging Face names)
    bert         bert     hidden_size, num_attention_heads, num_hidden_layers, intermediate_size,
                          max_position_embeddings, vocab_size, type_vocab_size, layer_norm_eps,
                          hidden_act
    distilbert   bert     dim, n_heads, n_layers, hidden_dim, max_position_embeddings,
                          vocab_size, activation (LayerNorm eps 1e-12, fixed by the architecture)
    gpt2         gpt2     n_embd, n_head, n_layer, n_inner (default 4·n_embd), n_positions,
                          vocab_size, layer_norm_epsilon, activation_function

Anything missing or inconsistent raises ValueError with the key's name.
"""
from __future__ import annotations

from dataclasses import dataclass

#: Hugging Face activation names → the form computed (see forward.activation).
ACTIVATIONS = {
    "gelu": "gelu_erf",
    "gelu_new": "gelu_tanh",
    "gelu_pytorch_tanh": "gelu_tanh",
    "gelu_fast": "gelu_tanh",
    "relu": "relu",
}

FAMILY = {"bert": "bert", "distilbert": "bert", "gpt2": "gpt2"}
SUPPORTED_TYPES = tuple(FAMILY)


@dataclass(frozen=True)
class ModelConfig:
    """Sizes of one model. d_k = d_model / heads."""

    model_type: str  # "bert", "distilbert" or "gpt2"
    architecture: str  # family: "bert" (encoder) or "gpt2" (causal decoder)
    layers: int
    heads: int
    d_model: int
    d_ff: int
    vocab_size: int
    max_positions: int
    layer_norm_eps: float
    activation: str  # a value of ACTIVATIONS
    type_vocab_size: int = 0
    bos_token_id: int | None = None
    #: (key, id) of each special token id in config.json outside 0..vocab_size-1 (a small
    #: GPT-2 saved by transformers keeps bos/eos 50256 with 64 tokens): ignored, as
    #: transformers ignores them when it runs the model; said to the user.
    ignored_token_ids: tuple[tuple[str, int], ...] = ()

    @property
    def d_k(self) -> int:
        return self.d_model // self.heads

    @property
    def causal(self) -> bool:
        return self.architecture == "gpt2"


def _int(raw: dict, key: str, default=None, low: int = 1) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be a whole number, got {value!r}")
    if value < low:
        raise ValueError(f"{key} must be at least {low}, got {value}")
    return value


def _activation(raw: dict, key: str, default: str) -> str:
    name = raw.get(key, default)
    if name not in ACTIVATIONS:
        raise ValueError(f"{key} {name!r} is not supported (supported: {', '.join(ACTIVATIONS)})")
    return ACTIVATIONS[name]


def _eps(raw: dict, key: str, default: float) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
        raise ValueError(f"{key} must be a small positive number, got {value!r}")
    return float(value)


def config_from_json(raw: dict) -> ModelConfig:
    """Parse a config.json dict; raises ValueError naming the bad key."""
    model_type = raw.get("model_type")
    if model_type not in FAMILY:
        raise ValueError(f"model_type {model_type!r} is not supported (supported: "
                         f"{', '.join(SUPPORTED_TYPES)})")
    if model_type == "bert":
        if raw.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"position_embedding_type {raw['position_embedding_type']!r} "
                             f"is not supported (only 'absolute')")
        cfg = dict(layers=_int(raw, "num_hidden_layers"), heads=_int(raw, "num_attention_heads"),
                   d_model=_int(raw, "hidden_size"), d_ff=_int(raw, "intermediate_size"),
                   max_positions=_int(raw, "max_position_embeddings"),
                   layer_norm_eps=_eps(raw, "layer_norm_eps", 1e-12),
                   activation=_activation(raw, "hidden_act", "gelu"),
                   type_vocab_size=_int(raw, "type_vocab_size", 2, low=0))
    elif model_type == "distilbert":
        cfg = dict(layers=_int(raw, "n_layers"), heads=_int(raw, "n_heads"),
                   d_model=_int(raw, "dim"), d_ff=_int(raw, "hidden_dim"),
                   max_positions=_int(raw, "max_position_embeddings"), layer_norm_eps=1e-12,
                   activation=_activation(raw, "activation", "gelu"))
    else:
        if raw.get("scale_attn_by_inverse_layer_idx"):
            raise ValueError("scale_attn_by_inverse_layer_idx is not supported")
        if raw.get("scale_attn_weights", True) is not True:
            raise ValueError("scale_attn_weights false is not supported")
        d_model = _int(raw, "n_embd")
        n_inner = raw.get("n_inner")
        cfg = dict(layers=_int(raw, "n_layer"), heads=_int(raw, "n_head"), d_model=d_model,
                   d_ff=4 * d_model if n_inner is None else _int(raw, "n_inner"),
                   max_positions=_int(raw, "n_positions", raw.get("n_ctx")),
                   layer_norm_eps=_eps(raw, "layer_norm_epsilon", 1e-5),
                   activation=_activation(raw, "activation_function", "gelu_new"))
    vocab_size = _int(raw, "vocab_size")
    ignored = special_ids_outside(raw, vocab_size)
    if model_type == "gpt2":
        bos = raw.get("bos_token_id")
        usable = isinstance(bos, int) and not isinstance(bos, bool) and 0 <= bos < vocab_size
        cfg["bos_token_id"] = bos if usable else None
    if cfg["d_model"] % cfg["heads"]:
        raise ValueError(f"the model width {cfg['d_model']} is not divisible by "
                         f"{cfg['heads']} heads")
    return ModelConfig(model_type=model_type, architecture=FAMILY[model_type],
                       vocab_size=vocab_size, ignored_token_ids=ignored, **cfg)


def special_ids_outside(raw: dict, vocab_size: int) -> tuple[tuple[str, int], ...]:
    """(key, id) of each whole-number "…_token_id" of config.json outside 0..vocab_size-1,
    in key order.

    >>> special_ids_outside({"bos_token_id": 50256, "eos_token_id": 50256,
    ...                      "pad_token_id": 0, "vocab_size": 64}, 64)
    (('bos_token_id', 50256), ('eos_token_id', 50256))
    """
    return tuple((key, value) for key, value in sorted(raw.items())
                 if key.endswith("_token_id") and isinstance(value, int)
                 and not isinstance(value, bool) and not 0 <= value < vocab_size)


def ignored_ids_note(cfg: ModelConfig) -> str:
    """One English line for the command line ("" when nothing was ignored).

    >>> ignored_ids_note(ModelConfig("gpt2", "gpt2", 2, 2, 8, 32, 64, 16, 1e-5, "gelu_new",
    ...                              ignored_token_ids=(("bos_token_id", 50256),)))
    'bos_token_id 50256 is outside the vocabulary 0..63: ignored, as transformers does'
    """
    if not cfg.ignored_token_ids:
        return ""
    ids = ", ".join(f"{key} {value}" for key, value in cfg.ignored_token_ids)
    verb = "is" if len(cfg.ignored_token_ids) == 1 else "are"
    return (f"{ids} {verb} outside the vocabulary 0..{cfg.vocab_size - 1}: ignored, "
            f"as transformers does")
