"""The argument contract of the objects the public API returns: methods and fields.

:mod:`tests.contract.test_contract` drives every name of ``__all__`` of its
:data:`~tests.contract.test_contract.MODULES`; this module drives what those
names give back. It discovers every class that

* is public in those modules (``__all__``),
* a public function returns (its return annotation, through unions, tuples and
  generics, via :func:`typing.get_type_hints`),
* a public constant holds (``squared_deviation``, the factories of
  ``BUILTIN_SWEEPS``), or
* the fields and methods of a discovered class return (transitively),

plus :data:`EXTRA_CLASSES`, the records of other packages the issue names
(:class:`~implicit_bias.claims.source.Citation`). Each needs an entry in
:data:`OBJECTS` listing its fields and every public method (functions,
properties, ``__call__`` and callable fields), so a new method or field fails
until it is specified, as a new function fails the function contract.

The contract:

* **Methods** -- each is called on real instances (those the returning
  functions give for their function-contract valid call, plus the entry's own):
  a valid call in every form of its argument (a Python float and int, a NumPy
  scalar, a 0-d array, a list, a tuple, a 2-d array; an ``mpmath.mpf`` for a
  real scalar) gives a finite result (a float64 array of the argument's shape
  for an array method); NaN, +-inf, complex, ``mpmath.mpc``, strings, None,
  lists, ragged lists and objects of other types, and the entry's own
  out-of-domain values, raise
  :class:`~implicit_bias.errors.InvalidArgumentError` naming the argument; the
  float64 extremes give a finite result or a named error naming it (never NaN
  or a foreign error).
* **Fields** -- every field of every instance is finite (through containers),
  unless the entry quotes the docstring documenting an infinity.
* **Construction** -- a class users build (:class:`Construction`) refuses a
  bad field (the generic probes of :func:`~tests.contract.harness.generic_probes`
  of each valid field value, and the entry's own) with an
  :class:`~implicit_bias.errors.InvalidArgumentError` naming the field; a
  result record users never build is :class:`~tests.contract.harness.Exempt`
  with the reason; a class whose constructor is a public function has its
  function-contract entry (:class:`ByFunctionContract`).

A probe showing a defect owned by another change is ``pending``: it runs as a
strict xfail, so it fails once fixed, until the entry is updated.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import importlib
import inspect
import math
import types
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal

import mpmath
import numpy as np
import pytest

from implicit_bias.claims.source import Citation
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics import (
    Penalty,
    absolute_deviation,
    join_penalty,
    power_deviation,
    squared_deviation,
)
from implicit_bias.strategies import QuasiConvexPenalty
from implicit_bias.validation import (
    FeatureClusterSetup,
    SampleEfficiencySetup,
    compare_mean,
)
from implicit_bias.validation.sweeps import (
    BUILTIN_SWEEPS,
    SweepError,
    SweepInterrupted,
    SweepSummary,
)
from tests.contract.harness import (
    COUNTS,
    NO_DEFAULT,
    Exempt,
    Probe,
    Spec,
    assert_finite,
    cpu_budget,
    generic_probes,
)
from tests.contract.test_contract import IN_DOMAIN_ERRORS, MODULES, SPECS

#: Records outside :data:`MODULES` whose fields the issue asks to check.
EXTRA_CLASSES: tuple[type, ...] = (Citation,)

#: CPU seconds one method call or construction may take before it is a hang.
BUDGET_SECONDS = 60.0

Kind = Literal["array", "real", "text", "none"]


@dataclasses.dataclass(frozen=True)
class Method:
    """How to call one public method, property or callable field.

    Attributes:
      kind: ``"array"`` (one real array-like argument, float64 result of its
        shape), ``"real"`` (one real scalar, an ``mpmath.mpf`` result),
        ``"text"`` (one string argument) or ``"none"`` (a property, or a method
        without arguments).
      argument: the parameter's name, which messages must name (called
        positionally: a callable field's own parameter name is its author's).
      valid: a valid value of the argument.
      invalid: out-of-domain values beyond the generic probes of the kind.
      invalid_on: instance label -> out-of-domain values on that instance only.
      off: instance label -> why the method is not called there.
      infinite: the docstring's words documenting an infinite result, or None.
      pending: probe name -> the open defect it shows (a strict xfail).
    """

    kind: Kind = "none"
    argument: str = ""
    valid: Any = None
    invalid: Sequence[Any] = ()
    invalid_on: Mapping[str, Sequence[Any]] = dataclasses.field(default_factory=dict)
    off: Mapping[str, str] = dataclasses.field(default_factory=dict)
    infinite: str | None = None
    pending: Mapping[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Construction:
    """How users build the class, and what it must refuse.

    Attributes:
      valid: keyword arguments of a valid construction, one per field.
      invalid: field -> out-of-domain values beyond the generic probes.
      skip_probes: (field, probe name) -> why that generic probe is in the domain.
      pending: (field, probe name) -> the open defect it shows (a strict xfail).
      pending_all: the open defect every probe shows (no field is checked yet).
    """

    valid: Callable[[], dict[str, Any]]
    invalid: Mapping[str, Sequence[Any]] = dataclasses.field(default_factory=dict)
    skip_probes: Mapping[tuple[str, str], str] = dataclasses.field(default_factory=dict)
    pending: Mapping[tuple[str, str], str] = dataclasses.field(default_factory=dict)
    pending_all: str | None = None


@dataclasses.dataclass(frozen=True)
class ByFunctionContract:
    """The class is public and its constructor has a function-contract entry."""

    key: str


@dataclasses.dataclass(frozen=True)
class ClassSpec:
    """The contract of one returned class.

    Attributes:
      fields: every field, in any order (a new one fails until listed).
      construction: how construction is checked, or why it is not.
      methods: every public method, property and callable field -> how to call it.
      instances: label -> a factory of an instance, beyond those the returning
        functions give for their function-contract valid call.
      infinite_fields: field -> the docstring's words documenting an infinity.
    """

    fields: tuple[str, ...]
    construction: Construction | Exempt | ByFunctionContract
    methods: Mapping[str, Method] = dataclasses.field(default_factory=dict)
    instances: Mapping[str, Callable[[], Any]] = dataclasses.field(default_factory=dict)
    infinite_fields: Mapping[str, str] = dataclasses.field(default_factory=dict)


# ------------------------------------------------------------------ discovery


def _resolve(key: str) -> Any:
    module_name, _, name = key.rpartition(".")
    return getattr(importlib.import_module(module_name), name)


def _classes_in(annotation: Any) -> Iterator[type]:
    """The implicit_bias classes an annotation names (through generics)."""
    if typing.get_origin(annotation) is None and isinstance(annotation, type):
        if annotation.__module__.startswith("implicit_bias."):
            yield annotation
        return
    for argument in typing.get_args(annotation):
        yield from _classes_in(argument)


def _returned(function: Callable[..., Any]) -> list[type]:
    return list(_classes_in(typing.get_type_hints(function).get("return")))


def _held(value: Any) -> Iterator[type]:
    """Classes of a public constant: its own, its items', its factories' results."""
    if isinstance(value, type):
        return
    if type(value).__module__.startswith("implicit_bias."):
        yield type(value)
    elif inspect.isfunction(value):
        yield from _returned(value)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _held(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _held(item)


def _members(cls: type) -> dict[str, Any]:
    """Public attributes defined by cls and its implicit_bias bases (and __call__)."""
    members: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        if base.__module__.startswith("implicit_bias."):
            for name, value in vars(base).items():
                if name == "__call__" or not name.startswith("_"):
                    members[name] = value
    return members


def _static_fields(cls: type) -> tuple[str, ...] | None:
    """Dataclass or NamedTuple fields; None for other classes (exceptions)."""
    if dataclasses.is_dataclass(cls):
        return tuple(field.name for field in dataclasses.fields(cls))
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return tuple(cls._fields)
    return None


def _mentions_callable(annotation: Any) -> bool:
    if typing.get_origin(annotation) is collections.abc.Callable:
        return True
    return any(_mentions_callable(item) for item in typing.get_args(annotation))


def _methods(cls: type) -> set[str]:
    """Public methods, properties and callable fields of cls."""
    fields = set(_static_fields(cls) or ())
    methods = {
        name
        for name, value in _members(cls).items()
        if name not in fields
        and (
            inspect.isfunction(value)
            or isinstance(
                value, property | functools.cached_property | staticmethod | classmethod
            )
        )
    }
    hints = typing.get_type_hints(cls)
    methods |= {name for name in fields if _mentions_callable(hints.get(name))}
    return methods


def _attribute_classes(cls: type) -> Iterator[type]:
    """Classes the fields and methods of cls give back."""
    for name, hint in typing.get_type_hints(cls).items():
        if name in (_static_fields(cls) or ()):
            yield from _classes_in(hint)
    for value in _members(cls).values():
        function = value.fget if isinstance(value, property) else value
        if inspect.isfunction(function):
            yield from _returned(function)


def _discover() -> dict[type, list[str]]:
    """Each returned class -> the public functions returning it (by key)."""
    found: dict[type, list[str]] = {cls: [] for cls in EXTRA_CLASSES}
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            value = getattr(module, name)
            key = f"{module_name}.{name}"
            if isinstance(value, type):
                found.setdefault(value, [])
            elif inspect.isfunction(value):
                for cls in _returned(value):
                    found.setdefault(cls, []).append(key)
            else:
                for cls in _held(value):
                    found.setdefault(cls, [])
    queue = list(found)
    while queue:
        for cls in _attribute_classes(queue.pop()):
            if cls not in found:
                found[cls] = []
                queue.append(cls)
    return found


RETURNED = _discover()


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


# ----------------------------------------------------------------- probes


def _array_forms(x: float) -> list[tuple[str, Any]]:
    forms: list[tuple[str, Any]] = [
        ("float", x),
        ("numpy-scalar", np.float64(x)),
        ("0-d", np.array(x)),
        ("list", [x, x]),
        ("tuple", (x,)),
        ("2-d", np.array([[x], [x]])),
        ("float32", np.array([x], dtype=np.float32)),
    ]
    if float(x).is_integer():
        forms.append(("int", int(x)))
    return forms


def _real_forms(x: float) -> list[tuple[str, Any]]:
    forms: list[tuple[str, Any]] = [
        ("float", x),
        ("numpy-scalar", np.float64(x)),
        ("0-d", np.array(x)),
        ("mpf", mpmath.mpf(x)),
    ]
    if float(x).is_integer():
        forms.append(("int", int(x)))
    return forms


def _valid_forms(method: Method) -> list[tuple[str, Any]]:
    if method.kind == "array":
        return _array_forms(method.valid)
    if method.kind == "real":
        return _real_forms(method.valid)
    if method.kind == "text":
        return [("str", method.valid)]
    return [("no-argument", None)]


def _method_probes(method: Method, label: str) -> list[tuple[str, Any]]:
    """(probe name, value) of the out-of-domain calls of a method on an instance."""
    x = method.valid
    probes: list[tuple[str, Any]] = []
    if method.kind in ("array", "real"):
        probes += [
            ("nan", math.nan),
            ("inf", math.inf),
            ("-inf", -math.inf),
            ("complex", complex(x, 1.0)),
            ("mpc", mpmath.mpc(x, 1.0)),
            ("string", str(x)),
            ("None", None),
            ("object", object()),
        ]
    if method.kind == "array":
        probes += [
            ("nan-entry", [x, math.nan]),
            ("complex-entry", [x, complex(x, 1.0)]),
            ("ragged", [[x, x], [x]]),
        ]
    if method.kind == "real":
        probes += [("bool", True), ("list", [x]), ("array", np.array([x]))]
    if method.kind == "text":
        probes += [("None", None), ("number", 1), ("list", [x])]
    probes += [(f"invalid[{i}]", value) for i, value in enumerate(method.invalid)]
    probes += [
        (f"invalid[{label}][{i}]", value)
        for i, value in enumerate(method.invalid_on.get(label, ()))
    ]
    return probes


_EXTREMES = {
    "tiny": 5e-324,
    "max": 1.7976931348623157e308,
    "-max": -1.7976931348623157e308,
}


# ----------------------------------------------------------- the entries

_N = "implicit_bias.numerics"
_V = "implicit_bias.validation"


def _quartic(z: np.ndarray) -> np.ndarray:
    return (z - 1.0) ** 4


def _quartic_mp(z: Any) -> Any:
    return (z - 1) ** 4


_PENALTIES: dict[str, Callable[[], Any]] = {
    "squared_deviation": lambda: squared_deviation,
    "absolute_deviation": lambda: absolute_deviation,
    "power 3": lambda: power_deviation(3.0),
    "power 0.5": lambda: power_deviation(0.5),
    "join (closed form)": lambda: join_penalty(squared_deviation, absolute_deviation),
    "join (generic)": lambda: join_penalty(squared_deviation, power_deviation(3.0)),
    "user": lambda: Penalty("(z-1)^4", _quartic, _quartic_mp),
}
# "join_penalty" is the function contract's valid call, squared (+) absolute.
_JOINS = ("join (closed form)", "join (generic)", "join_penalty")
# Defined on [1, inf): eq. (11) of adaptive-tangent-features.
_BELOW_ONE: dict[str, Sequence[Any]] = {
    label: [0.5, [2.0, 0.5], 1.0 - 2**-52] for label in _JOINS
}
_OMEGA_INFINITE = "beyond the float64 range it returns inf"


def _summary() -> SweepSummary:
    return SweepSummary(
        total=3,
        already_stored=1,
        computed=1,
        stored_by_others=0,
        failed=1,
        seconds=0.5,
        blas_threads=1,
    )


def _citation() -> dict[str, Any]:
    return {
        "title": "A note on engines",
        "authors": ("Ada Lovelace", "Charles Babbage"),
        "year": 1843,
        "venue": "Scientific Memoirs 1843",
        "arxiv": "1843.00001",
        "arxiv_version": "v2",
        "doi": "10.1000/engine-1",
        "url": "https://example.org/note",
        "version_note": "the translator's notes A-G",
    }


def _sample_efficiency_setup() -> dict[str, Any]:
    return {
        field.name: getattr(SampleEfficiencySetup(), field.name)
        for field in dataclasses.fields(SampleEfficiencySetup)
    } | {"finetune_steps": 500}


def _feature_cluster_setup() -> dict[str, Any]:
    return {
        "sample_sizes": (8, 32),
        "seeds": 2,
        "dimension": 4,
        "teacher_units": 3,
        "width": 6,
        "rich_scale": 1e-2,
        "lazy_scale": 1.0,
        "rich_learning_rate": 0.2,
        "lazy_learning_rate": 0.02,
        "steps": 20,
        "max_clusters": 4,
        "restarts": 2,
        "test_samples": 20,
        "seed": 0,
    }


_FREE_TEXT = "free text: any string is valid"
#: The probe names of an array argument.
_GENERIC_ARRAY_PROBES = tuple(
    name for name, _ in _method_probes(Method("array", "v", 3.0), label="")
)
_RESULT = "result record of {}: users read it, the library builds it"


OBJECTS: dict[str, ClassSpec] = {
    # ------------------------------------------------------------ numerics
    f"{_N}.multitask.L12Solution": ClassSpec(
        fields=("beta", "dual", "duality_gap"),
        construction=Exempt(_RESULT.format("min_l12_interpolant")),
    ),
    f"{_N}.relu_kernels.RkhsProjection": ClassSpec(
        fields=("inside", "outside", "target", "coefficients"),
        construction=Exempt(_RESULT.format("relu_rkhs_projection")),
        methods={"outside_fraction": Method()},
    ),
    f"{_N}.tangent_features.penalties.Penalty": ClassSpec(
        fields=("name", "function", "mp", "tilde", "exponent"),
        construction=Construction(
            valid=lambda: {
                "name": "(z-1)^4",
                "function": _quartic,
                "mp": _quartic_mp,
                "tilde": power_deviation(4.0).tilde,
                "exponent": 4.0,
            },
            invalid={
                "name": [""],
                "function": [None, 1.0, "omega"],
                "mp": [None, 2.0],
                "tilde": [1.0, "tilde"],
                # p of |z-1|^p, in (0, inf) as for power_deviation.
                "exponent": [True, 0.0, -1.0, -5e-324, "4", np.ones(2)],
            },
            skip_probes={("name", "unknown-option"): _FREE_TEXT},
        ),
        methods={
            "__call__": Method(
                "array", "z", 3.0, invalid_on=_BELOW_ONE, infinite=_OMEGA_INFINITE
            ),
            "function": Method(
                "array", "z", 3.0, invalid_on=_BELOW_ONE, infinite=_OMEGA_INFINITE
            ),
            "mp": Method("real", "z", 3.0, invalid_on=_BELOW_ONE),
            "tilde": Method(
                "array",
                "u",
                2.0,
                invalid=[-1.0, [1.0, -1e-300], -5e-324],
                off={
                    label: "tilde is None: no closed form of omega~ (documented)"
                    for label in ("join (generic)", "user")
                },
            ),
        },
        instances=_PENALTIES,
    ),
    # ---------------------------------------------------------- strategies
    "implicit_bias.strategies.QuasiConvexPenalty": ClassSpec(
        fields=(
            "left_coefficient",
            "left_exponent",
            "right_coefficient",
            "right_exponent",
            "quadratic_coefficient",
            "saturating_coefficient",
        ),
        construction=ByFunctionContract("implicit_bias.strategies.QuasiConvexPenalty"),
        methods={"__call__": Method("array", "v", 3.0, infinite=_OMEGA_INFINITE)},
        instances={
            "omega_1": lambda: QuasiConvexPenalty(1.0, 2.0, 1.0, 2.0),
            "saturating": lambda: QuasiConvexPenalty(1.0, 1.0, 1.0, 0.5, 0.0, 5.0),
        },
    ),
    # ---------------------------------------------------------- validation
    f"{_V}.deep_linear_networks.networks.DeepLinearResult": ClassSpec(
        fields=("weights", "coefficients", "excess_loss", "steps"),
        construction=Exempt(_RESULT.format("the deep-linear-network trainers")),
    ),
    f"{_V}.deep_linear_networks.networks.TransferResult": ClassSpec(
        fields=("pretrained", "linear", "finetuned", "scratch"),
        construction=Exempt(_RESULT.format("transfer_experiment")),
    ),
    f"{_V}.diagonal_experiments.appendix_e1.NormsVersusSampleSize": ClassSpec(
        fields=(
            "sample_sizes",
            "mtl_l12",
            "stl_l12",
            "truth_l12",
            "ptft_q",
            "stl_q",
            "min_q",
            "truth_q",
            "dimension",
            "features",
            "aux_samples",
            "init_scale",
            "gamma",
            "tol",
            "seed",
        ),
        construction=Exempt(_RESULT.format("norms_versus_sample_size")),
    ),
    f"{_V}.diagonal_experiments.appendix_e1.OverlapVersusRescaling": ClassSpec(
        fields=(
            "rescales",
            "sample_sizes",
            "ptft_overlap",
            "stl_overlap",
            "truth_overlap",
            "dimension",
            "features",
            "shared",
            "aux_samples",
            "init_scale",
            "gamma",
            "tol",
            "seed",
        ),
        construction=Exempt(_RESULT.format("overlap_versus_rescaling")),
    ),
    f"{_V}.diagonal_networks.descent.DiagonalTrainingResult": ClassSpec(
        fields=(
            "coefficients",
            "first_layer_plus",
            "first_layer_minus",
            "second_layer_plus",
            "second_layer_minus",
            "loss",
            "steps",
            "converged",
        ),
        construction=Exempt(_RESULT.format("the diagonal-network trainers")),
    ),
    f"{_V}.diagonal_pretrain_finetune.PretrainFinetuneResult": ClassSpec(
        fields=("pretrained", "finetune_w1_init", "finetune_w2_init", "finetuned"),
        construction=Exempt(_RESULT.format("pretrain_finetune_diagonal_networks")),
    ),
    f"{_V}.diagonal_learned_sparsity.LearnedSolutions": ClassSpec(
        fields=(
            "overlaps",
            "sample_sizes",
            "stl",
            "linear_probe",
            "ptft",
            "mtl",
            "truth",
            "aux_support",
            "dimension",
            "features",
            "aux_samples",
            "init_scale",
            "gamma",
            "rescale",
            "tol",
            "seed",
        ),
        construction=Exempt(_RESULT.format("learned_solutions")),
    ),
    f"{_V}.relu_feature_clusters.FeatureClusterSetup": ClassSpec(
        fields=tuple(_feature_cluster_setup()),
        construction=Construction(
            valid=_feature_cluster_setup,
            invalid={
                "sample_sizes": [
                    (0,),
                    (32, 8),
                    (8, 8),
                    (8, True),
                    (8, 32.0),
                    np.array([8, 32]),
                    [],
                ],
                "seeds": [1, 0, -1],
                "dimension": [1, 0],
                "teacher_units": [1, 0],
                "width": [0, -1],
                "rich_scale": [0.0, -1e-2, -5e-324, np.ones(2)],
                "lazy_scale": [0.0, -1.0],
                "rich_learning_rate": [0.0, -0.2],
                "lazy_learning_rate": [0.0, -5e-324],
                "steps": [0, -1],
                # At least teacher_units (3) clusters: the alignment uses K = k.
                "max_clusters": [2, 0],
                "restarts": [0],
                "test_samples": [1, 0],
                "seed": [-1],
            },
        ),
        instances={"defaults": FeatureClusterSetup},
    ),
    f"{_V}.relu_feature_clusters.FeatureClusters": ClassSpec(
        fields=(
            "setup",
            "regimes",
            "sample_sizes",
            "inertia",
            "alignment",
            "participation_ratio",
            "relative_loss",
            "weight_movement",
            "teacher_inertia",
            "teacher_cosine",
        ),
        construction=Exempt(_RESULT.format("feature_clusters")),
    ),
    f"{_V}.relu_kernels.teachers.AblationSetup": ClassSpec(
        fields=("teacher_weights", "teacher_readout", "ablated", "ablated_fraction"),
        construction=Exempt(_RESULT.format("ablation_setup")),
        methods={
            "kept": Method(),
            "source_weights": Method(),
            "source_readout": Method(),
        },
    ),
    f"{_V}.relu_kernels.students.KernelCondensation": ClassSpec(
        fields=(
            "setup",
            "training",
            "distance_before",
            "distance_after",
            "nearest_cosines",
            "inputs",
        ),
        construction=Exempt(_RESULT.format("kernel_condensation")),
    ),
    f"{_V}.relu_kernels.monte_carlo.MonteCarloEstimate": ClassSpec(
        fields=("mean", "standard_error"),
        construction=Exempt(_RESULT.format("monte_carlo_overlaps")),
    ),
    f"{_V}.relu_kernels.monte_carlo.ProjectionCheck": ClassSpec(
        fields=(
            "closed_outside",
            "closed_target",
            "residual",
            "target",
            "orthogonality",
            "fitted_in_sample",
            "fitted_out_of_sample",
        ),
        construction=Exempt(_RESULT.format("monte_carlo_projection")),
    ),
    f"{_V}.relu_kernels.students.StudentTraining": ClassSpec(
        fields=("hidden_weights", "readout", "losses", "initial_hidden_weights"),
        construction=Exempt(_RESULT.format("train_student_on_source")),
    ),
    f"{_V}.relu_networks.UnitDeviationResult": ClassSpec(
        fields=(
            "penalty",
            "hidden_weights",
            "readout",
            "scale",
            "evaluations",
            "grid_minima",
        ),
        construction=Exempt(_RESULT.format("minimize_unit_deviation")),
    ),
    f"{_V}.relu_sample_efficiency.experiment.SampleEfficiency": ClassSpec(
        fields=(
            "setup",
            "stl_error",
            "ptft_error",
            "stl_train_loss",
            "ptft_train_loss",
            "pretraining_loss",
        ),
        construction=Exempt(_RESULT.format("sample_efficiency")),
    ),
    f"{_V}.relu_sample_efficiency.experiment.SampleEfficiencySetup": ClassSpec(
        fields=tuple(_sample_efficiency_setup()),
        construction=Construction(
            valid=_sample_efficiency_setup,
            invalid={
                "correlations": [(1.5,), (0.5, -1.01), [0.5, None], (complex(0.5, 1),)],
                "magnitudes": [(0.0,), (1.0, -0.01), (math.nan,), 1.0],
                "sample_sizes": [(0,), (2.5,), (16, True), np.array([16, 64])],
                "seeds": [0, -1],
                "dimension": [1, 0],
                "teacher_units": [0],
                "width": [0],
                "aux_samples": [0],
                "init_scale": [0.0, -1e-2],
                "readout_reinit": [np.ones(2)],
                "learning_rate": [0.0, -0.2],
                "steps": [0, -1],
                "test_samples": [0],
                "seed": [-1],
                "finetune_steps": [0, -3],
            },
        ),
        instances={"defaults": SampleEfficiencySetup},
    ),
    f"{_V}.relu_sample_efficiency.networks.TrainedNetworks": ClassSpec(
        fields=("hidden_weights", "readout", "relative_loss"),
        construction=Exempt(_RESULT.format("train_relu_networks")),
    ),
    f"{_V}.tangent_features.problems.RelaxedProblemSolution": ClassSpec(
        fields=(
            "feature_map",
            "coefficients",
            "objective",
            "dual_bound",
            "gradient_norm",
            "curvature",
            "iterations",
            "converged",
        ),
        construction=Exempt(_RESULT.format("solve_relaxed_problem")),
        methods={"duality_gap": Method(), "location_bound": Method()},
    ),
    f"{_V}.tangent_features.problems.TwoSidedSolution": ClassSpec(
        fields=(
            "left_map",
            "right_map",
            "weights",
            "objective",
            "gradient_norm",
            "curvature",
            "iterations",
            "converged",
        ),
        construction=Exempt(_RESULT.format("solve_two_sided_problem")),
        methods={"gap_bound": Method(), "location_bound": Method()},
    ),
    f"{_V}.tangent_kernels.label_alignment.LabelAlignmentStudy": ClassSpec(
        fields=("trials",),
        construction=Exempt(_RESULT.format("label_alignment_study")),
        methods={
            "values": Method(
                "text",
                "name",
                "sign_alignment",
                # Attributes that are no fields of LabelAlignmentTrial.
                invalid=["no_such_attribute", "", "__class__", "sign_alignment "],
            ),
            "differences": Method(),
            "mean_difference": Method(),
            "standard_error": Method(),
        },
    ),
    f"{_V}.tangent_kernels.label_alignment.LabelAlignmentTrial": ClassSpec(
        fields=(
            "linear_alignment",
            "sign_alignment",
            "linear_initial_alignment",
            "sign_initial_alignment",
            "linear_norm",
            "sign_norm",
            "linear_loss",
            "sign_loss",
            "linear_readout_share",
            "sign_readout_share",
            "linear_difficulty_correlation",
            "sign_difficulty_correlation",
        ),
        construction=Exempt(_RESULT.format("label_alignment_trial")),
    ),
    f"{_V}.tangent_kernels.mlp.TrainingRun": ClassSpec(
        fields=("initial_weights", "final_weights", "losses", "converged"),
        construction=Exempt(_RESULT.format("train_mlp")),
        methods={"steps": Method()},
    ),
    f"{_V}.transfer_experiments.endpoints.EndpointErrors": ClassSpec(
        fields=("alphas", "errors", "depth"),
        construction=Construction(
            valid=lambda: {
                "alphas": np.array([1e-1, 1e-2, 1e-3]),
                "errors": {"scratch": np.array([0.2, 0.02, 0.002])},
                "depth": 2,
            },
            invalid={
                "alphas": [[1e-3, 1e-2, 1e-1], [1e-1, 0.0, -1e-3], [1e-1, 1e-1, 1e-3]],
                "errors": [
                    {},
                    {"scratch": [0.2, 0.02]},
                    {"scratch": [0.2, 0.0, 0.002]},
                    {"scratch": [0.2, math.nan, 0.002]},
                    {"scratch": [0.2, 1j, 0.002]},
                    {"scratch": "errors"},
                    {1: [0.2, 0.02, 0.002]},
                    [0.2, 0.02, 0.002],
                    None,
                ],
                "depth": [1, 0, -2],
            },
        ),
        methods={
            "orders": Method("text", "name", "scratch", invalid=["no-such-error", ""])
        },
    ),
    f"{_V}.transfer_experiments.endpoints.EndpointRisks": ClassSpec(
        fields=(
            "scratch",
            "linear",
            "ridge",
            "finetune",
            "finetune_printed",
            "samples",
            "dimension",
            "theta",
            "sigma",
            "ridges",
        ),
        construction=Exempt(_RESULT.format("endpoint_risks")),
    ),
    f"{_V}.transfer_experiments.mean_comparison.MeanComparison": ClassSpec(
        fields=("mean", "standard_error", "predicted", "bias_bound", "z"),
        construction=Construction(
            valid=lambda: {
                "mean": 1.0,
                "standard_error": 0.1,
                "predicted": 1.2,
                "bias_bound": 0.01,
                "z": 4.0,
            },
            invalid={
                "standard_error": [-0.1, -5e-324],
                "bias_bound": [-1e-300],
                "z": [0.0, -4.0, True, np.ones(2)],
                "mean": [np.ones(2), [1.0]],
            },
        ),
        methods={
            "deviation": Method(infinite="+-inf for a constant sample"),
            "agrees": Method(),
            "describe": Method(),
        },
        instances={
            # Documented: a constant sample that misses has deviation -inf.
            "constant sample": lambda: compare_mean(np.full(3, 0.25), 0.5),
            "near the float64 limit": lambda: compare_mean(
                np.array([1.7e308, -1.7e308, 1.7e308]), -1.7e308
            ),
        },
    ),
    f"{_V}.transfer_experiments.transferability.TransferabilitySlices": ClassSpec(
        fields=(
            "thetas",
            "gammas",
            "scratch",
            "linear",
            "finetune",
            "dimension",
            "sigma",
            "init_scale",
            "seed",
        ),
        construction=Exempt(_RESULT.format("transferability_slices")),
        methods={
            "linear_transferability": Method(),
            "finetune_transferability": Method(),
        },
    ),
    f"{_V}.transfer_experiments.transferability.TransferabilitySurface": ClassSpec(
        fields=("thetas", "gammas", "linear", "finetune", "dimension", "sigma", "seed"),
        construction=Exempt(_RESULT.format("transferability_surface")),
    ),
    # ---------------------------------------------------------------- sweeps
    f"{_V}.sweeps.Sweep": ClassSpec(
        fields=("function", "configurations", "version"),
        construction=Exempt(
            "record of a built-in sweep (the factories of BUILTIN_SWEEPS build "
            "it); nothing takes a Sweep: run_sweep checks function, "
            "configurations and version as its own arguments"
        ),
        instances=dict(BUILTIN_SWEEPS),
    ),
    f"{_V}.sweeps.SweepSummary": ClassSpec(
        fields=(
            "total",
            "already_stored",
            "computed",
            "stored_by_others",
            "failed",
            "seconds",
            "blas_threads",
        ),
        construction=Exempt(_RESULT.format("run_sweep")),
    ),
    f"{_V}.sweeps.SweepError": ClassSpec(
        fields=("summary",),
        construction=Exempt("an exception run_sweep raises, with its summary"),
        instances={"failed": lambda: SweepError("1 configuration failed", _summary())},
    ),
    f"{_V}.sweeps.SweepInterrupted": ClassSpec(
        fields=("summary", "signal_number"),
        construction=Exempt("an exception run_sweep raises on SIGTERM or SIGINT"),
        instances={
            "SIGINT": lambda: SweepInterrupted("interrupted by SIGINT", _summary(), 2)
        },
    ),
    # ----------------------------------------------------------------- claims
    "implicit_bias.claims.source.Citation": ClassSpec(
        fields=tuple(_citation()),
        construction=Construction(
            valid=_citation,
            invalid={
                "title": ["", "  "],
                "authors": ["Ada Lovelace", (), ("",), ("Ada Lovelace", 1), None],
                "year": [24, 10000, 2024.0],
                "arxiv": ["arXiv:1843.00001", "1843.00001v2"],
                "arxiv_version": ["2", "v0"],
                "doi": ["doi:10.1000/engine-1"],
                "url": ["example.org/note"],
            },
            skip_probes={
                **{
                    (name, "unknown-option"): _FREE_TEXT
                    for name in ("title", "venue", "version_note")
                },
                ("doi", "unknown-option"): "any suffix after 10.xxxx/ is a DOI",
                ("url", "unknown-option"): "any path of an http(s) address is one",
            },
        ),
        methods={
            "author_list": Method(),
            "text": Method(),
            "bibtex": Method("text", "key", "lovelace1843", invalid=["", "a b", "k}"]),
        },
    ),
}


# -------------------------------------------------------------- instances


def _entry(cls: type) -> ClassSpec:
    return OBJECTS[_name(cls)]


def _returns_instances(key: str, cls: type) -> bool:
    """Whether the function returns cls itself (not, say, a strategy of them)."""
    annotation = typing.get_type_hints(_resolve(key)).get("return")
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return cls in typing.get_args(annotation)
    return annotation is cls


def _instance_factories(cls: type) -> dict[str, Callable[[], Any]]:
    factories: dict[str, Callable[[], Any]] = {}
    for key in RETURNED[cls]:
        spec = SPECS.get(key)
        if isinstance(spec, Spec) and _returns_instances(key, cls):
            factories[key.rpartition(".")[2]] = functools.partial(
                lambda key, spec: _resolve(key)(**spec.valid()), key, spec
            )
    factories |= _entry(cls).instances
    construction = _entry(cls).construction
    if isinstance(construction, Construction) and construction.pending_all is None:
        factories["constructed"] = lambda: cls(**construction.valid())
    return factories


@functools.cache
def _instance(cls: type, label: str) -> Any:
    with cpu_budget(BUDGET_SECONDS):
        instance = _instance_factories(cls)[label]()
    assert isinstance(instance, cls), (label, type(instance))
    return instance


def _labels(cls: type) -> list[str]:
    return list(_instance_factories(cls))


def _fields(cls: type) -> tuple[str, ...]:
    static = _static_fields(cls)
    if static is not None:
        return static
    names: set[str] = set()
    for label in _labels(cls):
        names |= {name for name in vars(_instance(cls, label)) if name[0] != "_"}
    return tuple(sorted(names))


# ------------------------------------------------------------ parameters


def _method_calls() -> Iterator[tuple[type, str, str]]:
    for cls in RETURNED:
        for name, method in sorted(_entry(cls).methods.items()):
            for label in _labels(cls):
                if label not in method.off:
                    yield cls, name, label


def _id(cls: type, *parts: str) -> str:
    return ":".join((cls.__qualname__, *parts))


def _param(
    cls: type, name: str, label: str, probe: str, value: Any, pending: str | None
) -> Any:
    return pytest.param(
        cls,
        name,
        label,
        value,
        id=_id(cls, name, label, probe),
        marks=[pytest.mark.xfail(strict=True, reason=pending)] if pending else [],
    )


VALID_CALLS = [
    _param(cls, name, label, form, value, None)
    for cls, name, label in _method_calls()
    for form, value in _valid_forms(_entry(cls).methods[name])
]
OUT_OF_DOMAIN_CALLS = [
    _param(cls, name, label, probe, value, _entry(cls).methods[name].pending.get(probe))
    for cls, name, label in _method_calls()
    for probe, value in _method_probes(_entry(cls).methods[name], label)
]
EXTREME_CALLS = [
    _param(
        cls, name, label, extreme, value, _entry(cls).methods[name].pending.get(extreme)
    )
    for cls, name, label in _method_calls()
    if _entry(cls).methods[name].kind in ("array", "real")
    for extreme, value in _EXTREMES.items()
]
FIELD_READS = [
    pytest.param(cls, label, id=_id(cls, label))
    for cls in RETURNED
    for label in _labels(cls)
]


def _construction_probes(cls: type, construction: Construction) -> list[Probe]:
    valid = construction.valid()
    defaults = {
        field.name: (
            field.default if field.default is not dataclasses.MISSING else NO_DEFAULT
        )
        for field in dataclasses.fields(cls)
    }
    probes = [
        probe
        for name, value in valid.items()
        for probe in generic_probes(name, value, defaults[name])
        if (name, probe.name) not in construction.skip_probes
    ]
    probes += [
        Probe(name, f"invalid[{index}]", value)
        for name, values in construction.invalid.items()
        for index, value in enumerate(values)
    ]
    return probes


def _construction_param(cls: type, construction: Construction, probe: Probe) -> Any:
    pending = construction.pending_all or construction.pending.get(
        (probe.argument, probe.name)
    )
    return pytest.param(
        cls,
        probe,
        id=_id(cls, str(probe)),
        marks=[pytest.mark.xfail(strict=True, reason=pending)] if pending else [],
    )


CONSTRUCTED = [
    cls for cls in RETURNED if isinstance(_entry(cls).construction, Construction)
]
CONSTRUCTION_PROBES = [
    _construction_param(cls, construction, probe)
    for cls in CONSTRUCTED
    for construction in [_entry(cls).construction]
    if isinstance(construction, Construction)
    for probe in _construction_probes(cls, construction)
]


# ------------------------------------------------------------------ calls


def _call(instance: Any, name: str, method: Method, argument: Any) -> Any:
    COUNTS["objects:method-calls"] += 1
    attribute = inspect.getattr_static(type(instance), name, None)
    with cpu_budget(BUDGET_SECONDS):
        if isinstance(attribute, property | functools.cached_property):
            return getattr(instance, name)
        bound = getattr(instance, name)
        assert callable(bound), f"{name} of {type(instance).__name__} is {bound!r}"
        return bound() if method.kind == "none" else bound(argument)


def _check_result(method: Method, argument: Any, result: Any) -> None:
    if method.kind == "array":
        assert isinstance(result, np.ndarray), type(result)
        assert result.dtype == np.float64, result.dtype
        assert result.shape == np.shape(argument), (result.shape, np.shape(argument))
    if method.kind == "real":
        assert isinstance(result, mpmath.mpf), type(result)
    assert_finite(result, allow_inf=method.infinite is not None)


def _docstring(cls: type, name: str) -> str:
    attribute = inspect.getattr_static(cls, name, None)
    if isinstance(attribute, property):
        attribute = attribute.fget
    documented = attribute if inspect.isfunction(attribute) else cls
    return " ".join((inspect.getdoc(documented) or "").split())


# ------------------------------------------------------------------ tests


def test_every_returned_class_is_specified() -> None:
    names = {_name(cls) for cls in RETURNED}
    missing = sorted(names - set(OBJECTS))
    stale = sorted(set(OBJECTS) - names)
    assert not missing, f"no entry for the returned classes {missing}"
    assert not stale, f"entries for classes nothing public returns: {stale}"


@pytest.mark.parametrize("cls", list(RETURNED), ids=lambda cls: cls.__qualname__)
def test_every_method_and_field_is_specified(cls: type) -> None:
    entry = _entry(cls)
    assert set(_methods(cls)) == set(entry.methods), (
        f"methods: {sorted(_methods(cls))}, specified: {sorted(entry.methods)}"
    )
    assert set(_fields(cls)) == set(entry.fields), (
        f"fields: {sorted(_fields(cls))}, specified: {sorted(entry.fields)}"
    )
    assert set(entry.infinite_fields) <= set(entry.fields)
    construction = entry.construction
    if isinstance(construction, Construction):
        assert set(construction.valid()) == set(entry.fields)
        named = set(construction.invalid) | {f for f, _ in construction.skip_probes}
        assert named <= set(entry.fields), named - set(entry.fields)
    if isinstance(construction, ByFunctionContract):
        assert isinstance(SPECS.get(construction.key), Spec), construction.key
        assert _resolve(construction.key) is cls
    for name, method in entry.methods.items():
        if method.infinite is not None:
            assert method.infinite in _docstring(cls, name), (
                f"{name}: the docstring does not say {method.infinite!r}"
            )
        assert set(method.off) <= set(_labels(cls)), method.off
        assert set(method.invalid_on) <= set(_labels(cls)), method.invalid_on
        for label in method.off:
            assert getattr(_instance(cls, label), name) is None, (name, label)
    for name, words in entry.infinite_fields.items():
        assert words in _docstring(cls, name), f"{name}: no {words!r} in the docstring"
    COUNTS["objects:classes"] += 1
    COUNTS["objects:methods"] += len(entry.methods)
    COUNTS["objects:fields"] += len(entry.fields)
    COUNTS["objects:exempt-constructions"] += isinstance(construction, Exempt)


@pytest.mark.parametrize(("cls", "label"), FIELD_READS)
def test_fields_of_every_instance_are_finite(cls: type, label: str) -> None:
    instance = _instance(cls, label)
    entry = _entry(cls)
    for name in entry.fields:
        COUNTS["objects:field-reads"] += 1
        assert_finite(getattr(instance, name), allow_inf=name in entry.infinite_fields)


@pytest.mark.parametrize(("cls", "name", "label", "argument"), VALID_CALLS)
def test_valid_call_gives_a_finite_result(
    cls: type, name: str, label: str, argument: Any
) -> None:
    method = _entry(cls).methods[name]
    result = _call(_instance(cls, label), name, method, argument)
    _check_result(method, argument, result)


@pytest.mark.parametrize(("cls", "name", "label", "argument"), OUT_OF_DOMAIN_CALLS)
def test_out_of_domain_argument_raises_a_named_error(
    cls: type, name: str, label: str, argument: Any
) -> None:
    method = _entry(cls).methods[name]
    with pytest.raises(InvalidArgumentError) as caught:
        _call(_instance(cls, label), name, method, argument)
    COUNTS["objects:out-of-domain"] += 1
    assert method.argument in str(caught.value), (
        f"the message does not name {method.argument!r}: {caught.value}"
    )


@pytest.mark.parametrize(("cls", "name", "label", "argument"), EXTREME_CALLS)
def test_extreme_argument_gives_a_finite_result_or_a_named_error(
    cls: type, name: str, label: str, argument: Any
) -> None:
    method = _entry(cls).methods[name]
    message = None
    try:
        result = _call(_instance(cls, label), name, method, argument)
    except (InvalidArgumentError, *IN_DOMAIN_ERRORS) as error:
        COUNTS[f"objects:extreme:{type(error).__name__}"] += 1
        message = str(error)
    if message is None:
        COUNTS["objects:extreme:finite"] += 1
        _check_result(method, argument, result)
    else:
        assert method.argument in message, (
            f"the message does not name {method.argument!r}: {message}"
        )


@pytest.mark.parametrize("cls", CONSTRUCTED, ids=lambda cls: cls.__qualname__)
def test_valid_construction_keeps_its_fields(cls: type) -> None:
    construction = _entry(cls).construction
    assert isinstance(construction, Construction)
    valid = construction.valid()
    instance = cls(**valid)
    for name, value in valid.items():
        stored = getattr(instance, name)
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(stored, value)
        elif not callable(value):
            assert stored == value, (name, stored, value)


@pytest.mark.parametrize(("cls", "probe"), CONSTRUCTION_PROBES)
def test_construction_with_a_bad_field_raises_a_named_error(
    cls: type, probe: Probe
) -> None:
    construction = _entry(cls).construction
    assert isinstance(construction, Construction)
    fields = construction.valid() | {probe.argument: probe.value}
    with pytest.raises(InvalidArgumentError) as caught, cpu_budget(BUDGET_SECONDS):
        cls(**fields)
    COUNTS["objects:bad-fields"] += 1
    assert probe.argument in str(caught.value), (
        f"the message does not name {probe.argument!r}: {caught.value}"
    )
