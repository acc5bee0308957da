"""Coverings, neighborhoods, neighborhood systems (neighborhood-system paper, Sec. 3)."""

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl
import rejlab.coverings as cov
from rejlab._conversions import read_family
from rejlab._kinds import FAMILY
from rejlab.coverings import neighborhood as N

C_DEF3 = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
U = set("abcdefg")


@st.composite
def coverings(draw, max_n=8, max_m=5):
    """A random covering of range(n) as a list of sets (every block non-empty, union = U)."""
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(1, max_m))
    Y = np.array(draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m),
                               min_size=n, max_size=n)), dtype=bool)
    for r in range(n):  # every element in some block
        if not Y[r].any():
            Y[r, draw(st.integers(0, m - 1))] = True
    for j in range(m):  # no empty block
        if not Y[:, j].any():
            Y[draw(st.integers(0, n - 1)), j] = True
    return [set(np.flatnonzero(Y[:, j]).tolist()) for j in range(m)]


def test_definition3_the_theorem_and_table1_as_in_the_paper():
    C = rl.datasets.definition3_covering()
    assert [set(b) for b in C] == C_DEF3
    assert (rl.subscripts(C, "a"), rl.subscripts(C, "c"), rl.subscripts(C, "d")) == ({2, 3}, {1}, {1, 3})
    # N(a) = {a,e,f} ∩ {a,d,g}; N(d) = {b,c,d} ∩ {a,d,g}
    assert N(C, "a") == {"a"} and N(C, "d") == {"d"}
    assert N(C, "b") == N(C, "c") == {"b", "c", "d"}
    assert N(C, "e") == {"a", "e", "f"} and N(C, "g") == {"a", "d", "g"}
    assert rl.neighborhood_system(C, "d") == ({"b", "c", "d"}, {"a", "d", "g"})
    assert repr(rl.neighborhood_system(C, "a")) == "({'a', 'e', 'f'}, {'a', 'd', 'g'})"
    # cov(C) merges N(b) = N(c)
    assert rl.derived_covering(C) == ({"a"}, {"b", "c", "d"}, {"d"}, {"a", "e", "f"}, {"a", "d", "g"})
    assert rl.overlapped_elements(C) == rl.overlapped_elements_theorem(C) == {"a", "d"}
    # the Theorem misses an element whose N(p) equals blocks
    C = rl.datasets.equal_blocks_covering()
    assert rl.overlapped_elements(C) == {"a", "b"}
    # N(a) = {a, b} equals blocks 1 and 2, a proper subset of nothing: a is missed
    assert rl.overlapped_elements_theorem(C) == {"b"}
    assert rl.subscripts(C, "a") == {1, 2}
    # the label sets of Table 1 are the blocks of Section 5.2
    t = rl.datasets.table1()
    assert rl.label_sets_to_blocks(t.ideal_label_sets) == t.ideal
    assert rl.label_sets_to_blocks(t.method_1_label_sets) == t.method_1
    assert rl.label_sets_to_blocks(t.method_2_label_sets) == t.method_2_sec51
    assert rl.blocks_to_label_sets(t.ideal) == t.ideal_label_sets


def test_families_that_are_not_coverings():
    assert rl.covering_kind([{"a"}, set()], universe={"a"}) == "not a covering"
    assert not rl.is_covering([{"a"}], universe={"a", "b"})
    # they are described: an element in no block has an empty neighborhood system and no
    # neighborhood, empty blocks and uncovered elements are named
    family = [{"b", "c", "d"}, {"a", "e", "f"}]
    assert (rl.neighborhood_system(family, "g", universe=U), rl.subscripts(family, "g", universe=U),
            N(family, "g", universe=U)) == ((), set(), None)
    s = rl.covering_summary(family, universe=U)
    assert (s.kind, s.is_covering, s.uncovered, s.NS["g"], s.N["g"], s.count["g"]) == (
        "not a covering", False, {"g"}, (), None, 0)
    s = rl.covering_summary([{"a", "b"}, set(), {"b"}])
    assert s.empty_blocks == (2,) and s.kind == "not a covering"
    s = rl.covering_summary([set()], universe={"a", "b"})
    assert s.derived == () and s.uncovered == {"a", "b"} and s.N == {"a": None, "b": None}
    # an indicator row with no label is an uncovered element
    Y = np.array([[1, 0], [0, 0], [1, 1]])
    s = rl.covering_summary(Y)
    assert s.uncovered == {1} and s.kind == "not a covering"
    assert rl.neighborhood_system(Y, 1) == ()
    with pytest.raises(ValueError, match="covering does not cover"):
        rl.overlapped_elements(Y)


@settings(max_examples=100, deadline=None)
@given(coverings())
def test_definitions_on_random_coverings_and_indicator_input_and_converters(C):
    universe = set().union(*C)
    counts = {p: sum(p in b for b in C) for p in universe}
    assert rl.overlapped_elements(C) == {p for p, c in counts.items() if c >= 2}
    assert rl.overlapped_elements_theorem(C) <= rl.overlapped_elements(C)
    if len({frozenset(b) for b in C}) == len(C):  # with distinct blocks the Theorem is exact
        assert rl.overlapped_elements_theorem(C) == rl.overlapped_elements(C)
    s = rl.covering_summary(C)      # the summary's tables are the single functions' values
    for p in universe:
        assert N(C, p) == set.intersection(*[b for b in C if p in b]) == s.N[p] and p in N(C, p)
        assert rl.subscripts(C, p) == {i + 1 for i, b in enumerate(C) if p in b} == s.Q[p]
        assert rl.neighborhood_system(C, p) == tuple(b for b in C if p in b) == s.NS[p]
    derived = rl.derived_covering(C)
    assert (s.kind, s.m, s.derived, s.overlapped, s.overlapped_theorem) == (
        rl.covering_kind(C), len(C), derived, rl.overlapped_elements(C), rl.overlapped_elements_theorem(C))
    assert set().union(*derived) == universe  # cov(C) covers U again
    assert len(set(derived)) == len(derived)
    disjoint = all(not (C[i] & C[j]) for i in range(len(C)) for j in range(i + 1, len(C)))
    assert rl.covering_kind(C) == ("partition" if disjoint else "covering")
    assert rl.is_partition(C) == disjoint and rl.is_covering(C)
    # indicator input gives the same answers and the converters round-trip
    order = sorted(set().union(*C))
    Y = rl.blocks_to_indicator(C)
    assert Y.shape == (len(order), len(C))
    for f in (rl.overlapped_elements, rl.overlapped_elements_theorem, rl.derived_covering, rl.covering_kind):
        assert f(Y) == f(C), f.__name__
    label_sets = rl.blocks_to_label_sets(C)
    for p in order:
        assert N(Y, p) == N(C, p) and label_sets[p] == rl.subscripts(C, p)
    assert [set(b) for b in rl.indicator_to_blocks(Y, universe=order)] == C
    assert [set(b) for b in rl.label_sets_to_blocks(label_sets, labels=range(1, len(C) + 1))] == C
    rows = rl.indicator_to_label_sets(Y)
    assert rows == tuple(label_sets[p] for p in order)
    assert np.array_equal(rl.label_sets_to_indicator(list(rows), labels=range(1, len(C) + 1)), Y)


# --- the fast constructions against the definitions word for word -------------------------
#
# derived_covering and covering_summary group the elements by signature and search, among the
# distinct signatures, those that include each one; the references beside them loop over the
# elements as Definitions 2-4 and the Theorem read.

# every path of the superset search: as shipped, splits always, never, tiny tables
KERNEL_SETTINGS = [{"_SMALL": cov._SMALL}, {"_SMALL": 0}, {"_SMALL": 0, "_RATIO": 0},
                   {"_SMALL": 0, "_RATIO": 10**9, "_CHUNK": 1}, {"_SMALL": 0, "_RATIO": 0, "_CHUNK": 5}]
ELEMENTS = [*range(6), "a", "b", "c", (0, 1), (2,), ("x", 3), 2.5]


@st.composite
def families(draw, covering=True):
    """A family of blocks with the shapes that matter: equal, nested, singleton, whole-universe
    and single blocks, many elements sharing a signature, and (covering=False) empty blocks
    and a universe larger than the union. Returns (blocks, universe or None)."""
    pool = draw(st.lists(st.sampled_from(ELEMENTS), min_size=1, max_size=12, unique=True))
    blocks = []
    for _ in range(draw(st.integers(1, 7))):
        shape = draw(st.sampled_from(["random", "copy", "nested", "singleton", "all"]))
        if shape == "copy" and blocks:
            blocks.append(set(draw(st.sampled_from(blocks))))
        elif shape == "nested" and blocks:
            outer = sorted(draw(st.sampled_from(blocks)), key=repr)
            blocks.append(set(draw(st.lists(st.sampled_from(outer), min_size=1, unique=True))))
        elif shape == "singleton":
            blocks.append({draw(st.sampled_from(pool))})
        elif shape == "all":
            blocks.append(set(pool))
        else:
            blocks.append(set(draw(st.lists(st.sampled_from(pool), min_size=1, unique=True))))
    universe = None
    if not covering:
        if draw(st.booleans()):
            blocks.insert(draw(st.integers(0, len(blocks))), set())
        if draw(st.booleans()):
            universe = set(pool) | set().union(*blocks)
    return blocks, universe


def _same(fast, slow):
    """Equal values, types and printed form (the order of tuples and of printed sets)."""
    assert fast == slow
    assert repr(fast) == repr(slow)
    if isinstance(fast, tuple):
        assert [type(x) for x in fast] == [type(x) for x in slow]
    else:
        assert type(fast) is type(slow)


@pytest.mark.parametrize("patch", KERNEL_SETTINGS, ids=repr)
@settings(max_examples=60, deadline=None)
@given(families(covering=False))
def test_constructions_equal_their_references(patch, data):
    family, universe = data
    with mock.patch.multiple(cov, **patch):
        fast = rl.covering_summary(family, universe=universe)
    slow = cov._covering_summary_reference(*read_family(FAMILY(family, "family"), "family",
                                                        fast.universe if universe else None))
    for field in slow.__dataclass_fields__:
        _same(getattr(fast, field), getattr(slow, field))
    for p in slow.universe:
        for table in ("N", "NS", "Q", "count"):
            _same(getattr(fast, table)[p], getattr(slow, table)[p])
    if fast.is_covering:
        with mock.patch.multiple(cov, **patch):
            _same(rl.derived_covering(family, universe=universe), slow.derived)
        _same(rl.overlapped_elements_theorem(family, universe=universe), slow.overlapped_theorem)
        _same(slow.derived, cov._derived_covering_reference(*read_family(
            FAMILY(family, "family"), "family", fast.universe)[::2]))


@pytest.mark.slow
@pytest.mark.parametrize("patch", KERNEL_SETTINGS[:3], ids=repr)
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.sampled_from([3, 12, 40, 70, 130]),
       st.sampled_from([0.02, 0.1, 0.3, 0.6]))
def test_larger_random_coverings_equal_the_references(patch, seed, n, m, density):
    # m = 70 and 130 need two and three 64-bit words per signature
    rng = np.random.default_rng(seed)
    Y = rng.random((n, m)) < density
    Y[np.arange(n), rng.integers(0, m, n)] = True
    C = [set(np.flatnonzero(Y[:, j]).tolist()) for j in range(m) if Y[:, j].any()]
    blocks, _, order = read_family(FAMILY(C, "covering"), "covering")
    with mock.patch.multiple(cov, **patch):
        assert rl.derived_covering(C) == cov._derived_covering_reference(blocks, order)
    assert rl.overlapped_elements_theorem(C) == cov._theorem_reference(blocks, order)


@pytest.mark.parametrize("patch", KERNEL_SETTINGS, ids=repr)
@settings(max_examples=40, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 69), min_size=1, max_size=8), min_size=1,
                max_size=30, unique=True))
def test_superset_search_finds_exactly_the_including_pairs(patch, signatures):
    # the search itself, against the double loop over distinct signatures
    words = np.zeros((len(signatures), 2), dtype=np.uint64)
    for i, s in enumerate(signatures):
        for b in s:
            words[i, b >> 6] |= np.uint64(1) << np.uint64(b & 63)
    with mock.patch.multiple(cov, **patch):
        q, t = cov._superset_pairs(words, 70)
    assert sorted(zip(q.tolist(), t.tolist())) == [
        (i, j) for i, a in enumerate(signatures) for j, b in enumerate(signatures) if b >= a]
