"""Read a Hugging Face-layout model folder into numpy arrays and a tokenizer.

A folder holds

    config.json           the architecture (model_type, sizes, LayerNorm eps, activation)
    model.safetensors     the weights, read with safetensors' numpy API (nothing is unpickled)
    tokenizer.json        a `tokenizers` tokenizer; for BERT a WordPiece vocab.txt also works.
                          Optional: without one the model runs on token ids (attentions(model,
                          ids)) and `encode` raises ModelError

Two families are read:

* "bert": BERT and MiniLM (model_type "bert") and DistilBERT ("distilbert"): post-LayerNorm
  encoders, every token sees every token.
* "gpt2": GPT-2 (model_type "gpt2"): a pre-LayerNorm decoder with a causal mask.

Every weight is stored as x @ W + b with x (n, d_model): Hugging Face's `Linear` weights
(out, in) are transposed on load; GPT-2's `Conv1D` weights are already (in, out). All arrays
are float32. Loading is cached per folder (keyed by the folder and the weight file's size and
modification time) so the window can call `load_model` from a worker thread on every request.

Nothing is allocated for a tensor before the header has been checked against config.json: the
header is read on its own (engine.models.header, size-capped); a dry run of the model's builder
on empty arrays lists every tensor it will read and the shape config.json implies; each must be
declared with that shape and a float dtype, and all of them must fit in the computer's memory,
before safetensors reads any. A folder that is the cache folder of a fetched model
(engine.models.fetch) must also pass that cache's pinned-hash check.

A tensor with a NaN or an infinite value (or a float64 value beyond float32's range) is
refused, naming it: its heads would be shown as results.

Every failure is a ModelError with one line: file-system errors name their real reason
("permission denied"), and whatever the safetensors or tokenizers libraries raise (their own
errors, MemoryError, pyo3's PanicException, a BaseException) becomes "... failed (reason)";
only KeyboardInterrupt and SystemExit pass.
"""
from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .failures import PASS_THROUGH, library_reason, os_reason
from .header import HeaderError, TensorInfo, read_header
from .spec import ModelConfig, config_from_json

WEIGHTS = "model.safetensors"
REFUSED_WEIGHTS = ("pytorch_model.bin", "tf_model.h5", "flax_model.msgpack")
#: The safetensors dtypes read (numpy has no bfloat16).
FLOAT_DTYPES = ("F16", "F32", "F64")


class ModelError(Exception):
    """A model folder that cannot be used; the message names the folder and what is wrong."""


class TokenError(ValueError):
    """Input that the model cannot take: empty text, unknown ids, too many tokens."""


@dataclass(frozen=True)
class LayerWeights:
    """One Transformer block; d = d_model, f = feed-forward width.

    w_q, w_k, w_v, w_o (d, d); b_* (d,); w_in (d, f), b_in (f,); w_out (f, d), b_out (d,).
    ln_attn / ln_ffn are (gain, bias) pairs of shape (d,). For "bert" they follow each
    residual sum (post-LN); for "gpt2" they precede each sub-block (pre-LN).
    """

    w_q: np.ndarray
    b_q: np.ndarray
    w_k: np.ndarray
    b_k: np.ndarray
    w_v: np.ndarray
    b_v: np.ndarray
    w_o: np.ndarray
    b_o: np.ndarray
    ln_attn: tuple[np.ndarray, np.ndarray]
    w_in: np.ndarray
    b_in: np.ndarray
    w_out: np.ndarray
    b_out: np.ndarray
    ln_ffn: tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True, eq=False)
class Model:
    """A loaded model: config, embeddings (vocab, d), (positions, d), layers, tokenizer
    (None when the folder has none: token ids work, text does not)."""

    folder: Path
    config: ModelConfig
    word_embeddings: np.ndarray
    position_embeddings: np.ndarray
    token_type_embedding: np.ndarray | None  # (d,): type 0, added to every token (BERT)
    embedding_ln: tuple[np.ndarray, np.ndarray] | None  # BERT's LayerNorm after the embeddings
    layers: tuple[LayerWeights, ...]
    tokenizer: object | None  # tokenizers.Tokenizer, or None

    @property
    def name(self) -> str:
        """The folder's name; for a Hugging Face cache snapshot, the repository (org/name)."""
        if self.folder.parent.name == "snapshots" and self.folder.parent.parent.name.startswith(
                "models--"):
            return self.folder.parent.parent.name[len("models--"):].replace("--", "/")
        return self.folder.name

    def encode(self, text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """Tokens and ids of `text`, with the model's special tokens ([CLS] … [SEP] for BERT)."""
        if self.tokenizer is None:
            raise ModelError(f"{self.name} has no tokenizer ({_tokenizer_files(self.config)} in "
                             f"{self.folder}): it takes token ids, not text")
        if not text.strip():
            raise TokenError("the sentence is empty")
        try:
            enc = self.tokenizer.encode(text)
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # the Rust side, a panic included
            raise ModelError(f"the tokenizer of {self.name} failed on this text "
                             f"({library_reason(exc)})") from None
        ids = tuple(int(i) for i in enc.ids)
        self.check_ids(ids)
        return tuple(enc.tokens), ids

    def unknown_count(self, ids) -> int:
        """How many of `ids` are the tokenizer's unknown token ([UNK] for WordPiece); 0 for a
        tokenizer without one (byte-level BPE, which can spell any text) or no tokenizer."""
        if self.tokenizer is None:
            return 0
        unk = getattr(self.tokenizer.model, "unk_token", None)
        unk_id = None if unk is None else self.tokenizer.token_to_id(unk)
        return 0 if unk_id is None else sum(int(i) == unk_id for i in ids)

    def tokens_for_ids(self, ids) -> tuple[str, ...]:
        """The vocabulary string of each id (no tokenizer run), "<id>" where the vocabulary has
        none or the folder has no tokenizer; raises TokenError for bad ids."""
        ids = tuple(int(i) for i in ids)
        self.check_ids(ids)
        if self.tokenizer is None:
            return tuple(f"<{i}>" for i in ids)
        return tuple(self.tokenizer.id_to_token(i) or f"<{i}>" for i in ids)

    def check_ids(self, ids: tuple[int, ...]) -> None:
        cfg = self.config
        if not ids:
            raise TokenError("no tokens")
        bad = [i for i in ids if not 0 <= i < cfg.vocab_size]
        if bad:
            raise TokenError(f"token id {bad[0]} is outside the vocabulary 0..{cfg.vocab_size - 1}")
        if len(ids) > cfg.max_positions:
            raise TokenError(f"{len(ids)} tokens; {self.name} takes at most {cfg.max_positions}")


_cache: dict[tuple, Model] = {}
_cache_lock = threading.Lock()


def load_model(folder) -> Model:
    """Load (or return the cached) model in `folder`; raises ModelError with one clear message."""
    folder = Path(folder).expanduser()
    try:
        if not folder.is_dir():
            raise ModelError(f"model folder not found: {folder}")
        folder = folder.resolve()
        _check_cached(folder)
        weights = folder / WEIGHTS
        if not weights.is_file():
            refused = [name for name in REFUSED_WEIGHTS if (folder / name).exists()]
            if refused:
                raise ModelError(f"{folder} has {refused[0]} but no {WEIGHTS}; Attention Lab "
                                 f"reads only safetensors and never unpickles a checkpoint")
            if (folder / f"{WEIGHTS}.index.json").exists():
                raise ModelError(f"{folder} holds sharded weights ({WEIGHTS}.index.json); only "
                                 f"a single {WEIGHTS} is supported")
            raise ModelError(f"no {WEIGHTS} in {folder}")
        stat = weights.stat()
    except OSError as exc:
        raise ModelError(f"model folder {folder} cannot be read: {os_reason(exc)}") from None
    key = (str(folder), stat.st_size, stat.st_mtime_ns)
    with _cache_lock:
        model = _cache.get(key)
        if model is None:
            model = _read_model(folder)
            for old in [k for k in _cache if k[0] == key[0]]:
                del _cache[old]
            _cache[key] = model
    return model


def _check_cached(folder: Path) -> None:
    """ModelError when `folder` is a fetched model's cache folder that fails its check."""
    from .fetch import status_of_folder

    status = status_of_folder(folder)
    if status is not None and not status.ok:
        raise ModelError(status.problem())


def read_config(folder: Path) -> ModelConfig:
    """config.json of `folder` as a ModelConfig; raises ModelError."""
    path = folder / "config.json"
    try:
        if not path.is_file():
            raise ModelError(f"no config.json in {folder}")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"config.json in {folder} cannot be read: {os_reason(exc)}") from None
    except UnicodeDecodeError as exc:
        raise ModelError(f"config.json in {folder} is not valid JSON: {exc}") from None
    try:
        raw = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ModelError(f"config.json in {folder} is not valid JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise ModelError(f"config.json in {folder} is not a JSON object")
    try:
        return config_from_json(raw)
    except ValueError as exc:
        raise ModelError(f"config.json in {folder}: {exc}") from None


def _read_model(folder: Path) -> Model:
    config = read_config(folder)
    tokenizer = _read_tokenizer(folder, config)
    path = folder / WEIGHTS
    try:
        header = read_header(path)
    except HeaderError as exc:
        raise ModelError(f"{WEIGHTS} in {folder} is unreadable (truncated or not a safetensors "
                         f"file): {exc}") from None
    except OSError as exc:
        raise ModelError(f"{WEIGHTS} in {folder} cannot be read: {os_reason(exc)}") from None
    prefixes, probe = _PREFIXES[config.model_type]
    prefix = next((p for p in prefixes if p + probe in header), None)
    if prefix is None:
        raise ModelError(f"{WEIGHTS} in {folder} has no {config.model_type} weights "
                         f"(no tensor {probe!r})")
    planned = _plan(config, folder)
    _check_plan(planned, prefix, header, folder)
    return _read_tensors(folder, config, tokenizer, prefix, planned)


def _plan(config: ModelConfig, folder: Path) -> dict[str, tuple[int, ...]]:
    """Every tensor name (without the checkpoint's prefix) the model's builder reads, in order,
    with the shape config.json implies: the builder is run on empty arrays (last axis 0), which
    hold no memory whatever the sizes."""
    planned: dict[str, tuple[int, ...]] = {}

    def record(name: str, *shape: int) -> np.ndarray:
        planned[name] = shape
        return np.empty(shape[:-1] + (0,), dtype=np.float32)

    try:
        _BUILDERS[config.model_type](config, record)
    except (ValueError, OverflowError, MemoryError) as exc:
        raise ModelError(f"config.json in {folder} declares sizes no array can have: "
                         f"{library_reason(exc)}") from None
    return planned


def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _check_plan(planned: dict, prefix: str, header: dict[str, TensorInfo], folder: Path) -> None:
    """ModelError unless every planned tensor is in the header with its planned shape and a
    float dtype, and all of them as float32 (plus the largest one's raw copy and transpose
    while it is converted) fit in the computer's memory."""
    total = peak = 0
    for name, shape in planned.items():
        full = prefix + name
        info = header.get(full)
        if info is None:
            raise ModelError(f"{WEIGHTS} in {folder} lacks tensor {full!r}")
        if info.shape != shape:
            raise ModelError(f"tensor {full!r} in {folder} has shape {info.shape}, "
                             f"config.json implies {shape}")
        if info.dtype not in FLOAT_DTYPES:
            raise ModelError(f"tensor {full!r} in {folder} is {info.dtype}, not float "
                             f"({', '.join(FLOAT_DTYPES)})")
        total += 4 * info.elements
        peak = max(peak, info.nbytes + 4 * info.elements)
    memory = _physical_memory()
    if memory and total + peak > memory:
        raise ModelError(f"{WEIGHTS} in {folder} needs {(total + peak) / 1e9:.1f} GB of memory "
                         f"to load, more than this computer's {memory / 1e9:.1f} GB")


def _read_tensors(folder: Path, config: ModelConfig, tokenizer, prefix: str,
                  planned: dict) -> Model:
    """The model, each tensor read by safetensors once _check_plan has passed it."""
    from safetensors import SafetensorError, safe_open

    path = folder / WEIGHTS
    try:
        with safe_open(str(path), framework="np") as f:

            def get(name: str, *shape: int) -> np.ndarray:
                full = prefix + name
                if planned.get(name) != shape:
                    raise ModelError(f"tensor {full!r} in {folder} was not checked before "
                                     f"reading")
                array = f.get_tensor(full)
                if array.shape != shape:
                    raise ModelError(f"tensor {full!r} in {folder} has shape {array.shape}, "
                                     f"config.json implies {shape}")
                if not np.issubdtype(array.dtype, np.floating):
                    raise ModelError(f"tensor {full!r} in {folder} is {array.dtype}, not float")
                array = np.ascontiguousarray(array, dtype=np.float32)
                finite = np.isfinite(array)
                if not finite.all():
                    bad = int(array.size - np.count_nonzero(finite))
                    values = f"{bad} values that are" if bad > 1 else "1 value that is"
                    raise ModelError(f"tensor {full!r} in {folder} holds {values} not a finite "
                                     f"number (NaN, inf, or too large for float32): the model "
                                     f"cannot be run")
                return array

            parts = _BUILDERS[config.model_type](config, get)
        return Model(folder=folder, config=config, tokenizer=tokenizer, **parts)
    except ModelError:
        raise
    except SafetensorError as exc:
        raise ModelError(f"{WEIGHTS} in {folder} is unreadable (truncated or not a safetensors "
                         f"file): {library_reason(exc)}") from None
    except OSError as exc:
        raise ModelError(f"{WEIGHTS} in {folder} cannot be read: {os_reason(exc)}") from None
    except MemoryError:
        raise ModelError(f"{WEIGHTS} in {folder} does not fit in memory") from None
    except PASS_THROUGH:
        raise
    except BaseException as exc:  # pyo3's PanicException and anything else from the Rust side
        raise ModelError(f"{WEIGHTS} in {folder} cannot be read: the safetensors library "
                         f"failed ({library_reason(exc)})") from None


def _linear(get, name: str, n_in: int, n_out: int):
    """A Hugging Face Linear (weight (out, in)) as (W (in, out), b (out,))."""
    return np.ascontiguousarray(get(name + ".weight", n_out, n_in).T), get(name + ".bias", n_out)


def _norm(get, name: str, d: int):
    return get(name + ".weight", d), get(name + ".bias", d)


@dataclass(frozen=True)
class EncoderNames:
    """Where a BERT-style encoder keeps each weight: the layer prefix (with {i}) and, inside
    a layer, the Linear and LayerNorm names in LayerWeights order."""

    layer: str
    query: str
    key: str
    value: str
    attn_out: str
    attn_norm: str
    ffn_in: str
    ffn_out: str
    out_norm: str
    token_types: bool   # BERT has token_type_embeddings, DistilBERT none


ENCODER_NAMES = {
    "bert": EncoderNames("encoder.layer.{i}.", "attention.self.query", "attention.self.key",
                         "attention.self.value", "attention.output.dense",
                         "attention.output.LayerNorm", "intermediate.dense", "output.dense",
                         "output.LayerNorm", token_types=True),
    "distilbert": EncoderNames("transformer.layer.{i}.", "attention.q_lin", "attention.k_lin",
                               "attention.v_lin", "attention.out_lin", "sa_layer_norm",
                               "ffn.lin1", "ffn.lin2", "output_layer_norm", token_types=False),
}


def _build_encoder(cfg: ModelConfig, get) -> dict:
    """BERT or DistilBERT weights, named by ENCODER_NAMES[cfg.model_type]."""
    names, d, f = ENCODER_NAMES[cfg.model_type], cfg.d_model, cfg.d_ff
    layers = []
    for i in range(cfg.layers):
        p = names.layer.format(i=i)
        w_q, b_q = _linear(get, p + names.query, d, d)
        w_k, b_k = _linear(get, p + names.key, d, d)
        w_v, b_v = _linear(get, p + names.value, d, d)
        w_o, b_o = _linear(get, p + names.attn_out, d, d)
        w_in, b_in = _linear(get, p + names.ffn_in, d, f)
        w_out, b_out = _linear(get, p + names.ffn_out, f, d)
        layers.append(LayerWeights(w_q, b_q, w_k, b_k, w_v, b_v, w_o, b_o,
                                   _norm(get, p + names.attn_norm, d),
                                   w_in, b_in, w_out, b_out, _norm(get, p + names.out_norm, d)))
    token_type = (get("embeddings.token_type_embeddings.weight", cfg.type_vocab_size, d)[0]
                  if names.token_types and cfg.type_vocab_size else None)
    return dict(word_embeddings=get("embeddings.word_embeddings.weight", cfg.vocab_size, d),
                position_embeddings=get("embeddings.position_embeddings.weight",
                                        cfg.max_positions, d),
                token_type_embedding=token_type,
                embedding_ln=_norm(get, "embeddings.LayerNorm", d), layers=tuple(layers))


def _build_gpt2(cfg: ModelConfig, get) -> dict:
    d, f = cfg.d_model, cfg.d_ff
    layers = []
    for i in range(cfg.layers):
        p = f"h.{i}."
        qkv_w, qkv_b = get(p + "attn.c_attn.weight", d, 3 * d), get(p + "attn.c_attn.bias", 3 * d)
        w_q, w_k, w_v = (np.ascontiguousarray(w) for w in np.split(qkv_w, 3, axis=1))
        b_q, b_k, b_v = (np.ascontiguousarray(b) for b in np.split(qkv_b, 3))
        layers.append(LayerWeights(
            w_q, b_q, w_k, b_k, w_v, b_v,
            get(p + "attn.c_proj.weight", d, d), get(p + "attn.c_proj.bias", d),
            _norm(get, p + "ln_1", d),
            get(p + "mlp.c_fc.weight", d, f), get(p + "mlp.c_fc.bias", f),
            get(p + "mlp.c_proj.weight", f, d), get(p + "mlp.c_proj.bias", d),
            _norm(get, p + "ln_2", d)))
    return dict(word_embeddings=get("wte.weight", cfg.vocab_size, d),
                position_embeddings=get("wpe.weight", cfg.max_positions, d),
                token_type_embedding=None, embedding_ln=None, layers=tuple(layers))


#: model_type → (weight-name prefixes tried in order, a tensor every such checkpoint has).
_PREFIXES = {
    "bert": (("", "bert."), "embeddings.word_embeddings.weight"),
    "distilbert": (("", "distilbert."), "embeddings.word_embeddings.weight"),
    "gpt2": (("", "transformer."), "wte.weight"),
}
_BUILDERS = {"bert": _build_encoder, "distilbert": _build_encoder, "gpt2": _build_gpt2}


def _tokenizer_files(config: ModelConfig) -> str:
    return "no tokenizer.json" + (" or vocab.txt" if config.architecture == "bert" else "")


def _read_tokenizer(folder: Path, config: ModelConfig):
    """tokenizer.json, else (BERT) vocab.txt, else None; padding and truncation are switched
    off. A tokenizer file that is there but unusable raises ModelError."""
    tok_json, vocab_txt = folder / "tokenizer.json", folder / "vocab.txt"
    try:
        if tok_json.is_file():
            path = tok_json
        elif vocab_txt.is_file() and config.architecture == "bert":
            path = vocab_txt
        else:
            return None
        with open(path, "rb"):   # an unreadable file's real reason, before tokenizers words it
            pass
    except OSError as exc:
        raise ModelError(f"the tokenizer in {folder} cannot be read: {os_reason(exc)}") from None
    try:
        if path == tok_json:
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(path))
        else:
            from tokenizers import BertWordPieceTokenizer

            tokenizer = BertWordPieceTokenizer(str(path), lowercase=_lowercase(folder))
        tokenizer.no_padding()
        tokenizer.no_truncation()
    except PASS_THROUGH:
        raise
    except BaseException as exc:  # the Rust side: plain Exception for a parse error, or a panic
        raise ModelError(f"{path.name} in {folder} is unreadable: {library_reason(exc)}") from None
    if tokenizer.get_vocab_size() > config.vocab_size:
        raise ModelError(f"the tokenizer in {folder} has {tokenizer.get_vocab_size()} tokens but "
                         f"config.json says vocab_size {config.vocab_size}")
    return tokenizer


def _lowercase(folder: Path) -> bool:
    """tokenizer_config.json's do_lower_case (BERT's default, True, when absent)."""
    path = folder / "tokenizer_config.json"
    try:
        value = json.loads(path.read_text(encoding="utf-8")).get("do_lower_case", True)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
        return True
    return bool(value)


def clear_cache() -> None:
    """Forget every loaded model (tests; or to free memory)."""
    with _cache_lock:
        _cache.clear()


__all__ = ["LayerWeights", "Model", "ModelError", "TokenError", "clear_cache", "load_model",
           "read_config"]
