"""engine.session: the settings added for GQA, live scores, the divisor and the KV cache,
and the one seed range 0 … 2³¹ − 1."""
import json

import pytest

from engine import Params
from engine.session import (FORMAT, OPTIONAL_SETTINGS, VERSION, Session, SessionError,
                            read_session, session_from_dict, session_to_dict, write_session)


def file_dict(**params):
    return {"format": FORMAT, "version": VERSION, "params": {**Params().to_dict(), **params}}


def test_round_trip_with_new_settings(tmp_path):
    p = Params(dk=128, heads=64, d_model=8192, kv_heads=8, live_scores=True, scale_by="d_model",
               cached_layers=80, seed=2**31 - 1)
    path = tmp_path / "s.json"
    write_session(Session(p, False, 3), path)
    assert read_session(path) == Session(p, False, 3)
    assert json.loads(path.read_text())["params"]["kv_heads"] == 8


def test_older_files_without_the_new_settings_still_load():
    data = file_dict()
    for name in OPTIONAL_SETTINGS:
        del data["params"][name]
    assert session_from_dict(data).params == Params()


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
def test_bad_new_settings_are_refused(changes, message):
    with pytest.raises(SessionError, match=message):
        session_from_dict(file_dict(**changes))


def test_mha_is_written_as_a_number_and_read_as_the_default():
    data = session_to_dict(Session(Params()))
    assert data["params"]["kv_heads"] == 8
    assert session_from_dict(data).params == Params()
    assert session_from_dict(file_dict(kv_heads=None)).params == Params()
