"""Japanese terms: 分散 is variance everywhere, so the broad head role is 広がり; induction
heads are インダクションヘッド (not 帰納); the roles experiment has one name; the offset
sentence of the softmax step says what the offset does."""
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gui.common.i18n import set_language, tr
from gui.common.names import role_names

TS = Path(__file__).parents[3] / "resources" / "i18n" / "attention_lab_ja.ts"


@pytest.fixture
def japanese(qapp):
    set_language("ja")
    yield
    set_language("en")


def messages():
    root = ET.parse(TS).getroot()
    return [(m.find("source").text, m.find("translation").text or "") for m in root.iter("message")]


def test_variance_is_the_only_meaning_of_bunsan():
    for source, translation in messages():
        if "分散" in translation:
            assert "varian" in source.lower() or "Var" in source, source
        assert "帰納" not in translation and "専門化" not in translation, source


def test_role_and_score_names(japanese):
    names = role_names()
    assert names["broad"] == "広がり型" and names["induction"] == "インダクションヘッド"
    assert tr("broad {v}").format(v=1) == "広がり 1"
    assert tr("induction {v}").format(v=1) == "インダクション 1"
    assert "インダクション" in tr("L{layer}·H{head} {role}<br>prev {p:.2f} ind {i:.2f} BOS {b:.2f}")


def test_the_roles_experiment_has_one_name(japanese):
    name = tr("Heads specialise")
    assert name == "ヘッドの役割分化"
    assert tr("Heads specialise (2 layers × 4 heads)").startswith(name)
    for source, translation in messages():
        if "Heads specialise" in source and source != "Heads specialise (2 layers × 4 heads)":
            assert name in translation, source


def test_the_offset_sentence_says_what_the_offset_does(japanese):
    from gui.lessons.steps import step_text

    body = step_text("saturate")[1]
    assert "(入力したスコアになります)" not in body
    assert "オフセットを動かすと、スコアは入力値に切り替わり、すべてのスコアに同じ値が足されます" in body
    assert "それでも p は変わりません" in body
