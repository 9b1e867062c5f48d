"""Participation ratio, linear CKA and ENSD of Appendix G, as SymPy expressions."""

from __future__ import annotations

import sympy as sp

from implicit_bias.theory import representations as reps


def test_participation_ratio_forms_agree_and_n_cancels() -> None:
    x = reps.symbolic_responses("x", 3, 2)
    n = sp.Symbol("n", positive=True)
    from_covariance = reps.participation_ratio(reps.covariance(x, n))
    assert sp.cancel(from_covariance - reps.participation_ratio_of_data(x)) == 0
    assert reps.covariance(x) == x.T * x / 3


def test_participation_ratio_of_eigenvalues_matches_the_trace_form() -> None:
    c = sp.diag(2, 1, 1)
    assert reps.participation_ratio(c) == reps.participation_ratio_of_eigenvalues(
        [2, 1, 1]
    )
    assert reps.participation_ratio(sp.eye(4)) == 4
    assert reps.participation_ratio(sp.diag(3, 0, 0)) == 1


def test_uncorrelated_units_are_centred_with_diagonal_covariance() -> None:
    scales = sp.symbols("s1:4", positive=True)
    x = reps.uncorrelated_units(scales)
    assert x.shape == (6, 3)
    assert all(sum(x[:, j]) == 0 for j in range(3))
    # Each unit is nonzero on 2 of the 6 samples, with entries +-sqrt(3) s_j.
    assert x.T * x == 6 * sp.diag(*(s**2 for s in scales))


def test_uncorrelated_units_have_the_given_standard_deviations() -> None:
    # The sample variance (1/n) sum_k (x_kj - mean_j)^2 of unit j is s_j^2.
    scales = sp.symbols("s1:5", positive=True)
    x = reps.uncorrelated_units(scales)
    for j, scale in enumerate(scales):
        column = x[:, j]
        mean = sum(column) / x.rows
        variance = sum((entry - mean) ** 2 for entry in column) / x.rows
        assert sp.simplify(variance - scale**2) == 0
    assert reps.covariance(x) == sp.diag(*(s**2 for s in scales))


def test_ensd_of_a_representation_with_itself_is_its_participation_ratio() -> None:
    x = sp.Matrix([[1, 2, 0], [-1, 0, 3], [0, -2, -3]])
    assert sp.simplify(reps.ensd(x, x) - reps.participation_ratio_of_data(x)) == 0
    assert sp.simplify(reps.linear_cka(x, x) - 1) == 0


def test_ensd_is_cka_times_geometric_mean_of_prs() -> None:
    x = sp.Matrix([[1, -2], [3, 0], [-4, 2]])
    y = sp.Matrix([[2, 1], [-1, 1], [-1, -2]])
    product = reps.linear_cka(x, y) * sp.sqrt(
        reps.participation_ratio_of_data(x) * reps.participation_ratio_of_data(y)
    )
    assert sp.simplify(reps.ensd(x, y) - product) == 0


def test_ensd_ten_and_five_units() -> None:
    equal = reps.uncorrelated_units([1] * 10)
    assert reps.ensd(equal, equal[:, :5]) == 5
    unequal = reps.uncorrelated_units([1] * 5 + [sp.sqrt(2)] * 5)
    assert reps.ensd(unequal, unequal[:, :5]) == 3


def test_ensd_of_orthogonal_representations_is_zero() -> None:
    x = sp.Matrix.vstack(reps.uncorrelated_units([1, 2]), sp.zeros(2, 2))
    y = sp.Matrix.vstack(sp.zeros(4, 1), reps.uncorrelated_units([5]))
    assert x.T * y == sp.zeros(2, 1)
    assert reps.ensd(x, y) == 0


def test_trace_helpers_match_the_matrix_functions() -> None:
    x = sp.Matrix([[1, 2], [0, -1], [-1, -1]])
    y = sp.Matrix([[0, 1], [1, 1], [-1, -2]])
    gx, gy = x.T * x, y.T * y
    cross = (y.T * x * x.T * y).trace()
    assert reps.ensd(x, y) == reps.ensd_from_traces(
        cross, gx.trace(), gy.trace(), (gx * gx).trace(), (gy * gy).trace()
    )
    assert reps.linear_cka(x, y) == reps.linear_cka_from_traces(
        cross, (gx * gx).trace(), (gy * gy).trace()
    )


def test_displays_are_typeset_in_paper_notation() -> None:
    for display in (
        reps.display_pr_traces,
        reps.display_pr_eigenvalues,
        reps.display_ensd,
        reps.display_ensd_cka,
    ):
        text = sp.latex(display(), symbol_names=reps.GLYPHS)
        assert r"\mathbf{X}" in text
        assert r"\operatorname{PR}" in text or r"\operatorname{ENSD}" in text
