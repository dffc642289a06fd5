"""Adam (Kingma & Ba 2015) on a dict of numpy arrays, in the arrays' own dtype.

For each parameter θ with gradient g at step t = 1, 2, …:

    m ← β1·m + (1 − β1)·g
    v ← β2·v + (1 − β2)·g²
    θ ← θ − lr · (m / (1 − β1^t)) / (sqrt(v / (1 − β2^t)) + ε)

The bias corrections are Python floats, so a float32 parameter stays float32.
Adam itself draws no random numbers: a seeded initialisation and data stream make the
whole run reproducible.
"""
from __future__ import annotations

import math

import numpy as np


class Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float, beta1: float = 0.9,
                 beta2: float = 0.999, eps: float = 1e-8) -> None:
        self.params = params
        self.lr, self.beta1, self.beta2, self.eps = float(lr), float(beta1), float(beta2), float(eps)
        self.m = {k: np.zeros_like(p) for k, p in params.items()}
        self.v = {k: np.zeros_like(p) for k, p in params.items()}
        self.t = 0
        self.buffers: dict[str, np.ndarray] = {}

    def step(self, grads: dict[str, np.ndarray]) -> None:
        """Update every parameter in place from `grads` (same keys, shapes, dtype)."""
        self.t += 1
        b1, b2 = self.beta1, self.beta2
        # m̂ / (sqrt(v̂) + ε) = m · sqrt(c2) / c1 / (sqrt(v) + ε sqrt(c2)), c_i = 1 − β_i^t:
        # the same update with one pass less over every parameter.
        root_c2 = math.sqrt(1.0 - b2 ** self.t)
        step_size = self.lr * root_c2 / (1.0 - b1 ** self.t)
        eps = self.eps * root_c2
        for name, p in self.params.items():
            g, m, v = grads[name], self.m[name], self.v[name]
            buf = self.buffers.setdefault(name, np.empty_like(p))
            m *= b1
            np.multiply(g, 1.0 - b1, out=buf)
            m += buf
            v *= b2
            np.multiply(g, g, out=buf)
            buf *= 1.0 - b2
            v += buf
            np.sqrt(v, out=buf)
            buf += eps
            np.divide(m, buf, out=buf)
            buf *= step_size
            p -= buf
