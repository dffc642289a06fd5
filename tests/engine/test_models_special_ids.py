"""Special token ids in config.json outside the vocabulary (a small GPT-2 saved by
transformers keeps bos/eos 50256 with a vocabulary of 64): ignored, as transformers runs
the model, and said on stderr, in the GUI's summary and in ModelConfig."""
import json

import pytest
from cli_run import run_here
from tiny_models import write_gpt2

from engine.models import attentions, head_roles, load_model
from engine.models.loader import clear_cache
from engine.models.spec import config_from_json, ignored_ids_note, special_ids_outside


@pytest.fixture(scope="module")
def gpt2_with_default_ids(tmp_path_factory):
    folder = write_gpt2(tmp_path_factory.mktemp("ids") / "gpt2")
    config = json.loads((folder / "config.json").read_text())
    config.update(bos_token_id=50256, eos_token_id=50256)        # transformers' defaults
    (folder / "config.json").write_text(json.dumps(config))
    clear_cache()
    return folder


def test_ids_outside_the_vocabulary_are_listed_in_key_order():
    raw = {"bos_token_id": 50256, "pad_token_id": 3, "eos_token_id": -1, "sep_token_id": True,
           "decoder_start_token_id": None}
    assert special_ids_outside(raw, 64) == (("bos_token_id", 50256), ("eos_token_id", -1))


def test_the_model_runs_as_transformers_runs_it(gpt2_with_default_ids):
    model = load_model(gpt2_with_default_ids)
    cfg = model.config
    assert cfg.bos_token_id is None
    assert cfg.ignored_token_ids == (("bos_token_id", 50256), ("eos_token_id", 50256))
    result = attentions(model, [1, 2, 3, 4])
    roles = head_roles(result, model)                 # the induction test sequence too
    assert len(roles) == cfg.layers * cfg.heads
    assert "bos_token_id 50256, eos_token_id 50256 are outside the vocabulary 0.." \
        in ignored_ids_note(cfg)


def test_an_id_inside_the_vocabulary_is_kept(tmp_path):
    raw = json.loads((write_gpt2(tmp_path / "g") / "config.json").read_text())
    cfg = config_from_json(raw)
    assert cfg.bos_token_id == raw["bos_token_id"] and cfg.ignored_token_ids == ()
    assert ignored_ids_note(cfg) == ""


def test_heads_command_runs_and_says_what_it_ignored(gpt2_with_default_ids):
    proc = run_here("heads", "--model-dir", str(gpt2_with_default_ids), "--sentence",
                    "the cat sat", "--json")
    assert proc.returncode == 0, proc.stderr
    json.loads(proc.stdout)
    assert proc.stderr.strip().splitlines() == [
        "attention-lab: note: bos_token_id 50256, eos_token_id 50256 are outside the "
        f"vocabulary 0..{load_model(gpt2_with_default_ids).config.vocab_size - 1}: "
        "ignored, as transformers does"]
