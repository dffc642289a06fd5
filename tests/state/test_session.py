"""Session files: round trip of all of AppState, version 1 files, and every malformed file
refused with one message (no Qt)."""
import json
import os

import pytest

from engine import Params
from gui.state import (CostSettings, HeadsInput, ModelViewSettings, SessionError, StateSnapshot,
                       TrainingSettings, ViewSettings, read_session, write_session)
from gui.state.session import MAX_BYTES, VERSION, session_to_dict

FULL = StateSnapshot(params=Params(dk=32, heads=16, d_model=512, seed=7,
                                   scores=(3.0, 1.0, 0.5)),
                     lock_d_model=False, lesson_step=6,
                     view=ViewSettings(theme="dark", text_scale=2.5, presentation=True,
                                       colour_safe=False, language="ja"),
                     heads_input=HeadsInput("猫がマットに座った。", "ja_words", True, 12),
                     training=TrainingSettings("roles", {"steps": 400, "seed": 2}),
                     model_view=ModelViewSettings("minilm", "", 3, 5),
                     cost=CostSettings(kv_bits=4))


def write(tmp_path, data, name="s.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_round_trip_keeps_every_part(tmp_path):
    path = tmp_path / "s.json"
    write_session(FULL, path)
    assert read_session(path) == FULL
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == VERSION == 3
    assert data["cost"] == {"kv_bits": 4}


def test_version_1_files_are_still_read(tmp_path):
    old = {"format": "attention-lab-session", "version": 1,
           "params": Params(dk=128, heads=4, d_model=512).to_dict(),
           "lock_d_model": False, "lesson_step": 3}
    snapshot = read_session(write(tmp_path, old))
    assert snapshot.params == Params(dk=128, heads=4, d_model=512)
    assert snapshot.lock_d_model is False and snapshot.lesson_step == 3
    assert snapshot.view == ViewSettings() and snapshot.heads_input == HeadsInput()


def test_version_2_files_are_still_read_with_the_default_precision(tmp_path):
    data = session_to_dict(FULL)
    data["version"] = 2
    del data["cost"]
    snapshot = read_session(write(tmp_path, data))
    assert snapshot == StateSnapshot(**{**FULL.__dict__, "cost": CostSettings()})
    assert snapshot.cost.kv_bits == 16
    data["cost"] = {"kv_bits": 4}        # version 2 had no cost part: not read from it
    assert read_session(write(tmp_path, data)).cost == CostSettings()


@pytest.mark.parametrize("cost, message", [
    ({"kv_bits": 12}, "one of 32, 16, 8, 4 bits"),
    ({"kv_bits": True}, "one of 32, 16, 8, 4 bits"),
    ({"kv_bits": "16"}, "one of 32, 16, 8, 4 bits"),
    ({"bits": 16}, "unknown cost setting"),
    ([16], "cost must be an object"),
])
def test_bad_precision_is_refused(tmp_path, cost, message):
    data = session_to_dict(FULL)
    data["cost"] = cost
    with pytest.raises(SessionError, match=message):
        read_session(write(tmp_path, data))


def test_params_fields_missing_from_an_old_file_take_their_defaults(tmp_path):
    data = session_to_dict(StateSnapshot())
    del data["params"]["causal"], data["params"]["seq_len"]
    assert read_session(write(tmp_path, data)).params == Params()


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(session_to_dict(FULL)).encode())
    assert read_session(path) == FULL


@pytest.mark.parametrize("text, needle", [
    ('{"format": "something-else", "version": 2}', "not an Attention Lab session"),
    ('{"format": "attention-lab-session", "version": 99, "params": {}}', "newer"),
    ('[1, 2, 3]', "not an Attention Lab session"),
    ('{"format": "attention-lab-session", "version": 2, "params": {"dk": 64}}', "lacks"),
    ('{"format": "attention-lab-session", "version": 2, "params": {"dk": 1' + "0" * 5000
     + ', "heads": 1, "d_model": 64}}', "cannot be read"),
    ("[" * 200_000 + "]" * 200_000, "nests too deeply"),
    ('{"format": "attention-lab-session", "version": 2, "params": {"dk": NaN}}', "not a number"),
    ('{"format": "attention-lab-session", "version": 2, "params": {"dk": 64, "heads": 8, '
     '"d_model": 512}, "view": {"theme": "neon"}}', "invalid view"),
    ('{"format": "attention-lab-session", "version": 2, "params": {"dk": 64, "heads": 8, '
     '"d_model": 512}, "view": {"colour": 1}}', "unknown view"),
    ("not json at all", "not valid JSON"),
    ('{"format": "attention-lab-session", "version": 2, "params": {"dk": 64, "heads": 8, '
     '"d_model": 512, "scores": [1e308, 1e308]}}', "scores"),
    ('{"format": "attention-lab-session", "version": 2, "params": {"dk": 64, "heads": 8, '
     '"d_model": 512, "kv_heads": 3}}', "kv_heads"),
    ('{"format": "attention-lab-session", "version": 2, "params": {"dk": 64, "heads": 8, '
     '"d_model": 512, "scale_by": "moon"}}', "scale_by"),
])
def test_malformed_files_give_one_clear_message(tmp_path, text, needle):
    with pytest.raises(SessionError, match=needle):
        read_session(write(tmp_path, text))


def test_not_utf8(tmp_path):
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"format": "\xe9"}')
    with pytest.raises(SessionError, match="UTF-8"):
        read_session(path)


def test_too_large_a_file_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_BYTES + 10))
    with pytest.raises(SessionError, match="too large"):
        read_session(path)


@pytest.mark.parametrize("special", ["/dev/zero", "folder", "fifo", "", "missing.json"])
def test_only_regular_files_are_read(tmp_path, special):
    if special == "folder":
        special = str(tmp_path)
    elif special == "fifo":
        special = str(tmp_path / "pipe")
        os.mkfifo(special)                       # opening must not block, reading never starts
    elif special == "missing.json":
        special = str(tmp_path / special)
    with pytest.raises(SessionError):
        read_session(special)


def params_file(**params):
    return {"format": "attention-lab-session", "version": 2,
            "params": {**Params().to_dict(), **params}}


def test_round_trip_with_gqa_live_scores_divisor_and_cache(tmp_path):
    p = Params(dk=128, heads=64, d_model=8192, kv_heads=8, live_scores=True, scale_by="d_model",
               cached_layers=80, seed=2**31 - 1)
    path = tmp_path / "s.json"
    write_session(StateSnapshot(params=p, lock_d_model=False, lesson_step=3), path)
    assert read_session(path).params == p
    assert json.loads(path.read_text())["params"]["kv_heads"] == 8


@pytest.mark.parametrize("changes, message", [
    (dict(seed=2**31), "seed must be from 0 to 2147483647"),
    (dict(seed=3_000_000_000), "seed must be from 0 to 2147483647"),
    (dict(kv_heads=3), "kv_heads = 3 does not divide h = 8"),
    (dict(kv_heads=True), "kv_heads must be a whole number"),
    (dict(kv_heads="8"), "kv_heads must be a whole number"),
    (dict(live_scores=1), "live_scores must be true or false"),
    (dict(scale_by="dk"), "scale_by must be one of d_k, d_model"),
    (dict(cached_layers=2.0), "cached_layers must be a whole number"),
    (dict(scores=[1e308, 1e308]), "scores must lie between -1000000 and 1000000"),
])
def test_bad_settings_are_refused(tmp_path, changes, message):
    with pytest.raises(SessionError, match=message):
        read_session(write(tmp_path, params_file(**changes)))


def test_mha_is_written_as_a_number_and_read_as_the_default(tmp_path):
    data = session_to_dict(StateSnapshot())
    assert data["params"]["kv_heads"] == 8
    assert read_session(write(tmp_path, data)).params == Params()
    assert read_session(write(tmp_path, params_file(kv_heads=None))).params == Params()


HUGE = 10 ** 400       # a whole number JSON holds and a float cannot


@pytest.mark.parametrize("part, field, value, needle", [
    ("view", "text_scale", HUGE, "text scale must be a number from 1 to 3"),
    ("view", "text_scale", -HUGE, "text scale must be a number from 1 to 3"),
    ("training", "options", {"lr": HUGE}, "training option 'lr' must be a finite number"),
    ("training", "options", {"steps": -HUGE}, "training option 'steps' must be a finite"),
], ids=["text-scale", "negative-text-scale", "lr", "negative-steps"])
def test_numbers_too_large_for_a_float_are_refused_with_a_message(tmp_path, part, field,
                                                                  value, needle):
    """Issue 32: text_scale = 10⁴⁰⁰ raised a 40-line OverflowError; lr = 10⁴⁰⁰ opened and
    ▶ Start raised it later. Both are refused when the file is read, and the message stays
    short (not 400 digits)."""
    data = session_to_dict(FULL)
    data[part][field] = value
    with pytest.raises(SessionError, match=needle) as caught:
        read_session(write(tmp_path, json.dumps(data)))
    assert len(str(caught.value)) < 200
