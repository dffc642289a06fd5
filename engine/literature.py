"""Published figures the lesson quotes beside its own runs, as data (the texts format them).

HEAD_PRUNING: how many attention heads three 2019 studies removed, and how.

    Michel, Levy & Neubig 2019, "Are Sixteen Heads Really Better than One?": heads removed
        at test time, no retraining, "without a noticeable" loss: `percent` of the heads of
        a WMT Transformer and of BERT.
    Voita, Talbot, Moiseev, Sennrich & Titov 2019, "Analyzing Multi-Head Self-Attention":
        `pruned` of `heads` encoder heads (WMT English–Russian), removed while training
        with a relaxed L0 penalty, i.e. with retraining.
    Clark, Khandelwal, Levy & Manning 2019, "What Does BERT Look At?": no heads pruned;
        their reading of heavy attention on [SEP] as a "no-op" (a head whose function does
        not apply) is a hypothesis.
"""
from __future__ import annotations

from types import MappingProxyType

HEAD_PRUNING = MappingProxyType({
    "michel": MappingProxyType({"citation": "Michel et al. 2019",
                                "percent": MappingProxyType({"WMT": 20, "BERT": 40}),
                                "retrained": False}),
    "voita": MappingProxyType({"citation": "Voita et al. 2019", "pruned": 38, "heads": 48,
                               "retrained": True}),
    "clark": MappingProxyType({"citation": "Clark et al. 2019", "pruned": 0,
                               "retrained": False}),
})
