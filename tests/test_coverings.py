"""Coverings, neighborhoods, neighborhood systems (neighborhood-system paper, Sec. 3)."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import rejlab as rl
from rejlab.coverings import neighborhood as N

C_DEF3 = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
U = set("abcdefg")


@st.composite
def coverings(draw, max_n=8, max_m=5, distinct=False):
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
    blocks = [set(np.flatnonzero(Y[:, j]).tolist()) for j in range(m)]
    if distinct:
        assume(len({frozenset(b) for b in blocks}) == m)
    return blocks


def brute_counts(blocks):
    U = set().union(*blocks)
    return {p: sum(p in b for b in blocks) for p in U}


# --- the paper's example (Definition 3) and the Theorem -----------------------------


def test_definition3_subscripts_as_in_the_paper():
    assert rl.subscripts(C_DEF3, "a") == {2, 3}
    assert rl.subscripts(C_DEF3, "c") == {1}
    assert rl.subscripts(C_DEF3, "d") == {1, 3}


def test_definition3_dataset_is_the_papers_covering():
    C = rl.datasets.definition3_covering()
    assert [set(b) for b in C] == C_DEF3
    assert rl.subscripts(C, "a") == {2, 3}


def test_neighborhoods_of_the_example_by_hand():
    # N(a) = {a,e,f} ∩ {a,d,g}; N(d) = {b,c,d} ∩ {a,d,g}
    assert N(C_DEF3, "a") == {"a"}
    assert N(C_DEF3, "b") == N(C_DEF3, "c") == {"b", "c", "d"}
    assert N(C_DEF3, "d") == {"d"}
    assert N(C_DEF3, "e") == {"a", "e", "f"}
    assert N(C_DEF3, "g") == {"a", "d", "g"}
    assert rl.neighborhood_system(C_DEF3, "d") == ({"b", "c", "d"}, {"a", "d", "g"})


def test_derived_covering_of_the_example_merges_duplicates():
    derived = rl.derived_covering(C_DEF3)
    assert set(derived) == {frozenset("a"), frozenset("bcd"), frozenset("d"),
                            frozenset("aef"), frozenset("adg")}
    assert len(derived) == 5


def test_overlapped_elements_of_the_example():
    assert rl.overlapped_elements(C_DEF3) == {"a", "d"}
    assert rl.overlapped_elements_theorem(C_DEF3) == {"a", "d"}


def test_theorem_fails_on_equal_blocks():
    C = rl.datasets.equal_blocks_covering()
    assert rl.overlapped_elements(C) == {"a", "b"}
    # N(a) = {a, b} equals blocks 1 and 2, a proper subset of nothing: a is missed
    assert rl.overlapped_elements_theorem(C) == {"b"}


def test_theorem_with_subset_or_equal_would_return_all_of_U():
    # every N(p) lies in some block; only the proper inclusion makes the Theorem useful
    derived = rl.derived_covering(C_DEF3)
    assert set().union(*[Y for Y in derived if any(Y <= K for K in C_DEF3)]) == U


def test_partition_and_covering_detection():
    assert rl.covering_kind([{"b", "c", "d"}, {"e", "f"}, {"a", "g"}]) == "partition"
    assert rl.covering_kind(C_DEF3) == "covering"
    assert rl.is_partition([{"b", "c", "d"}, {"e", "f"}, {"a", "g"}])
    assert not rl.is_partition(C_DEF3)
    assert rl.is_covering(C_DEF3)
    assert rl.covering_kind([{"a"}, set()], universe={"a"}) == "not a covering"
    assert not rl.is_covering([{"a"}], universe={"a", "b"})


# --- empty neighborhood systems are reported -----------------------------------------


def test_element_in_no_block_has_an_empty_neighborhood_system():
    family = [{"b", "c", "d"}, {"a", "e", "f"}]
    assert rl.neighborhood_system(family, "g", universe=U) == ()
    assert rl.subscripts(family, "g", universe=U) == set()
    assert N(family, "g", universe=U) is None
    s = rl.covering_summary(family, universe=U)
    assert s.kind == "not a covering"
    assert s.uncovered == {"g"}
    assert s.NS["g"] == () and s.N["g"] is None and s.count["g"] == 0
    assert not s.is_covering


def test_summary_reports_empty_blocks():
    s = rl.covering_summary([{"a", "b"}, set(), {"b"}])
    assert s.empty_blocks == (2,)
    assert s.kind == "not a covering"


def test_summary_matches_the_single_functions():
    s = rl.covering_summary(C_DEF3)
    assert s.kind == "covering"
    for p in U:
        assert s.N[p] == N(C_DEF3, p)
        assert s.Q[p] == rl.subscripts(C_DEF3, p)
        assert s.NS[p] == rl.neighborhood_system(C_DEF3, p)
    assert set(s.derived) == set(rl.derived_covering(C_DEF3))
    assert s.overlapped == rl.overlapped_elements(C_DEF3)
    assert s.overlapped_theorem == rl.overlapped_elements_theorem(C_DEF3)


def test_element_sets_print_sorted():
    assert repr(rl.neighborhood_system(C_DEF3, "a")) == "({'a', 'e', 'f'}, {'a', 'd', 'g'})"
    assert repr(rl.coverings.ElementSet()) == "set()"


# --- properties on random coverings ------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(coverings())
def test_overlapped_is_in_two_or_more_blocks(C):
    counts = brute_counts(C)
    assert rl.overlapped_elements(C) == {p for p, c in counts.items() if c >= 2}


@settings(max_examples=150, deadline=None)
@given(coverings())
def test_theorem_never_returns_a_non_overlapped_element(C):
    assert rl.overlapped_elements_theorem(C) <= rl.overlapped_elements(C)


@settings(max_examples=150, deadline=None)
@given(coverings(distinct=True))
def test_theorem_equals_count_when_blocks_are_distinct(C):
    assert rl.overlapped_elements_theorem(C) == rl.overlapped_elements(C)


@settings(max_examples=100, deadline=None)
@given(coverings())
def test_neighborhood_is_intersection_of_system(C):
    U = set().union(*C)
    for p in U:
        system = [b for b in C if p in b]
        assert N(C, p) == set.intersection(*system)
        assert p in N(C, p)
        assert rl.subscripts(C, p) == {i + 1 for i, b in enumerate(C) if p in b}
    derived = rl.derived_covering(C)
    assert set().union(*derived) == U  # cov(C) covers U again
    assert len(set(derived)) == len(derived)


@settings(max_examples=100, deadline=None)
@given(coverings())
def test_partition_detection_is_pairwise_disjointness(C):
    disjoint = all(not (C[i] & C[j]) for i in range(len(C)) for j in range(i + 1, len(C)))
    assert rl.is_partition(C) == disjoint
    assert rl.covering_kind(C) == ("partition" if disjoint else "covering")


@settings(max_examples=100, deadline=None)
@given(coverings())
def test_indicator_input_gives_the_same_answers(C):
    Y = rl.blocks_to_indicator(C, universe=range(len(set().union(*C))))
    assert rl.overlapped_elements(Y) == rl.overlapped_elements(C)
    assert rl.overlapped_elements_theorem(Y) == rl.overlapped_elements_theorem(C)
    assert set(rl.derived_covering(Y)) == set(rl.derived_covering(C))
    assert rl.covering_kind(Y) == rl.covering_kind(C)
    for p in range(Y.shape[0]):
        assert N(Y, p) == N(C, p)


@settings(max_examples=100, deadline=None)
@given(coverings())
def test_converters_round_trip(C):
    order = sorted(set().union(*C))
    Y = rl.blocks_to_indicator(C)
    assert Y.shape == (len(order), len(C))
    assert [set(b) for b in rl.indicator_to_blocks(Y, universe=order)] == C
    label_sets = rl.blocks_to_label_sets(C)
    for p in order:
        assert label_sets[p] == rl.subscripts(C, p)
    assert [set(b) for b in rl.label_sets_to_blocks(label_sets, labels=range(1, len(C) + 1))] == C
    rows = rl.indicator_to_label_sets(Y)
    assert tuple(rows) == tuple(label_sets[p] for p in order)
    assert np.array_equal(rl.label_sets_to_indicator(list(rows), labels=range(1, len(C) + 1)), Y)


def test_label_sets_of_table1_are_the_blocks_of_section_5_2():
    t = rl.datasets.table1()
    assert rl.label_sets_to_blocks(t.ideal_label_sets) == t.ideal
    assert rl.label_sets_to_blocks(t.method_1_label_sets) == t.method_1
    assert rl.label_sets_to_blocks(t.method_2_label_sets) == t.method_2_sec51
    assert rl.blocks_to_label_sets(t.ideal) == t.ideal_label_sets


def test_any_hashable_elements():
    C = [{(0, 1), "x"}, {"x", 3.5}]
    assert N(C, "x") == {"x"}
    assert rl.overlapped_elements(C) == {"x"}


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad, word", [
    ([["b", "c"], ["a"]], "covering"),            # blocks written as lists
    ({frozenset("ab"), frozenset("c")}, "covering"),  # a set of blocks has no order
    ([], "covering"),
    ("abc", "covering"),
])
def test_blocks_must_be_an_ordered_sequence_of_sets(bad, word):
    with pytest.raises(ValueError, match=word):
        rl.derived_covering(bad)


def test_block_with_elements_outside_the_universe():
    with pytest.raises(ValueError, match="covering: block 2 .*not in the universe"):
        rl.overlapped_elements([{"a"}, {"b", "z"}], universe={"a", "b"})


def test_empty_block_is_rejected():
    with pytest.raises(ValueError, match="covering: block 2 is empty"):
        rl.derived_covering([{"a", "b"}, set()])


@pytest.mark.parametrize("query", ["neighborhood", "neighborhood_system", "subscripts"])
def test_element_queries_reject_an_empty_block(query):
    with pytest.raises(ValueError, match="covering: block 2 is empty"):
        getattr(rl, query)([{"a", "b"}, set()], "a")


def test_union_missing_elements_of_the_universe_is_rejected():
    with pytest.raises(ValueError, match="covering does not cover the universe.*'g'"):
        rl.derived_covering([{"b", "c", "d"}, {"a", "e", "f"}], universe=U)
    with pytest.raises(ValueError, match="covering does not cover"):
        rl.overlapped_elements_theorem([{"a"}], universe={"a", "b"})


def test_p_must_be_in_the_universe():
    with pytest.raises(ValueError, match="p must be an element"):
        N(C_DEF3, "z")
    with pytest.raises(ValueError, match="p must be an element"):
        rl.subscripts(C_DEF3, ["a"])  # unhashable


def test_universe_must_be_a_collection():
    with pytest.raises(ValueError, match="universe"):
        rl.derived_covering(C_DEF3, universe="abcdefg")
    with pytest.raises(ValueError, match="universe must not repeat"):
        rl.derived_covering(C_DEF3, universe=list("abcdefga"))


def test_indicator_values_must_be_0_or_1():
    with pytest.raises(ValueError, match="covering must hold 0/1 values"):
        rl.overlapped_elements(np.array([[1, 2], [0, 1]]))
    with pytest.raises(ValueError, match="covering must be a 2-D"):
        rl.overlapped_elements(np.array([1, 0, 1]))


def test_label_set_converters_reject_non_sets():
    with pytest.raises(ValueError, match="label_sets"):
        rl.label_sets_to_blocks({"a": [1, 2]})
    with pytest.raises(ValueError, match="labels"):
        rl.indicator_to_label_sets([[0, 1]], labels=[1, 2, 3])


def test_public_names_are_the_spec_contract():
    # rl.neighborhood is the function; the module is rejlab.coverings
    assert callable(rl.neighborhood)
    import rejlab.coverings

    assert rejlab.coverings.ElementSet is rl.coverings.ElementSet
    assert rl.neighborhood(C_DEF3, "d") == {"d"}
    for name in ("neighborhood_system", "subscripts", "derived_covering", "overlapped_elements",
                 "overlapped_elements_theorem", "covering_kind", "is_partition", "is_covering"):
        assert callable(getattr(rl, name))


def test_indicator_row_with_no_label_is_an_uncovered_element():
    Y = np.array([[1, 0], [0, 0], [1, 1]])
    s = rl.covering_summary(Y)
    assert s.uncovered == {1} and s.kind == "not a covering"
    assert rl.neighborhood_system(Y, 1) == ()
    with pytest.raises(ValueError, match="covering does not cover"):
        rl.overlapped_elements(Y)


# --- the signature kernels against their element-by-element references -------------------
#
# derived_covering, overlapped_elements_theorem and covering_summary group elements by
# signature and search supersets among the distinct signatures (rejlab.coverings); the
# references beside them loop over the elements as Definitions 2-4 and the Theorem read.

from unittest import mock  # noqa: E402

import rejlab._signatures as sig_kernel  # noqa: E402
import rejlab.coverings as cov  # noqa: E402
from rejlab._blocks import covering_blocks  # noqa: E402
from rejlab._kinds import COVERING  # noqa: E402

# every path of the superset search: bit rows or sorted look-ups, splits always / never
# worth it, tiny chunks (many passes per level)
KERNEL_SETTINGS = [
    {"CHUNK": sig_kernel.CHUNK},  # as shipped
    {"_PACK_WORDS": 0},
    {"_SPLIT_COST": 0, "_SPLIT_GAIN": 1.0, "CHUNK": 3, "_TABLE": 10**18},
    {"_SPLIT_COST": 0, "_SPLIT_GAIN": 1.0, "CHUNK": 3, "_PACK_WORDS": 0},
    {"_SPLIT_COST": 0, "_SPLIT_GAIN": 1.0, "CHUNK": 3, "_TABLE": 1},
    {"_SPLIT_COST": 10**9, "_TABLE": 1},
    {"_SPLIT_COST": 10**9, "_TABLE": 10**18},
    {"_SPLIT_COST": 0, "_SPLIT_GAIN": 0.0},
]
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
@settings(max_examples=120, deadline=None)
@given(families())
def test_derived_covering_and_theorem_equal_their_references(patch, data):
    C, _ = data
    blocks, _, order = covering_blocks(COVERING(C, "covering"), "covering", None)
    with mock.patch.multiple(sig_kernel, **patch):
        derived, theorem = rl.derived_covering(C), rl.overlapped_elements_theorem(C)
    _same(derived, cov._derived_covering_reference(blocks, order))
    _same(theorem, cov._theorem_reference(blocks, order))


@pytest.mark.parametrize("patch", KERNEL_SETTINGS, ids=repr)
@settings(max_examples=120, deadline=None)
@given(families(covering=False))
def test_covering_summary_equals_its_reference(patch, data):
    family, universe = data
    with mock.patch.multiple(sig_kernel, **patch):
        fast = rl.covering_summary(family, universe=universe)
    slow = cov._covering_summary_reference(family, universe=universe)
    for field in slow.__dataclass_fields__:
        _same(getattr(fast, field), getattr(slow, field))
    for p in slow.universe:
        for table in ("N", "NS", "Q", "count"):
            _same(getattr(fast, table)[p], getattr(slow, table)[p])
        assert all(type(b) is cov.ElementSet for b in fast.NS[p])


def _random_covering(rng, n, m, density):
    """A covering of range(n) by m blocks: each element in each block with the given
    probability, plus one block drawn at random (so none is uncovered); empty blocks dropped."""
    Y = rng.random((n, m)) < density
    Y[np.arange(n), rng.integers(0, m, n)] = True
    return [set(np.flatnonzero(Y[:, j]).tolist()) for j in range(m) if Y[:, j].any()]


@pytest.mark.parametrize("patch", KERNEL_SETTINGS[:4], ids=repr)
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.sampled_from([3, 12, 40, 70, 130]),
       st.sampled_from([0.02, 0.1, 0.3, 0.6]))
def test_larger_random_coverings_equal_the_references(patch, seed, n, m, density):
    # m = 70 and 130 need two and three 64-bit words per signature
    C = _random_covering(np.random.default_rng(seed), n, m, density)
    blocks, _, order = covering_blocks(COVERING(C, "covering"), "covering", None)
    with mock.patch.multiple(sig_kernel, **patch):
        derived, theorem = rl.derived_covering(C), rl.overlapped_elements_theorem(C)
    assert derived == cov._derived_covering_reference(blocks, order)
    assert theorem == cov._theorem_reference(blocks, order)


@pytest.mark.parametrize("patch", KERNEL_SETTINGS, ids=repr)
@settings(max_examples=80, deadline=None)
@given(st.lists(st.frozensets(st.integers(0, 69), min_size=1, max_size=8), min_size=1,
                max_size=30, unique=True))
def test_superset_search_finds_exactly_the_including_pairs(patch, signatures):
    # the join itself, against the double loop over distinct signatures
    ptr = np.concatenate(([0], np.cumsum([len(s) for s in signatures]))).astype(np.intp)
    bits = np.array([b for s in signatures for b in sorted(s)], dtype=np.intp)
    sig = sig_kernel.Signatures(None, ptr, bits, None, None)
    with mock.patch.multiple(sig_kernel, **patch):
        q, t = sig_kernel.SupersetSearch(sig).run()
    found = sorted(zip(q.tolist(), t.tolist()))
    expected = [(i, j) for i, a in enumerate(signatures) for j, b in enumerate(signatures)
                if b >= a]
    assert found == expected


def test_signatures_group_elements_in_universe_order():
    C = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
    order = tuple("abcdefgh")  # h lies in no block
    sig = sig_kernel.signatures(tuple(frozenset(b) for b in C), order)
    # a: {2,3}, b: {1}, c: {1}, d: {1,3}, e: {2}, f: {2}, g: {3} (0-based below)
    assert sig.of.tolist() == [0, 1, 1, 2, 3, 3, 4, -1]
    groups = [[order[r] for r in sig.members[sig.start[s]:sig.start[s + 1]]] for s in range(5)]
    assert groups == [["a"], ["b", "c"], ["d"], ["e", "f"], ["g"]]
    rows = [sig.bits[sig.ptr[s]:sig.ptr[s + 1]].tolist() for s in range(5)]
    assert rows == [[1, 2], [0], [0, 2], [1], [2]]


def test_theorem_is_two_different_blocks():
    # the characterization the fast Theorem uses, on the paper's equal-block example
    C = rl.datasets.equal_blocks_covering()
    blocks = [set(b) for b in C]
    expected = {p for p in set().union(*blocks)
                if len({frozenset(b) for b in blocks if p in b}) >= 2}
    assert rl.overlapped_elements_theorem(C) == expected == {"b"}


def test_elements_with_one_signature_share_their_summary_values():
    # memory stays linear in the covering's size: no copy of a block per element
    C = [set(range(50)), set(range(50)) | {50}]
    s = rl.covering_summary(C)
    assert s.N[0] is s.N[49] and s.Q[0] is s.Q[49] and s.NS[0] is s.NS[49]
    assert s.NS[50][0] is s.blocks[1]
    assert s.N[0] == set(range(50)) and s.N[50] == set(range(51))


def test_summary_of_a_family_that_covers_nothing():
    family, universe = [set()], {"a", "b"}
    fast = rl.covering_summary(family, universe=universe)
    assert fast == cov._covering_summary_reference(family, universe=universe)
    assert fast.derived == () and fast.uncovered == {"a", "b"} and fast.N == {"a": None, "b": None}


# --- legitimately odd families, and families that are wrong (the checks of the bodies) ---

IDEAL = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]
RES1 = [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]
IND_P = [[1, 0, 0], [0, 1, 1], [1, 1, 0]]
COV = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
IND_T = [[1, 0, 1], [0, 1, 0], [1, 1, 0]]
LABEL_SETS = {"a": {2, 3}, "b": {1}, "c": {1}, "d": {3}}

DUP = [{"a", "b"}, {"a", "b"}, {"c"}]  # two equal blocks: a covering all the same


@pytest.mark.parametrize("call", [
    lambda: rl.neighborhood(DUP, "a"),
    lambda: rl.neighborhood_system(DUP, "a"),
    lambda: rl.subscripts(DUP, "a"),
    lambda: rl.derived_covering(DUP),
    lambda: rl.overlapped_elements(DUP),
    lambda: rl.overlapped_elements_theorem(DUP),
    lambda: rl.covering_kind(DUP),
    lambda: rl.covering_summary(DUP),
    lambda: rl.absolute_accuracy(DUP, DUP),
    lambda: rl.relative_accuracy_rate(DUP, [{"a"}, {"b"}, {"c"}]),
    lambda: rl.compare_methods(DUP, DUP, [{"a"}, {"b"}, {"c"}]),
    lambda: rl.accuracy_report(DUP, DUP),
], ids=lambda f: "")
def test_duplicate_blocks_are_allowed(call):
    assert call() is not None


def test_duplicate_blocks_give_the_counted_answers():
    assert rl.subscripts(DUP, "a") == {1, 2}
    assert rl.overlapped_elements(DUP) == {"a", "b"}  # in two blocks, though N(a) is a block
    assert rl.absolute_accuracy(DUP, DUP) == 1.0
    assert rl.relative_accuracy_rate(DUP, DUP) == math.inf


@pytest.mark.parametrize("call,arg", [
    (lambda: rl.derived_covering([{"a", "z"}, {"b"}], universe={"a", "b"}), "covering"),
    (lambda: rl.absolute_accuracy(IDEAL, [{"b", "c"}, {"e", "f"}, {"a", "d", "z"}],
                                  universe=set("abcdefg")), "result"),
    (lambda: rl.absolute_accuracy(IDEAL, RES1[:2]), "result"),
    (lambda: rl.relative_accuracy_rate(IDEAL, RES1 + [{"a"}]), "result"),
    (lambda: rl.compare_methods(IDEAL, RES1, RES1[:2]), "result_2"),
    (lambda: rl.absolute_accuracy([[1, 0], [0, 1]], [[1, 0, 0], [0, 1, 0]]), "result"),
    (lambda: rl.absolute_accuracy(IDEAL, IND_T), "result"),  # sets against a matrix
    (lambda: rl.multilabel_scores([[1, 0], [0, 1]], [[1, 0]]), "y_pred"),
    (lambda: rl.multilabel_scores([{1}, {2}], [{1}]), "y_pred"),
    (lambda: rl.multilabel_scores([{1}, {2}], [{1}, "2"]), "y_pred"),
    (lambda: rl.multilabel_scores(IND_T, IND_P, zero_division=True), "zero_division"),
    (lambda: rl.derived_covering([{"a"}, "bc"]), "covering"),  # a string among the sets
    (lambda: rl.neighborhood(IDEAL, "z"), "p"),
    (lambda: rl.neighborhood(IDEAL, ["a"]), "p"),
    (lambda: rl.overlapped_elements([]), "covering"),
    (lambda: rl.derived_covering([set()]), "covering"),
    (lambda: rl.label_sets_to_blocks(LABEL_SETS, labels=[1, 2]), "labels"),
    (lambda: rl.covering_summary(COV, universe=[["a"]]), "universe"),
])
def test_wrong_families_raise_naming_the_argument(call, arg):
    with pytest.raises(ValueError, match=arg):
        call()
