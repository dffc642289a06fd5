"""engine.models.loader: tiny BERT / DistilBERT / GPT-2 folders written here load; broken,
truncated and pickled folders are refused with one clear line each."""
import json
import pickle
import shutil

import numpy as np
import pytest
from tiny_models import POSITIONS, write_bert, write_gpt2

from engine.models import ModelError, TokenError, load_model
from engine.models.loader import clear_cache


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    return {
        "bert": write_bert(root / "bert"),
        "bert_vocab_txt": write_bert(root / "bert_vocab", tokenizer="vocab", prefix="bert."),
        "distilbert": write_bert(root / "distil", distil=True),
        "gpt2": write_gpt2(root / "gpt2", prefix="transformer."),
    }


@pytest.mark.parametrize("name,arch,causal", [("bert", "bert", False),
                                              ("bert_vocab_txt", "bert", False),
                                              ("distilbert", "bert", False),
                                              ("gpt2", "gpt2", True)])
def test_loads_each_family(folders, name, arch, causal):
    model = load_model(folders[name])
    cfg = model.config
    assert (cfg.architecture, cfg.causal, cfg.layers, cfg.heads, cfg.d_model, cfg.d_k) == \
        (arch, causal, 2, 4, 64, 16)
    assert len(model.layers) == 2
    assert model.word_embeddings.shape == (cfg.vocab_size, 64)
    assert model.position_embeddings.shape == (POSITIONS, 64)
    for array in (model.word_embeddings, model.layers[1].w_q, model.layers[0].b_out):
        assert array.dtype == np.float32


def test_bert_tokens_have_cls_and_sep(folders):
    for name in ("bert", "bert_vocab_txt", "distilbert"):
        tokens, ids = load_model(folders[name]).encode("The cat sat on the mat.")
        assert tokens == ("[CLS]", "the", "cat", "sat", "on", "the", "mat", ".", "[SEP]")
        assert ids[0] == 2 and ids[-1] == 3  # positions of [CLS] and [SEP] in the vocab


def test_gpt2_tokens_are_byte_level_bpe(folders):
    model = load_model(folders["gpt2"])
    tokens, ids = model.encode("the cat sat")
    assert tokens == ("the", "Ġcat", "Ġsat")
    assert model.tokens_for_ids(ids) == tokens
    assert model.tokenizer.decode(list(ids)) == "the cat sat"


def test_linear_weights_are_transposed_to_x_at_w(folders):
    from safetensors.numpy import load_file

    raw = load_file(str(folders["bert"] / "model.safetensors"))
    layer = load_model(folders["bert"]).layers[1]
    np.testing.assert_array_equal(layer.w_q, raw["encoder.layer.1.attention.self.query.weight"].T)
    np.testing.assert_array_equal(layer.w_in, raw["encoder.layer.1.intermediate.dense.weight"].T)
    gpt = load_model(folders["gpt2"]).layers[0]
    qkv = load_file(str(folders["gpt2"] / "model.safetensors"))["transformer.h.0.attn.c_attn.weight"]
    np.testing.assert_array_equal(gpt.w_k, qkv[:, 64:128])


def test_loading_is_cached_per_folder_and_refreshed_when_the_weights_change(tmp_path):
    folder = write_bert(tmp_path / "m", seed=1)
    first = load_model(folder)
    assert load_model(folder) is first
    assert load_model(str(folder) + "/") is first
    write_bert(folder, seed=2, layers=3)
    assert load_model(folder).config.layers == 3
    clear_cache()
    assert load_model(folder) is not first


def test_input_errors(folders):
    model = load_model(folders["bert"])
    with pytest.raises(TokenError, match="empty"):
        model.encode("   ")
    with pytest.raises(TokenError, match="at most 16"):
        model.encode("the cat " * 10)
    with pytest.raises(TokenError, match="outside the vocabulary"):
        model.tokens_for_ids([2, model.config.vocab_size, 3])
    with pytest.raises(TokenError, match="outside the vocabulary"):
        model.tokens_for_ids([-1])


# -- refusals ----------------------------------------------------------------------------------

def _copy(folders, tmp_path, name="bert"):
    target = tmp_path / name
    shutil.copytree(folders[name], target)
    return target


def _refused(folder, *fragments):
    with pytest.raises(ModelError) as info:
        load_model(folder)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message
    return message


class _Trap:
    """Unpickling this calls open(path, "w"): proof that a pickle was loaded."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_pytorch_bin_is_refused_and_never_unpickled(folders, tmp_path):
    folder = _copy(folders, tmp_path)
    (folder / "model.safetensors").unlink()
    marker = tmp_path / "unpickled"
    (folder / "pytorch_model.bin").write_bytes(pickle.dumps(_Trap(str(marker))))
    _refused(folder, "pytorch_model.bin", "never unpickles")
    assert not marker.exists()
    pickle.loads((folder / "pytorch_model.bin").read_bytes())  # the trap is real
    assert marker.exists()


def test_truncated_weights(folders, tmp_path):
    folder = _copy(folders, tmp_path)
    path = folder / "model.safetensors"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    _refused(folder, "model.safetensors", "truncated")


def test_garbage_weights(folders, tmp_path):
    folder = _copy(folders, tmp_path)
    (folder / "model.safetensors").write_bytes(b"not a safetensors file")
    _refused(folder, "model.safetensors", "unreadable")


def test_missing_and_misshapen_tensors(folders, tmp_path):
    from safetensors.numpy import load_file, save_file

    folder = _copy(folders, tmp_path)
    path = folder / "model.safetensors"
    tensors = load_file(str(path))
    del tensors["encoder.layer.1.output.dense.bias"]
    save_file(tensors, str(path))
    _refused(folder, "lacks tensor 'encoder.layer.1.output.dense.bias'")
    tensors["encoder.layer.1.output.dense.bias"] = np.zeros(63, np.float32)
    save_file(tensors, str(path))
    _refused(folder, "'encoder.layer.1.output.dense.bias'", "(63,)", "(64,)")


def test_weights_of_another_architecture(folders, tmp_path):
    folder = _copy(folders, tmp_path)
    shutil.copy(folders["gpt2"] / "model.safetensors", folder / "model.safetensors")
    _refused(folder, "no bert weights")


@pytest.mark.parametrize("text,fragment", [
    (None, "no config.json"),
    ("{not json", "not valid JSON"),
    ("[1, 2]", "not a JSON object"),
    ('{"model_type": "llama"}', "model_type 'llama' is not supported"),
])
def test_bad_config(folders, tmp_path, text, fragment):
    folder = _copy(folders, tmp_path)
    if text is None:
        (folder / "config.json").unlink()
    else:
        (folder / "config.json").write_text(text)
    _refused(folder, fragment)


@pytest.mark.parametrize("change,fragment", [
    ({"num_attention_heads": 5}, "not divisible by 5 heads"),
    ({"hidden_act": "swish"}, "hidden_act 'swish' is not supported"),
    ({"num_hidden_layers": "two"}, "num_hidden_layers must be a whole number"),
    ({"layer_norm_eps": -1}, "layer_norm_eps"),
    ({"num_hidden_layers": 3}, "lacks tensor 'encoder.layer.2."),
])
def test_inconsistent_config(folders, tmp_path, change, fragment):
    folder = _copy(folders, tmp_path)
    config = json.loads((folder / "config.json").read_text())
    config.update(change)
    (folder / "config.json").write_text(json.dumps(config))
    _refused(folder, fragment)


def test_broken_tokenizer(folders, tmp_path):
    folder = _copy(folders, tmp_path)
    (folder / "tokenizer.json").write_text('{"version": "1.0", "model": 3}')
    _refused(folder, "tokenizer.json", "unreadable")


@pytest.mark.parametrize("name,files", [("bert", "no tokenizer.json or vocab.txt"),
                                        ("gpt2", "no tokenizer.json in")])
def test_without_a_tokenizer_ids_work_and_text_is_refused(folders, tmp_path, name, files):
    """A folder with only config.json and model.safetensors loads: token ids run as they do
    with the tokenizer; text raises one ModelError line."""
    from engine.models import attentions

    bare = tmp_path / name
    bare.mkdir()
    for file in ("config.json", "model.safetensors"):
        shutil.copy(folders[name] / file, bare / file)
    model = load_model(bare)
    assert model.tokenizer is None
    full = load_model(folders[name])
    _, ids = full.encode("the cat sat on the mat.")
    assert model.tokens_for_ids(ids) == tuple(f"<{i}>" for i in ids)
    assert model.unknown_count(ids) == 0
    np.testing.assert_array_equal(attentions(model, ids).attentions,
                                  attentions(full, ids).attentions)
    with pytest.raises(ModelError) as info:
        model.encode("the cat sat")
    message = str(info.value)
    assert "\n" not in message and files in message and "token ids" in message, message
    with pytest.raises(TokenError, match="outside the vocabulary"):
        model.tokens_for_ids([model.config.vocab_size])


def test_missing_folder_and_sharded_weights(folders, tmp_path):
    _refused(tmp_path / "nowhere", "model folder not found")
    folder = _copy(folders, tmp_path)
    (folder / "model.safetensors").unlink()
    (folder / "model.safetensors.index.json").write_text("{}")
    _refused(folder, "sharded")
    (folder / "model.safetensors.index.json").unlink()
    _refused(folder, "no model.safetensors in")


def test_unknown_count_counts_the_unknown_token(tmp_path):
    from tiny_models import write_bert, write_gpt2

    bert = load_model(write_bert(tmp_path / "bert"))
    tokens, ids = bert.encode("the cat 猫 sat")
    assert "[UNK]" in tokens
    assert bert.unknown_count(ids) == sum(t == "[UNK]" for t in tokens) >= 1
    assert bert.unknown_count(bert.encode("the cat sat")[1]) == 0
    gpt2 = load_model(write_gpt2(tmp_path / "gpt2"))
    assert gpt2.unknown_count(gpt2.encode("the cat sat")[1]) == 0
