"""Batched gradient descent on two-layer ReLU networks and the Fig. 1c experiment.

Tolerances. The hand-written gradients are compared with central differences
of step h = 1e-6: the truncation error is O(h^2 L''') ~ 1e-12 and the rounding
error about eps * |L| / h ~ 1e-10 relative to the loss, so rtol 1e-6 with atol
1e-8 leaves a margin of 100 without hiding a wrong factor (a missing readout or
1/n is off by O(1)). Test points are drawn so that no preactivation is within
1e-3 of the ReLU's kink, where the loss is not differentiable and a difference
of step 1e-6 would straddle it. The STL scale equivalence is exact in exact
arithmetic; in float64 the two trajectories differ by rounding amplified over
the steps, kept below 1e-9 relative for the short run tested.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest
from numpy.typing import NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.validation.relu_sample_efficiency import experiment, networks
from implicit_bias.validation.relu_kernels import sample_sphere
from implicit_bias.validation.relu_sample_efficiency import (
    SampleEfficiencySetup,
    correlated_units,
    relu_loss_and_gradients,
    relu_network_outputs,
    sample_efficiency,
    teacher_outputs,
    train_relu_networks,
)

#: A setup small enough for a test (about 0.1 s).
TINY = SampleEfficiencySetup(
    sample_sizes=(4, 8),
    seeds=2,
    dimension=4,
    teacher_units=2,
    width=4,
    aux_samples=16,
    steps=30,
    test_samples=50,
)


def _problem(
    seed: int, count: int = 3, samples: int = 5, width: int = 4, dimension: int = 3
) -> tuple[NDArray[np.float64], ...]:
    """Random networks and data with every preactivation 1e-3 away from the kink."""
    rng = np.random.default_rng(seed)
    while True:
        x = rng.standard_normal((count, samples, dimension))
        w1 = rng.standard_normal((count, width, dimension))
        if np.abs(x @ w1.transpose(0, 2, 1)).min() > 1e-3:
            break
    return (
        x,
        rng.standard_normal((count, samples)),
        w1,
        rng.standard_normal((count, width)),
    )


def _naive_loss(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    w1: NDArray[np.float64],
    w2: NDArray[np.float64],
) -> NDArray[np.float64]:
    """Textbook loop: L_k = sum_i (sum_h a_h relu(w_h . x_i) - y_i)^2 / (2n)."""
    losses = np.zeros(x.shape[0])
    for k in range(x.shape[0]):
        for i in range(x.shape[1]):
            output = sum(
                w2[k, h] * max(float(w1[k, h] @ x[k, i]), 0.0)
                for h in range(w1.shape[1])
            )
            losses[k] += (output - y[k, i]) ** 2 / (2 * x.shape[1])
    return losses


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gradients_match_central_differences(seed: int) -> None:
    x, y, w1, w2 = _problem(seed)
    loss, hidden_gradient, readout_gradient = relu_loss_and_gradients(x, y, w1, w2)
    np.testing.assert_allclose(loss, _naive_loss(x, y, w1, w2), rtol=1e-12)
    step = 1e-6
    for array, gradient in ((w1, hidden_gradient), (w2, readout_gradient)):
        numeric = np.empty_like(array)
        for index in np.ndindex(array.shape):
            plus, minus = array.copy(), array.copy()
            plus[index] += step
            minus[index] -= step
            arguments = [(plus, minus) if a is array else (a, a) for a in (w1, w2)]
            upper = relu_loss_and_gradients(x, y, arguments[0][0], arguments[1][0])[0]
            lower = relu_loss_and_gradients(x, y, arguments[0][1], arguments[1][1])[0]
            numeric[index] = (upper - lower)[index[0]] / (2 * step)
        np.testing.assert_allclose(gradient, numeric, rtol=1e-6, atol=1e-8)


def test_outputs_and_shapes() -> None:
    x, _, w1, w2 = _problem(3, count=2, samples=6, width=5, dimension=3)
    outputs = relu_network_outputs(x, w1, w2)
    assert outputs.shape == (2, 6)
    assert outputs.dtype == np.float64
    expected = np.einsum(
        "knh,kh->kn", np.maximum(np.einsum("knd,khd->knh", x, w1), 0), w2
    )
    np.testing.assert_allclose(outputs, expected, rtol=1e-13)
    # Shared inputs (n, d) broadcast over the K networks.
    shared = relu_network_outputs(x[0], w1, w2)
    np.testing.assert_allclose(shared[0], outputs[0], rtol=1e-13)
    loss, g1, g2 = relu_loss_and_gradients(x[0], np.zeros(6), w1, w2)
    assert (loss.shape, g1.shape, g2.shape) == ((2,), (2, 5, 3), (2, 5))


def test_training_decreases_the_loss_and_keeps_the_arguments() -> None:
    x, y, w1, w2 = _problem(4, count=2, samples=8)
    w1_before, w2_before = w1.copy(), w2.copy()
    initial = relu_loss_and_gradients(x, y, w1, w2)[0]
    trained = train_relu_networks(x, y, w1, w2, learning_rate=0.02, steps=200)
    assert np.array_equal(w1, w1_before)
    assert np.array_equal(w2, w2_before)
    final = relu_loss_and_gradients(x, y, trained.hidden_weights, trained.readout)[0]
    assert np.all(final < initial)
    np.testing.assert_allclose(
        trained.relative_loss, final / (0.5 * np.mean(y * y, axis=1)), rtol=1e-12
    )


def test_stl_scale_equivalence() -> None:
    # Weights x sqrt(m), target x m, learning rate / m: the same trajectory, scaled.
    x, y, w1, w2 = _problem(5, count=2, samples=10)
    w1, w2 = 1e-2 * w1, 1e-2 * w2
    y = teacher_outputs(x, np.eye(3)[:2], 1.0)
    magnitude = 0.01
    unit = train_relu_networks(x, y, w1, w2, learning_rate=0.2, steps=300)
    scaled = train_relu_networks(
        x,
        magnitude * y,
        np.sqrt(magnitude) * w1,
        np.sqrt(magnitude) * w2,
        learning_rate=0.2 / magnitude,
        steps=300,
    )
    np.testing.assert_allclose(
        scaled.hidden_weights, np.sqrt(magnitude) * unit.hidden_weights, rtol=1e-9
    )
    np.testing.assert_allclose(scaled.relative_loss, unit.relative_loss, rtol=1e-9)


def test_divergence_raises() -> None:
    x, y, w1, w2 = _problem(6)
    with pytest.raises(ConvergenceError, match="lower the learning rate"):
        train_relu_networks(x, 100 * y, w1, w2, learning_rate=1e3, steps=200)


@pytest.mark.parametrize("rho", [1.0, 0.9, 0.0, -0.5])
def test_correlated_units(rho: float) -> None:
    rng = np.random.default_rng(7)
    v = rng.standard_normal((6, 5))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    u = correlated_units(v, rho, rng)
    np.testing.assert_allclose(np.sum(u * v, axis=1), rho, atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(u, axis=1), 1.0, atol=1e-14)


def test_sample_efficiency_shapes_and_ranges() -> None:
    result = sample_efficiency(replace(TINY, magnitudes=(1.0, 0.1, 0.01)))
    shape = (2, 3, 2, 2)
    for array in (
        result.stl_error,
        result.ptft_error,
        result.stl_train_loss,
        result.ptft_train_loss,
    ):
        assert array.shape == shape
        assert np.all(np.isfinite(array))
        assert np.all(array >= 0)
    assert result.pretraining_loss.shape == (2,)
    # STL is run once per correlation (scale equivalence): equal across magnitudes.
    assert np.array_equal(result.stl_error[:, 0], result.stl_error[:, 2])


def test_sample_efficiency_is_reproducible_by_seed() -> None:
    first, second = sample_efficiency(TINY), sample_efficiency(TINY)
    assert np.array_equal(first.ptft_error, second.ptft_error)
    assert np.array_equal(first.stl_error, second.stl_error)
    other = sample_efficiency(replace(TINY, seed=1))
    assert not np.array_equal(first.ptft_error, other.ptft_error)


def test_teacher_outputs() -> None:
    x = np.array([[1.0, -2.0], [0.5, 0.5]])
    units = np.array([[1.0, 0.0], [0.0, -1.0]])
    np.testing.assert_allclose(teacher_outputs(x, units, 2.0), [6.0, 1.0])


_GOOD = _problem(8)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: relu_network_outputs(_GOOD[0], _GOOD[2][:, :, :2], _GOOD[3]),
            "shapes",
        ),
        (lambda: relu_network_outputs(_GOOD[0], _GOOD[2], _GOOD[3][:, :2]), "shapes"),
        (lambda: relu_network_outputs(_GOOD[0][0, 0], _GOOD[2], _GOOD[3]), "inputs"),
        (lambda: relu_network_outputs(_GOOD[0], _GOOD[2][0], _GOOD[3]), "hidden"),
        (
            lambda: relu_network_outputs(
                np.full_like(_GOOD[0], np.nan), _GOOD[2], _GOOD[3]
            ),
            "not finite",
        ),
        (
            lambda: train_relu_networks(*_GOOD, learning_rate=0.0, steps=1),
            "learning_rate",
        ),
        (
            lambda: train_relu_networks(*_GOOD, learning_rate=[0.1, 0.1], steps=1),
            "learning_rate",
        ),
        (lambda: train_relu_networks(*_GOOD, learning_rate=0.1, steps=0), "steps"),
        (
            lambda: train_relu_networks(*_GOOD, learning_rate=0.1, steps=1.5),  # type: ignore[arg-type]
            "steps",
        ),
        (lambda: correlated_units(np.eye(3), 1.5, np.random.default_rng()), "rho"),
        (lambda: correlated_units(2 * np.eye(3), 0.5, np.random.default_rng()), "unit"),
        (
            lambda: correlated_units(np.ones((2, 1)), 0.5, np.random.default_rng()),
            "d >= 2",
        ),
    ],
)
def test_bad_input_raises(call: Callable[[], object], match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        call()


def test_correlated_units_with_a_parallel_draw() -> None:
    # Regression: v_j drawn from the same seed as the noise made the noise
    # parallel to v_j, its orthogonal part zero, and u_j NaN.
    v = sample_sphere(1, 2, np.random.default_rng(1))
    u = correlated_units(v, 0.0, np.random.default_rng(1))
    np.testing.assert_allclose(np.sum(u * v, axis=1), 0.0, atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(u, axis=1), 1.0, atol=1e-14)


def test_divergence_is_reported_at_the_step_it_happens() -> None:
    # Regression: a diverging run went on for every remaining step on NaN.
    x, y, w1, w2 = _problem(6)
    with pytest.raises(ConvergenceError, match=r"at step \d+ of 100000 "):
        train_relu_networks(x, 100 * y, w1, w2, learning_rate=1e3, steps=10**5)


def test_overflowing_initial_loss_raises() -> None:
    x, y, w1, w2 = _problem(6)
    with pytest.raises(OutOfRangeError, match="rescale"):
        train_relu_networks(1e200 * x, y, w1, w2, learning_rate=0.1, steps=1)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        # Regression: the message said hidden_weights / readout for hidden_init /
        # readout_init.
        (
            lambda: train_relu_networks(
                _GOOD[0], _GOOD[1], _GOOD[2][0], _GOOD[3], learning_rate=0.1, steps=1
            ),
            "^hidden_init",
        ),
        (
            lambda: train_relu_networks(
                _GOOD[0], _GOOD[1], _GOOD[2], _GOOD[3][0], learning_rate=0.1, steps=1
            ),
            "^readout_init",
        ),
        # Regression: targets of another shape raised NumPy's broadcast error.
        (
            lambda: train_relu_networks(
                _GOOD[0],
                _GOOD[1][:, :2],
                _GOOD[2],
                _GOOD[3],
                learning_rate=0.1,
                steps=1,
            ),
            "^targets",
        ),
        (
            lambda: relu_loss_and_gradients(_GOOD[0], np.ones(7), _GOOD[2], _GOOD[3]),
            "^targets",
        ),
        (
            lambda: relu_network_outputs(_GOOD[0][:, :0], _GOOD[2], _GOOD[3]),
            "^inputs",
        ),
        (lambda: correlated_units(np.eye(3)[:2], 0.5, 0), "^rng"),  # type: ignore[arg-type]
        (
            lambda: correlated_units(np.eye(3)[:2], 0.5 + 1j, np.random.default_rng()),
            "^rho",
        ),  # type: ignore[arg-type]
        (
            lambda: correlated_units(np.ones((0, 3)), 0.5, np.random.default_rng()),
            "^units",
        ),
        # Regression: NumPy's einsum error for mismatched dimensions.
        (lambda: teacher_outputs(np.ones((3, 2)), np.eye(3), 1.0), "dimension"),
        (lambda: teacher_outputs(np.ones(2), np.eye(2), 1.0), "^inputs"),
        (lambda: sample_efficiency(None), "^setup"),  # type: ignore[arg-type]
        (lambda: sample_efficiency(vars(TINY)), "^setup"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_are_named(call: Callable[[], object], match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        call()


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        # Each was accepted when built and refused (as setup.<field>) only when
        # sample_efficiency ran; a negative seed raised NumPy's ValueError and
        # a string readout_reinit a TypeError before that.
        ({"correlations": (1.2,)}, r"^correlations\[0\]=1\.2 is outside \[-1, 1\]"),
        ({"correlations": (0.5, complex(0.5, 1))}, r"^correlations\[1\]="),
        ({"correlations": [0.5, None]}, r"^correlations\[1\]=None"),
        ({"correlations": ()}, r"^correlations=\(\) is empty"),
        ({"magnitudes": (0.0,)}, r"^magnitudes\[0\]=0\.0 is outside \(0, inf\)"),
        ({"magnitudes": (1.0, np.nan)}, r"^magnitudes\[1\]=nan is not finite"),
        ({"magnitudes": 1.0}, r"^magnitudes=1\.0 is empty or not a tuple"),
        ({"sample_sizes": (0,)}, r"^sample_sizes\[0\]=0 is below 1"),
        ({"sample_sizes": (4, 2.5)}, r"^sample_sizes\[1\]=2\.5 is not an integer"),
        ({"sample_sizes": ()}, r"^sample_sizes=\(\) is empty"),
        ({"sample_sizes": "16"}, r"^sample_sizes='16' is empty or not a tuple"),
        ({"seeds": 0}, r"^seeds=0 is below 1"),
        ({"seeds": True}, r"^seeds=True is not an integer"),
        ({"dimension": 1}, r"^dimension=1 is below 2"),
        ({"teacher_units": 0}, r"^teacher_units=0 is below 1"),
        ({"width": 2.0}, r"^width=2\.0 is not an integer"),
        ({"aux_samples": None}, r"^aux_samples=None is not an integer"),
        ({"steps": 0}, r"^steps=0 is below 1"),
        ({"test_samples": -1}, r"^test_samples=-1 is below 1"),
        ({"seed": -1}, r"^seed=-1 is below 0"),
        ({"finetune_steps": 0}, r"^finetune_steps=0 is below 1"),
        ({"init_scale": -1.0}, r"^init_scale=-1\.0 is outside \(0, inf\)"),
        ({"init_scale": 1j}, r"^init_scale=1j is complex"),
        ({"learning_rate": np.inf}, r"^learning_rate=inf is not finite"),
        ({"learning_rate": 0.0}, r"^learning_rate=0\.0 is outside \(0, inf\)"),
        ({"readout_reinit": np.nan}, r"^readout_reinit=nan is not finite"),
        ({"readout_reinit": "0"}, r"^readout_reinit='0' is a string"),
    ],
)
def test_a_setup_refuses_a_bad_field_when_built(
    fields: dict[str, object], match: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        SampleEfficiencySetup(**fields)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match=match):
        replace(TINY, **fields)  # type: ignore[arg-type]


def test_a_setup_stores_tuples_of_python_numbers() -> None:
    setup = SampleEfficiencySetup(
        correlations=[np.float64(0.5), 1],  # type: ignore[arg-type]
        magnitudes=[np.float32(0.25)],  # type: ignore[arg-type]
        sample_sizes=[np.int64(4)],  # type: ignore[arg-type]
        seeds=np.int64(2),  # type: ignore[arg-type]
        finetune_steps=np.int32(7),  # type: ignore[arg-type]
    )
    assert setup.correlations == (0.5, 1.0)
    assert setup.magnitudes == (0.25,)
    assert setup.sample_sizes == (4,)
    assert type(setup.correlations[1]) is float
    assert type(setup.sample_sizes[0]) is int
    assert type(setup.seeds) is int
    assert type(setup.finetune_steps) is int
    # A list stored as given could be changed after the checks, and made the
    # frozen setup unhashable.
    assert hash(setup) == hash(replace(setup))


@pytest.mark.parametrize(
    ("init_scale", "target_scale", "rate", "last_step"),
    [
        # Overflows within the first check interval.
        (1.0, 100.0, 1e3, False),
        # From tiny weights, the overflow comes after several check intervals
        # (at steps 54 and 139, not multiples of networks._CHECK_EVERY)...
        (1e-5, 1.0, 3.0, False),
        (1e-20, 1.0, 3.0, False),
        # ... or in the last, partial interval of a run that stops right after.
        (1e-20, 1.0, 3.0, True),
    ],
)
def test_divergence_step_is_the_first_with_non_finite_iterates(
    init_scale: float, target_scale: float, rate: float, last_step: bool
) -> None:
    """The step named is the first whose update leaves an inf or NaN (a textbook loop
    of the same updates finds it), though only sums are checked on the way, every
    networks._CHECK_EVERY steps, and the steps since the last check replayed."""
    x, y, w1, w2 = _problem(6)
    y = target_scale * y
    w1, w2 = init_scale * w1, init_scale * w2
    hidden, readout = w1.copy(), w2.copy()
    first = None
    with np.errstate(all="ignore"):
        for step in range(10**5):
            _, hidden_gradient, readout_gradient = networks._loss_and_gradients(
                x, y, hidden, readout
            )
            hidden -= rate * hidden_gradient
            readout -= rate * readout_gradient
            if not (np.isfinite(hidden).all() and np.isfinite(readout).all()):
                first = step
                break
    assert first is not None
    assert first >= networks._CHECK_EVERY or init_scale == 1.0
    # Not a step at which a check falls: the steps since the last are replayed.
    assert (first + 1) % networks._CHECK_EVERY != 0
    steps = first + 1 if last_step else 10**5
    with pytest.raises(ConvergenceError, match=rf"at step {first} of {steps} "):
        train_relu_networks(x, y, w1, w2, learning_rate=rate, steps=steps)


@pytest.mark.parametrize("steps", [(25, 25), (25, 40)])
def test_side_by_side_training_is_bitwise_that_of_separate_runs(
    steps: tuple[int, int],
) -> None:
    """Runs stacked into one (equal step counts) or not: each network's iterates
    and loss are those of its own call, bit for bit."""
    first, second = _problem(1, count=2, samples=6), _problem(2, count=3, samples=6)
    trained = experiment._train_side_by_side((first, second), 0.05, steps)
    for run, count, result in zip((first, second), steps, trained, strict=True):
        alone = train_relu_networks(*run, learning_rate=0.05, steps=count)
        assert np.array_equal(result.hidden_weights, alone.hidden_weights)
        assert np.array_equal(result.readout, alone.readout)
        assert np.array_equal(result.relative_loss, alone.relative_loss)


def test_the_errors_are_those_of_the_single_stream_implementation() -> None:
    # Regression: the errors of TINY at rho = 0.9 as computed before the
    # pretraining was cached (commit 6065fc9: one generator drew the
    # pretraining and everything after it in turn). A cached pretraining
    # that did not replay its draws on the main stream would change them by
    # O(1); rtol 1e-9 leaves room for another BLAS's rounding over 30 steps.
    experiment._pretrain.cache_clear()
    result = sample_efficiency(replace(TINY, correlations=(0.9,)))
    before_ptft = [0.056060563731985966, 0.3013292150037075, 0.04784228668901168,
                   0.027608313017553978, 0.4569624141328104, 0.9833185831601928,
                   0.3166653531012862, 0.9899576254084886]  # fmt: skip
    before_stl = [0.531291059296149, 0.9986451188700507, 0.418388772839075,
                  0.327303344422348] * 2  # fmt: skip
    np.testing.assert_allclose(result.ptft_error.ravel(), before_ptft, rtol=1e-9)
    np.testing.assert_allclose(result.stl_error.ravel(), before_stl, rtol=1e-9)


def test_shared_pretraining_leaves_the_results_unchanged() -> None:
    """A setup whose pretraining is cached (another correlation of the same
    master seed ran first) gives the results of a cold run, bit for bit."""
    experiment._pretrain.cache_clear()
    cold = sample_efficiency(replace(TINY, correlations=(0.9,)))
    sample_efficiency(replace(TINY, correlations=(1.0,)))
    hits = experiment._pretrain.cache_info().hits
    warm = sample_efficiency(replace(TINY, correlations=(0.9,)))
    assert experiment._pretrain.cache_info().hits == hits + 1
    for field in ("stl_error", "ptft_error", "ptft_train_loss", "pretraining_loss"):
        assert np.array_equal(getattr(cold, field), getattr(warm, field)), field
