"""Contract entries of the diagonal-network simulations (ptft-diagonal-networks).

:mod:`implicit_bias.validation.diagonal_networks`,
:mod:`~implicit_bias.validation.diagonal_pretrain_finetune`,
:mod:`~implicit_bias.validation.diagonal_experiments` and
:mod:`~implicit_bias.validation.diagonal_learned_sparsity`. The trainers run on
tiny problems (n <= 3, D <= 4, K <= 2) for at most 300 steps per draw, with
data, initialization and learning-rate scales across the float64 range:
finite results or named errors (OutOfRangeError, ConvergenceError) only. The
Appendix E.1 experiments have fixed configurations (seconds each): their
valid call is the quick configuration and only seeds are drawn, for the cheap
ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from implicit_bias.validation import DiagonalTrainingResult, train_diagonal_networks
from tests.contract.harness import Exempt, Spec

_V = "implicit_bias.validation"

_STEPS = 300
_EXAMPLES = 8


def _floats(min_value: float, max_value: float) -> st.SearchStrategy[float]:
    return st.floats(min_value=min_value, max_value=max_value, allow_nan=False)


def _powers(low: int, high: int) -> st.SearchStrategy[float]:
    """10^k for integer k in [low, high]: scales across the float64 range."""
    return st.integers(low, high).map(lambda k: 10.0**k)


def _matrix(rows: int, columns: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((rows, columns))


_SCALES = st.one_of(st.just(0.0), _powers(-150, 150))
_RATES = _powers(-300, 300)
_TOLS = st.one_of(st.just(0.0), _powers(-300, 0))
_SEEDS = st.integers(0, 2**32)


@st.composite
def _training(draw: Any, multitask: bool) -> dict[str, Any]:
    samples = draw(st.integers(1, 3))
    inputs = draw(st.integers(1, 4))
    outputs = draw(st.integers(1, 2))
    seed = draw(st.integers(0, 99))
    count = draw(st.integers(1, 2))
    X = draw(_powers(-150, 150)) * _matrix(samples, inputs, seed)
    targets = draw(_powers(-150, 150)) * _matrix(samples, outputs, seed + 1)
    arguments = {
        "X": X,
        "Y" if multitask else "y": targets if multitask else targets[:, 0],
        "w1_init": np.array([draw(_SCALES) for _ in range(count)])[:, None],
        "w2_init": draw(_SCALES),
        "learning_rate": draw(_RATES),
        "sample_counts": draw(
            st.one_of(
                st.none(),
                st.lists(st.integers(1, samples), min_size=count, max_size=count),
            )
        ),
        "tol": draw(_TOLS),
        "max_steps": draw(st.integers(0, _STEPS)),
        "strict": draw(st.booleans()),
    }
    return arguments


def _training_valid(multitask: bool) -> dict[str, Any]:
    return {
        "X": np.eye(3, 4),
        "Y" if multitask else "y": (
            np.array([[1.0, 0.5], [-2.0, 0.0], [0.5, 1.0]])
            if multitask
            else np.array([1.0, -2.0, 0.5])
        ),
        "w1_init": 0.1,
        "w2_init": 0.1,
        "learning_rate": 0.1,
        "sample_counts": [3, 2],
        "tol": 1e-8,
        "max_steps": 5000,
    }


def _training_invalid(target: str) -> dict[str, list[Any]]:
    return {
        "X": [np.ones(3), np.ones((1, 1, 3, 4)), np.ones((3, 0))],
        target: [np.ones(2), np.ones((2, 2, 2, 2))],
        "w1_init": [np.ones((2, 2, 4)), np.ones(5)],
        "learning_rate": [0.0, -1.0, [0.1, 0.1, 0.1]],
        "sample_counts": [0, 4, [True, True], [[3, 2]]],
        "tol": [-1.0, [1e-3]],
        "max_steps": [-1],
        "strict": [1, "yes", None],
    }


def _training_skips(target: str) -> dict[tuple[str, str], str]:
    return {
        ("X", "extra-axis"): "X of shape (1, n, D) is one network's (K, n, D)",
        (target, "extra-axis"): f"{target} with a leading axis of 1 is K = 1",
    }


def _pretrained() -> DiagonalTrainingResult:
    return train_diagonal_networks(
        np.eye(2), [9.0, -16.0], 1e-3, 1e-3, learning_rate=0.02, tol=1e-8
    )


@st.composite
def _finetuning_start(draw: Any) -> dict[str, Any]:
    return {
        "rescale": draw(st.one_of(st.just(0.0), _powers(-300, 300))),
        "gamma": draw(_floats(-1e300, 1e300)),
    }


@st.composite
def _ptft(draw: Any) -> dict[str, Any]:
    samples = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 99))
    return {
        "X_aux": draw(_powers(-100, 100)) * _matrix(samples, 3, seed),
        "y_aux": draw(_powers(-100, 100)) * _matrix(1, samples, seed + 1)[0],
        "X": draw(_powers(-100, 100)) * _matrix(samples, 3, seed + 2),
        "y": draw(_powers(-100, 100)) * _matrix(1, samples, seed + 3)[0],
        "init_scale": draw(_powers(-150, 150)),
        "gamma": draw(_floats(-1e150, 1e150)),
        "learning_rate": draw(_RATES),
        "rescale": draw(st.one_of(st.just(0.0), _powers(-150, 150))),
        # At most the n rows drawn (the valid call's [2] is for n = 2).
        "aux_sample_counts": draw(
            st.one_of(st.none(), st.integers(1, samples).map(lambda m: [m]))
        ),
        "sample_counts": draw(
            st.one_of(st.none(), st.integers(1, samples).map(lambda m: [m]))
        ),
        "tol": draw(_TOLS),
        "max_steps": draw(st.integers(0, _STEPS)),
    }


@st.composite
def _overlap(draw: Any) -> dict[str, Any]:
    size = draw(st.integers(1, 5))
    values = draw(
        st.lists(_floats(-1e308, 1e308), min_size=size, max_size=size).filter(
            lambda v: any(x != 0 for x in v)
        )
    )
    mask = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    return {"coefficients": np.array(values), "support": np.array(mask)}


_QUICK_INVALID: dict[str, list[Any]] = {"quick": [1, "yes", None], "seed": [-1]}


@st.composite
def _predictors(draw: Any) -> np.ndarray:
    """Predictors (..., D) with entries across the float64 range, none zero."""
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)))
    seed = draw(st.integers(0, 2**16))
    beta = draw(_powers(-300, 300)) * np.random.default_rng(seed).standard_normal(shape)
    # Sparse predictors: entries set to 0, never a whole one.
    zero = np.random.default_rng(seed + 1).random(shape) < draw(_floats(0.0, 1.0))
    zero[..., 0] = False
    beta[zero] = 0.0
    return beta


@st.composite
def _top_k(draw: Any) -> dict[str, Any]:
    beta = draw(_predictors())
    return {"coefficients": beta, "k": draw(st.integers(0, beta.shape[-1]))}


_PREDICTOR_INVALID: list[Any] = [
    np.zeros(3),
    [[1.0, 2.0], [0.0, 0.0]],
    np.ones((1, 1, 1, 1, 1, 3)),
    np.empty((0, 3)),
]

SPECS: dict[str, Spec | Exempt] = {
    # -------------------------------------------------------- diagonal_networks
    f"{_V}.DEFAULT_MAX_STEPS": Exempt("constant: the diagonal trainers' step cap"),
    f"{_V}.DEFAULT_TOLERANCE": Exempt("constant: the diagonal trainers' tolerance"),
    f"{_V}.DiagonalTrainingResult": Exempt("result record of the diagonal trainers"),
    f"{_V}.diagonal_coefficients": Spec(
        valid=lambda: {
            "w1_plus": np.array([0.3, 2.0, -1.0]),
            "w2_plus": np.array([1.5, -0.1, 0.5]),
            "w1_minus": np.array([0.2, 1.0, 0.0]),
            "w2_minus": np.array([1.0, 0.3, 2.0]),
        },
        domains={
            name: _floats(-1e300, 1e300)
            for name in ("w1_plus", "w2_plus", "w1_minus", "w2_minus")
        },
        invalid={"w1_plus": [np.ones(2)]},
        skip_probes={
            (name, "extra-axis"): "the arguments broadcast: (1, D) against (D,)"
            for name in ("w1_plus", "w2_plus", "w1_minus", "w2_minus")
        },
    ),
    f"{_V}.train_diagonal_networks": Spec(
        valid=lambda: _training_valid(multitask=False),
        domains=_training(multitask=False),
        invalid=_training_invalid("y"),
        skip_probes=_training_skips("y"),
        max_examples=_EXAMPLES,
    ),
    f"{_V}.train_multitask_diagonal_networks": Spec(
        valid=lambda: _training_valid(multitask=True),
        domains=_training(multitask=True),
        invalid=_training_invalid("Y"),
        skip_probes=_training_skips("Y"),
        max_examples=_EXAMPLES,
    ),
    # ----------------------------------------------- diagonal_pretrain_finetune
    f"{_V}.PretrainFinetuneResult": Exempt(
        "result record of pretrain_finetune_diagonal_networks"
    ),
    f"{_V}.finetuning_initialization": Spec(
        valid=lambda: {"pretrained": _pretrained(), "rescale": 0.5, "gamma": 1e-2},
        domains=_finetuning_start(),
        invalid={
            "pretrained": [np.ones((1, 2)), "result"],
            "rescale": [-1.0, np.ones((2, 2))],
            "gamma": [np.ones((1, 1))],
        },
    ),
    f"{_V}.pretrain_finetune_diagonal_networks": Spec(
        valid=lambda: {
            "X_aux": np.eye(2),
            "y_aux": np.array([4.0, 0.0]),
            "X": np.eye(2),
            "y": np.array([1.0, 1.0]),
            "init_scale": 1e-3,
            "gamma": 1e-3,
            "learning_rate": 0.05,
            "rescale": 0.5,
            "aux_sample_counts": [2],
            "sample_counts": [2],
            "tol": 1e-8,
            "max_steps": 5000,
        },
        domains=_ptft(),
        invalid={
            "X_aux": [np.ones((2, 3))],
            "y_aux": [np.ones(3)],
            "X": [np.ones((2, 3)), np.ones((3, 2))],
            "y": [np.ones(3)],
            "init_scale": [0.0, -1.0],
            "gamma": [np.ones((1, 1))],
            "learning_rate": [0.0],
            "rescale": [-1.0, np.ones((2, 2))],
            "aux_sample_counts": [0, 3],
            "sample_counts": [0, 3],
            "tol": [-1.0],
            "max_steps": [-1],
        },
        skip_probes={
            ("X_aux", "extra-axis"): "(1, n, D) is one network's (K, n, D)",
            ("y_aux", "extra-axis"): "(1, n) is one network's (K, n)",
            ("X", "extra-axis"): "(1, n, D) is one network's (K, n, D)",
            ("y", "extra-axis"): "(1, n) is one network's (K, n)",
        },
        max_examples=_EXAMPLES,
    ),
    f"{_V}.support_overlap": Spec(
        valid=lambda: {
            "coefficients": np.array([3.0, 0.0, 4.0]),
            "support": [True, True, False],
        },
        domains=_overlap(),
        skip_probes={("coefficients", "extra-axis"): "a batch of predictors, (..., D)"},
        invalid={
            "coefficients": [np.zeros(3), np.ones((1, 1, 1, 3))],
            "support": [[1, 0, 0], [True], np.array([[True, True, False]])],
        },
    ),
    # ----------------------------------------------------- diagonal_experiments
    f"{_V}.NormsVersusSampleSize": Exempt("result record of norms_versus_sample_size"),
    f"{_V}.OverlapVersusRescaling": Exempt("result record of overlap_versus_rescaling"),
    # The two Appendix E.1 experiments take seconds even in the quick
    # configuration: the valid call only (seeds are integers, probed below).
    f"{_V}.norms_versus_sample_size": Spec(
        valid=lambda: {"quick": True, "seed": 0}, invalid=_QUICK_INVALID
    ),
    f"{_V}.overlap_versus_rescaling": Spec(
        valid=lambda: {"quick": True, "seed": 0}, invalid=_QUICK_INVALID
    ),
    f"{_V}.min_q_endpoint_errors": Spec(
        valid=lambda: {"seed": 1},
        domains={"seed": _SEEDS},
        invalid={"seed": [-1]},
        max_examples=2,
    ),
    f"{_V}.ptft_min_q_endpoint_errors": Spec(
        valid=lambda: {"seed": 11}, invalid={"seed": [-1]}
    ),
    f"{_V}.multitask_planted_distances": Spec(
        valid=lambda: {"seed": 0}, invalid={"seed": [-1]}
    ),
    f"{_V}.multitask_dense_gap": Spec(
        valid=lambda: {"seed": 0},
        domains={"seed": _SEEDS},
        invalid={"seed": [-1]},
        max_examples=2,
    ),
    f"{_V}.stacks_repeats": Spec(
        valid=lambda: {"networks": 2, "samples": 50, "dimension": 500},
        domains={
            "networks": st.integers(1, 10**6),
            "samples": st.integers(1, 10**6),
            "dimension": st.integers(1, 10**6),
        },
        invalid={
            "networks": [0, -1, 1.5],
            "samples": [0, -1, 2.5],
            "dimension": [0, -3, 1.0],
        },
    ),
    # ------------------------------------------------ diagonal_learned_sparsity
    f"{_V}.LearnedSolutions": Exempt("result record of learned_solutions"),
    f"{_V}.learned_solutions": Spec(
        valid=lambda: {"quick": True, "seed": 0, "repeats": 2},
        invalid={
            **_QUICK_INVALID,
            "repeats": [1, 0, -2, 2.0],
            "aux_samples": [0, -1, 2.5, True],
            "rescale": [0.0, -0.1, float("nan"), float("inf"), True],
        },
    ),
    f"{_V}.variance_beyond_top_k": Spec(
        valid=lambda: {"coefficients": np.array([3.0, 0.0, -4.0]), "k": 1},
        domains=_top_k(),
        invalid={"coefficients": _PREDICTOR_INVALID, "k": [-1, 4, np.int64(4)]},
        skip_probes={("coefficients", "extra-axis"): "a batch of predictors, (..., D)"},
    ),
    f"{_V}.mean_weight_rank": Spec(
        valid=lambda: {"coefficients": np.array([3.0, 0.0, -4.0])},
        domains={"coefficients": _predictors()},
        invalid={"coefficients": _PREDICTOR_INVALID},
        skip_probes={("coefficients", "extra-axis"): "a batch of predictors, (..., D)"},
    ),
    f"{_V}.multitask_dense_gaps": Spec(
        valid=lambda: {"seeds": [0, 1]},
        invalid={"seeds": [[-1], [], [0.5]]},
        max_examples=2,
    ),
}
