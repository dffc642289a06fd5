"""Pretrained Transformers read from Hugging Face-layout folders, run in numpy (no PyTorch).

    from engine.models import load_model, attentions, head_roles
    model = load_model(folder)                  # cached per folder; ModelError if unusable
    tokens, ids = model.encode("The cat sat.")  # TokenError for empty / too long input
    result = attentions(model, ids)             # ForwardResult: (L, h, n, n) attention, …
    roles = head_roles(result, model)           # one HeadRole per head
"""
from .catalog import ModelEntry, available_models, hf_cache_dir
from .forward import ForwardResult, attentions, run_sentence
from .loader import Model, ModelError, TokenError, load_model
from .report import result_to_dict
from .roles import HeadRole, RoleSummary, head_roles, repeat_span, roles_of_maps, summarize_roles

__all__ = ["ForwardResult", "HeadRole", "Model", "ModelEntry", "ModelError", "RoleSummary",
           "TokenError", "attentions", "available_models", "head_roles", "hf_cache_dir",
           "load_model", "repeat_span", "result_to_dict", "roles_of_maps", "run_sentence",
           "summarize_roles"]
