"""The algorithm registry: specs agree with the estimators' own parameter constraints."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from kfdviz.core.kernels import KERNEL_NAMES
from kfdviz.estimators import registry
from kfdviz.estimators.registry import ALGORITHMS
from kfdviz.estimators.spec import AlgorithmSpec, Kind, ParamSpec

KEYS = sorted(ALGORITHMS)


@pytest.fixture(params=KEYS)
def spec(request):
    return ALGORITHMS[request.param]


def test_the_papers_algorithms_are_registered():
    assert {"kpca", "okpca", "kfd", "koc", "novelty"} <= set(ALGORITHMS)


def test_make_gives_an_unfitted_estimator_with_the_fixed_params(spec):
    est = spec.make({})
    assert isinstance(est, spec.estimator)
    with pytest.raises(NotFittedError):
        check_is_fitted(est)
    params = est.get_params()
    for name, value in spec.fixed.items():
        assert params[name] == value
    for name, value in spec.defaults().items():
        assert params[name] == value


def test_every_spec_names_a_real_parameter(spec):
    names = set(spec.estimator().get_params())
    for p in spec.params:
        assert p.name in names, f"{spec.key}: {p.name} is not a parameter of {spec.estimator}"
    assert set(spec.fixed) <= names
    # The shown parameters and the fixed ones are disjoint: a user cannot undo a fixed choice.
    assert not {p.name for p in spec.params} & set(spec.fixed)


def test_defaults_pass_the_estimators_constraints(spec):
    assert spec.validate({}) == {}
    spec.make({})._validate_params()


def test_slider_ends_and_choices_pass_the_constraints(spec):
    for p in spec.params:
        values = []
        if p.kind in ("float", "int", "optional-int"):
            assert p.low is not None and p.high is not None and p.low < p.high
            values += [p.low, p.high]
            if p.default is not None:
                assert p.low <= p.default <= p.high, (spec.key, p.name)
            if p.kind != "float":
                values = [int(v) for v in values]
            if p.log:
                assert p.low > 0, (spec.key, p.name)
        elif p.kind == "choice":
            assert p.default in p.choices
            values += list(p.choices)
        elif p.kind == "tuple-choice":
            assert set(p.default) <= set(p.choices)
            values += [(c,) for c in p.choices]
        elif p.kind == "bool":
            values += [True, False]
        else:
            pytest.fail(f"{spec.key}: unknown ParamSpec kind {p.kind!r}")
        for value in values:
            assert spec.validate({p.name: value}) == {}, (spec.key, p.name, value)


def test_tuple_choice_lists_become_tuples():
    est = ALGORITHMS["okpca"].make({"tangents": ["rotation", "scale"]})
    assert est.tangents == ("rotation", "scale")


@pytest.mark.parametrize(
    "key, params, bad",
    [
        ("kpca", {"width": -1.0}, "width"),
        ("kpca", {"n_components": 0}, "n_components"),
        ("kpca", {"kernel": "foo"}, "kernel"),
        ("okpca", {"tangent_step": 0.0}, "tangent_step"),
        ("kfd", {"mu": -1e-3}, "mu"),
        ("kfd", {"threshold": "median"}, "threshold"),
        ("kfd", {"degree": 0}, "degree"),
        ("koc", {"algorithm": "qr"}, "algorithm"),
        ("novelty", {"contamination": 0.9}, "contamination"),
    ],
)
def test_validate_names_the_bad_parameter_without_fitting(key, params, bad, monkeypatch):
    spec = ALGORITHMS[key]

    def no_fit(self, *args, **kwargs):
        raise AssertionError("validate must not fit")

    monkeypatch.setattr(spec.estimator, "fit", no_fit)
    errors = spec.validate(params)
    assert list(errors) == [bad]
    assert bad in errors[bad] and repr(next(iter(params.values()))) in errors[bad]
    with pytest.raises(ValueError, match=bad):
        spec.make(params)


def test_validate_reports_several_bad_parameters():
    errors = ALGORITHMS["kfd"].validate({"width": 0.0, "mu": -1.0, "centers": "grid"})
    assert set(errors) == {"width", "mu", "centers"}


def test_unknown_key_lists_the_valid_ones(spec):
    errors = spec.validate({"sigma": 1.0})
    assert list(errors) == [""]
    message = errors[""]
    assert "sigma" in message
    for p in spec.params:
        assert p.name in message
    with pytest.raises(ValueError, match="sigma"):
        spec.make({"sigma": 1.0})
    with pytest.raises(ValueError, match="has no parameter sigma"):
        spec.full_params({"sigma": 1.0})


def test_unknown_algorithm_lists_the_keys():
    with pytest.raises(ValueError, match="Unknown algorithm 'no-such-method'") as info:
        registry.get("no-such-method")
    for key in KEYS:
        assert key in str(info.value)
    assert registry.get("kfd") is ALGORITHMS["kfd"]


def test_fixed_params_win_over_user_params():
    spec = ALGORITHMS["kfd-qp"]
    assert spec.full_params({"mu": 0.5})["formulation"] == "qp"
    assert spec.full_params({"formulation": "rayleigh"})["formulation"] == "qp"


def test_made_estimators_fit_on_a_small_problem():
    """The spectral entries work with their defaults on data of their kind."""
    rng = np.random.RandomState(0)
    X = np.vstack([rng.randn(20, 2), rng.randn(20, 2) + np.array([2.0, 0.0])])
    y = np.repeat([0, 1], 20)
    for key in ("kpca", "okpca", "kfd", "koc", "novelty"):
        est = ALGORITHMS[key].make({}).fit(X, y)
        check_is_fitted(est)


# -- a spec that disagrees with its estimator fails when it is declared ---------------------------
def _declare(*params, kind=None, key="mine"):
    kpca = ALGORITHMS["kpca"]
    return AlgorithmSpec(key, "Mine", kind or Kind.FEATURES, kpca.estimator, params, kpca.cost)


def test_every_registered_kind_is_a_kind_member():
    assert all(isinstance(spec.kind, Kind) for spec in ALGORITHMS.values())
    with pytest.raises(TypeError, match="kind must be a Kind"):
        _declare(kind="features")


def test_parameter_kinds_choices_and_defaults_are_read_off_the_estimator():
    spec = _declare(ParamSpec("n_components", low=1, high=9), ParamSpec("kernel"))
    n_components, kernel = spec.params
    assert (n_components.kind, n_components.default) == ("int", 2)  # KernelPCA's own default
    assert kernel.kind == "choice" and set(kernel.choices) == set(KERNEL_NAMES)


def test_a_spec_contradicting_its_estimator_is_refused():
    with pytest.raises(TypeError, match="constraints say 'int'"):
        _declare(ParamSpec("n_components", "float", low=1, high=9))
    with pytest.raises(TypeError, match="does not take"):
        _declare(ParamSpec("kernel", choices=("rbf", "sigmoid")))
    with pytest.raises(TypeError, match="declares no constraint"):
        _declare(ParamSpec("sigma", "float", 1.0, 0.1, 10.0))


def test_two_algorithms_cannot_share_a_key():
    with pytest.raises(ValueError, match="Two algorithms have the key 'kpca'"):
        registry._by_key((ALGORITHMS["kpca"], _declare(key="kpca")))


def test_the_registry_lists_every_estimator_modules_specs_in_order():
    listed = [spec for module in registry.SPEC_MODULES for spec in module.SPECS]
    assert list(ALGORITHMS.values()) == listed == list(registry.SPECS)


@pytest.mark.parametrize(
    "key, params, said",
    [
        ("kfd", {"width": -1.0}, "Width c (width) must be positive; got -1.0."),
        ("kfd", {"mu": -1.0}, "μ (mu) must be 0 or more; got -1.0."),
        ("kfd", {"degree": 0}, "Degree (degree) must be a whole number, at least 1; got 0."),
        ("svd", {"n_components": 0}, "must be a whole number, at least 1; got 0."),
    ],
)
def test_validation_messages_are_written_for_people(key, params, said):
    reasons = registry.get(key).validate(params)
    (reason,) = reasons.values()
    assert reason.endswith(said)
    assert "parameter of" not in reason and "range" not in reason


def test_every_algorithm_has_a_guide_in_plain_words():
    """Help → Algorithm guide reads each algorithm's own guide: none may be missing."""
    from kfdviz.estimators.spec import Guide

    for key, spec in registry.ALGORITHMS.items():
        guide = spec.guide
        assert isinstance(guide, Guide), f"{key} has no guide"
        for part in (guide.computes, guide.picture, guide.try_this, guide.source):
            assert len(part.split()) >= 4, (key, part)
        assert any(ch.isdigit() for ch in guide.source), f"{key}: the paper's year or equation"
