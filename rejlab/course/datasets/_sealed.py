"""Test data under seal: released only once the choice made on validation data is on record.

An honest evaluation chooses everything (the rejector, the criterion, the threshold) on
validation data and uses the test data once, for the report (lesson 11; lesson 12 measures
what choosing on the test data costs). :func:`hold_out` splits the data, stratified by class
and seeded, into a development part, given out at once, and a test part kept under seal:
:meth:`HeldOut.seal` records the choice, :meth:`SealedChoice.open` then releases the test
data, and :attr:`HeldOut.events` keeps the order of both, so that a grader can check that
the choice came first and stayed put. The seal keeps an honest analyst honest and makes a
dishonest one visible; it is no lock (the digits are public, and a notebook can reach into
this object: the course's submission scanner flags both in a graded notebook).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ..._constraints import accepts
from ..._kinds import LABELS_1D, OPEN_FRACTION, SAMPLES_2D, SEED

#: Samples and their labels, and how to split them.
_SPLIT = dict(X=SAMPLES_2D, y=LABELS_1D, test_size=OPEN_FRACTION, seed=SEED, same_length=("X", "y"))


def _frozen(a):
    a = np.array(a, copy=True)
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class SealedChoice:
    """A choice on record; :meth:`open` releases the test data it was sealed against."""

    held: "HeldOut"
    choice: MappingProxyType

    def open(self):
        """``(X_test, y_test)``, read-only copies; the opening is recorded in ``events``."""
        return self.held._release(self)


class HeldOut:
    """Data split into a development part (``X_dev``, ``y_dev``) and a sealed test part.

    Attributes
    ----------
    X_dev, y_dev : ndarray (read-only)
        The development part, in the original row order: fit and choose on it.
    n_test : int
        How many samples the sealed test part holds.
    events : tuple
        ``("seal", choice)`` and ``("open", choice)`` entries, in the order they happened.
    choice : mapping or None
        The choice on record (the last one sealed), None before any.
    opened : bool
        Whether the test data were released.
    """

    @accepts(**_SPLIT)
    def __init__(self, X, y, *, test_size, seed):
        # in each class (sorted), round(test_size * count) rows drawn by one seeded generator
        rng = np.random.default_rng(seed)
        classes, codes = np.unique(y, return_inverse=True)
        test = np.zeros(len(y), dtype=bool)
        for k in range(classes.size):
            members = np.flatnonzero(codes == k)
            test[rng.permutation(members)[:int(round(test_size * members.size))]] = True
        if not test.any() or test.all():
            raise ValueError(f"test_size={test_size!r} leaves no test or no development sample "
                             f"among {len(y)}")
        self.X_dev, self.y_dev = _frozen(X[~test]), _frozen(y[~test])
        self._X_test, self._y_test = _frozen(X[test]), _frozen(y[test])
        self.n_test = int(test.sum())
        self._events = []

    @property
    def events(self):
        return tuple(self._events)

    @property
    def opened(self):
        return any(kind == "open" for kind, _ in self._events)

    @property
    def choice(self):
        seals = [c for kind, c in self._events if kind == "seal"]
        return seals[-1] if seals else None

    def seal(self, **choice):
        """Record the choice made on the development data, and return it sealed.

        ``choice``: keyword arguments naming what was chosen (``rejector=``, ``criterion=``,
        ``criterion_options=``, ``threshold=``...), stored as given. Before the test data
        are opened a new seal replaces the old one; after, the choice can no longer change
        (``ValueError``): restart and run everything from the top to choose again.
        """
        if not choice:
            raise ValueError("choice: name what you chose, e.g. seal(rejector=..., "
                             "criterion=..., threshold=...)")
        if self.opened:
            raise ValueError("choice: the test data were already opened, so the choice can "
                             "no longer change (restart and run from the top to choose again)")
        record = MappingProxyType(dict(choice))
        self._events.append(("seal", record))
        return SealedChoice(self, record)

    def _release(self, sealed):
        if sealed.held is not self or sealed.choice is not self.choice:
            raise ValueError("sealed: this is not the choice on record; seal again and open "
                             "the choice seal() returned")
        self._events.append(("open", sealed.choice))
        return self._X_test.copy(), self._y_test.copy()

    def __repr__(self):
        state = "opened" if self.opened else "sealed" if self.choice is not None else "no choice yet"
        return (f"HeldOut({len(self.y_dev)} development samples, {self.n_test} test samples "
                f"under seal: {state})")


@accepts(**_SPLIT)
def hold_out(X, y, *, test_size, seed):
    """Split ``X, y`` into a development part and a test part released only after a choice.

    The test part is ``round(test_size * count)`` samples of each class, drawn with
    ``numpy.random.default_rng(seed)``; the development part is the rest, in the original
    order. Returns a :class:`HeldOut`: ``held.X_dev, held.y_dev`` at once, and
    ``held.seal(**choice).open()`` for the test part, once the choice is on record.

    Examples
    --------
    >>> import numpy as np
    >>> X, y = np.arange(20).reshape(10, 2), np.array([0, 1] * 5)
    >>> held = hold_out(X, y, test_size=0.4, seed=0)
    >>> len(held.y_dev), held.n_test
    (6, 4)
    >>> X_test, y_test = held.seal(rejector="max_probability").open()
    >>> np.bincount(y_test).tolist(), [kind for kind, _ in held.events]
    ([2, 2], ['seal', 'open'])
    """
    return HeldOut(X, y, test_size=test_size, seed=seed)
