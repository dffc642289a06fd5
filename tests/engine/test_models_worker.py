"""engine.models.worker: the sentence analysis the Real heads tab shows, and its pipe server."""
import multiprocessing
import pickle
import threading

import numpy as np

from engine.models import head_roles, load_model, run_sentence
from engine.models.worker import SentenceAnalysis, analyse_sentence, answer, serve
from tiny_models import write_bert, write_gpt2
from tolerances import assert_within, row_sum_bound


def test_analysis_is_the_forward_and_the_roles_of_the_model(tmp_path):
    folder = write_bert(tmp_path / "bert", plants={0: "previous", 1: "first"})
    analysis = analyse_sentence(str(folder), "the cat sat on the mat.")
    model = load_model(folder)
    forward = run_sentence(model, "the cat sat on the mat.")
    np.testing.assert_array_equal(analysis.forward.attentions, forward.attentions)
    assert analysis.roles == head_roles(forward, model)
    assert (analysis.layers, analysis.heads, analysis.d_k) == (2, 4, 16)
    assert [analysis.roles[h].role for h in (0, 1)] == ["previous", "first"]
    assert analysis.summary.heads == 8 and analysis.unknown == 0


def test_answers_and_errors_as_messages(tmp_path):
    folder = write_gpt2(tmp_path / "gpt2")
    kind, analysis = pickle.loads(answer(pickle.dumps((str(folder), "a b a b"))))
    assert kind == "ok" and isinstance(analysis, SentenceAnalysis)
    assert analysis.architecture == "gpt2" and analysis.forward.causal
    rows = analysis.forward.attentions.sum(-1)
    assert_within(rows, 1.0, row_sum_bound(rows.shape[-1]), "row sums")  # float32 softmax rows
    kind, message = pickle.loads(answer(pickle.dumps((str(tmp_path / "missing"), "a"))))
    assert kind == "error" and "not found" in message
    kind, message = pickle.loads(answer(b"not a pickle"))
    assert kind == "failed" and message.splitlines()[0].startswith("UnpicklingError")


def test_serve_answers_until_the_connection_ends(tmp_path):
    folder = write_bert(tmp_path / "bert")
    mine, theirs = multiprocessing.Pipe(duplex=True)
    server = threading.Thread(target=serve, args=(theirs, 0))
    server.start()
    for sentence in ("the cat", "the cat sat"):
        mine.send_bytes(pickle.dumps((str(folder), sentence)))
        kind, analysis = pickle.loads(mine.recv_bytes())
        assert kind == "ok" and analysis.forward.tokens[1:-1] == tuple(sentence.split())
    mine.close()
    server.join(5)
    assert not server.is_alive()


def test_a_warm_up_loads_the_model_and_says_only_warm(tmp_path):
    from engine.models import loader

    folder = write_bert(tmp_path / "bert")
    loader.clear_cache()
    assert pickle.loads(answer(pickle.dumps((str(folder), None)))) == ("warm", None)
    assert len(loader._cache) == 1                 # the request after it finds the model
    missing = pickle.loads(answer(pickle.dumps((str(tmp_path / "missing"), None))))
    assert missing == ("warm", None)               # the real request will say why
