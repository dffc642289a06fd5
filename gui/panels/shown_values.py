"""ShownValues: what a panel last gave its items, kept without keeping the items alive.

A panel skips setText / setTicks / a title's layout when the value is the one it last gave
(Plot._shown, Plot._titles_shown). Keyed by the items themselves, that memory kept every
item a view ever made: the Training lab's heads view makes new titles on each rebuild (a
language, theme or presentation change), and each old title, with its text document and
layout, stayed alive through its key (about 1.5 titles an action in long use, the soak's
memory growth). Here an item's entries go when the item dies.

Keys are an item, (item, what), or a plain value (a str): only the item is held weakly.
"""
from __future__ import annotations

import weakref

_MISSING = object()


class ShownValues:
    """A dict-like map (get, [] =, pop) from item or (item, what) to the value last shown.

    >>> class Item: pass
    >>> shown, item = ShownValues(), Item()
    >>> shown[item, "text"] = "hello"; shown["scale"] = 0.5
    >>> shown.get((item, "text")), shown.get("scale"), len(shown)
    ('hello', 0.5, 2)
    >>> del item                      # the item's entries go with it
    >>> len(shown)
    1
    """

    def __init__(self):
        self._values: dict = {}
        self._refs: dict[int, weakref.ref] = {}

    def __len__(self) -> int:
        return len(self._values)

    def _key(self, key):
        item, what = (key if isinstance(key, tuple) and len(key) == 2 else (key, _MISSING))
        if isinstance(item, (str, int, float, bytes, type(None))):
            return key
        ident = id(item)
        if ident not in self._refs:
            try:
                self._refs[ident] = weakref.ref(item, lambda _ref, i=ident: self._forget(i))
            except TypeError:            # not weakly referable: kept, as a dict would
                return key
        return (ident, what)

    def _forget(self, ident: int) -> None:
        self._refs.pop(ident, None)
        for key in [k for k in self._values if isinstance(k, tuple) and k[0] == ident]:
            del self._values[key]

    def get(self, key, default=None):
        return self._values.get(self._key(key), default)

    def __setitem__(self, key, value) -> None:
        self._values[self._key(key)] = value

    def pop(self, key, default=None):
        return self._values.pop(self._key(key), default)
