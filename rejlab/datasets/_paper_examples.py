"""The worked examples of the neighborhood-system paper as data (one source for tests and notebooks).

U = {a, b, c, d, e, f, g}; blocks in subscript order (``ideal[0]`` is P_1). The
numbers the paper states sit beside the data (``paper``), never computed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .._constraints import accepts
from .._kinds import integer
from .._sets import ElementSet

__all__ = ["PaperExample", "Table1", "PAPER_U", "definition3_covering", "equal_blocks_covering",
           "paper_example", "table1"]

#: The sample space of every example of the neighborhood-system paper.
PAPER_U = ElementSet("abcdefg")


def _blocks(*blocks):
    return tuple(ElementSet(b) for b in blocks)


@dataclass(frozen=True)
class PaperExample:
    """One worked example of Section 4: an ideal result and one or two methods.

    ``paper`` maps the stated quantities ("AA_1", "RAR_1", "T1_1", "T2_1",
    "AA_2", ...; suffix = method) to the values the paper prints.
    """

    number: int
    section: str
    U: ElementSet
    ideal: tuple
    method_1: tuple
    method_2: tuple = None
    paper: dict = field(default_factory=dict)


def definition3_covering():
    """The covering of the example after Definition 3: ``({b,c,d}, {a,e,f}, {a,d,g})``.

    The paper states ``Q_NS(a) = {2, 3}``, ``Q_NS(c) = {1}``, ``Q_NS(d) = {1, 3}``.

    >>> import rejlab as rl
    >>> rl.datasets.definition3_covering()
    ({'b', 'c', 'd'}, {'a', 'e', 'f'}, {'a', 'd', 'g'})
    """
    return _blocks("bcd", "aef", "adg")


def equal_blocks_covering():
    """A covering with two equal blocks, where the paper's Theorem fails.

    N(a) = {a, b} equals two blocks and is no *proper* subset of any: the
    Theorem's construction misses a although a lies in two blocks.

    >>> import rejlab as rl
    >>> rl.datasets.equal_blocks_covering()
    ({'a', 'b'}, {'a', 'b'}, {'b', 'c', 'd'}, {'e'})
    """
    return _blocks("ab", "ab", "bcd", "e")


_P_PARTITION = ("bcd", "ef", "ag")
_P_COVERING = ("bcd", "aef", "ag")
_RESULT_PARTITION = ("bc", "ef", "adg")
_RESULT_COVERING = ("bc", "ecf", "adg")

_EXAMPLES = {
    1: dict(section="4.1.1 (1): ideal partition, result partition",
            ideal=_P_PARTITION, method_1=_RESULT_PARTITION,
            paper={"AA_1": Fraction(6, 7), "RAR_1": Fraction(6), "T_neg_1": 1}),
    2: dict(section="4.1.1 (2): ideal partition, result covering",
            ideal=_P_PARTITION, method_1=("abc", "ef", "adg"),
            paper={"AA_1": Fraction(6, 7), "RAR_1": Fraction(3)}),
    3: dict(section="4.1.2 (1): ideal covering, result partition",
            ideal=_P_COVERING, method_1=_RESULT_PARTITION,
            paper={"AA_1": Fraction(3, 4), "RAR_1": Fraction(3)}),
    4: dict(section="4.1.2 (2): ideal covering, result covering",
            ideal=_P_COVERING, method_1=_RESULT_COVERING,
            paper={"AA_1": Fraction(3, 4), "RAR_1": Fraction(2), "D_P": ElementSet("a"),
                   "T1_1": (0, 1, 1, 0, 0, 0), "T2_1": (1,)}),
    5: dict(section="4.2: the unified paradigm, two methods compared",
            ideal=_P_COVERING, method_1=_RESULT_PARTITION, method_2=_RESULT_COVERING,
            paper={"AA_1": Fraction(3, 4), "RAR_1": Fraction(3), "T1_1": (0, 0, 1, 0, 0, 0),
                   "T2_1": (1,), "AA_2": Fraction(3, 4), "RAR_2": Fraction(2),
                   "T1_2": (0, 1, 1, 0, 0, 0), "T2_2": (1,), "D_P": ElementSet("a"),
                   "verdict": "method 1 is more accurate than method 2"}),
}


@accepts(number=integer(1, 5))
def paper_example(number):
    """Example ``number`` (1 to 5) of Section 4 as a :class:`PaperExample`.

    >>> import rejlab as rl
    >>> ex = rl.datasets.paper_example(4)
    >>> ex.ideal, ex.method_1
    (({'b', 'c', 'd'}, {'a', 'e', 'f'}, {'a', 'g'}), ({'b', 'c'}, {'c', 'e', 'f'}, {'a', 'd', 'g'}))
    >>> ex.paper["RAR_1"]
    Fraction(2, 1)
    """
    d = _EXAMPLES[number]
    return PaperExample(
        number=number, section=d["section"], U=PAPER_U, ideal=_blocks(*d["ideal"]),
        method_1=_blocks(*d["method_1"]),
        method_2=_blocks(*d["method_2"]) if "method_2" in d else None,
        paper=dict(d["paper"]),
    )


@dataclass(frozen=True)
class Table1:
    """The multi-label example of Section 5 (Table 1), in both of the paper's forms.

    Label sets (Section 5.1): dicts element -> set of labels 1..3; blocks
    (Section 5.2): tuples (P_1, P_2, P_3). On method 2 the sections disagree
    (5.1 gives c only label 2, 5.2 labels {1, 2}): both readings are kept.
    """

    U: ElementSet
    ideal_label_sets: dict
    method_1_label_sets: dict
    method_2_label_sets: dict
    ideal: tuple
    method_1: tuple
    method_2_sec51: tuple
    method_2_sec52: tuple
    paper: dict


def table1():
    """Table 1 with methods 1 and 2 (:class:`Table1`), and the scores the paper states for them.

    >>> import rejlab as rl
    >>> t = rl.datasets.table1()
    >>> t.ideal_label_sets["a"], t.method_2_label_sets["c"]
    ({2, 3}, {2})
    >>> t.method_2_sec51
    ({'b'}, {'c', 'e', 'f'}, {'a', 'd', 'g'})
    """
    def sets(*labels):  # the label sets of a..g
        return {p: ElementSet(x) for p, x in zip("abcdefg", labels)}

    return Table1(
        U=PAPER_U, ideal_label_sets=sets({2, 3}, {1}, {1}, {1}, {2}, {2}, {3}),
        method_1_label_sets=sets({3}, {1}, {1}, {3}, {2}, {2}, {3}),
        method_2_label_sets=sets({3}, {1}, {2}, {3}, {2}, {2}, {3}),
        ideal=_blocks(*_P_COVERING), method_1=_blocks(*_RESULT_PARTITION),
        method_2_sec51=_blocks("b", "cef", "adg"), method_2_sec52=_blocks(*_RESULT_COVERING),
        paper={"accuracy_1": Fraction(11, 14), "precision_1": Fraction(6, 7),
               "recall_1": Fraction(11, 14), "accuracy_2": Fraction(9, 14),
               "precision_2": Fraction(5, 7), "recall_2": Fraction(9, 14),
               "AA_1": Fraction(3, 4), "RAR_1": Fraction(3),
               "AA_2": Fraction(3, 4), "RAR_2": Fraction(2)},
    )
