"""The public estimators' docstrings, validated with numpydoc as scikit-learn validates its own.

Each public estimator's class docstring has every numpydoc section but the extended summary
(Parameters with defaults, Attributes, See Also, Notes where it matters, References, Examples);
its public methods and properties document their parameters and returns. The examples run as
doctests.
"""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")

import kfdviz  # noqa: E402
from kfdviz.estimators.registry import SPECS  # noqa: E402

# What a class docstring may lack: the extended summary (the summary line says what it is). The
# summary starts on the line of the opening quotes (the project's style; numpydoc's GL01 asks for
# the next line, as scikit-learn's validation also ignores).
CLASS_IGNORED = {"ES01", "GL01"}
# What a method's docstring may lack as well: See Also and Examples.
METHOD_IGNORED = {"ES01", "GL01", "SA01", "EX01"}
ESTIMATORS = list(dict.fromkeys(spec.estimator for spec in SPECS))


def _public_members(cls) -> list[str]:
    """The public methods and properties kfdviz defines (not those scikit-learn's bases do)."""
    names = []
    for name, member in inspect.getmembers(cls):
        if name.startswith("_"):
            continue
        if isinstance(member, property):
            owner = member.fget
        elif inspect.isfunction(member):
            owner = member
        else:
            continue
        if owner.__module__.startswith("kfdviz."):
            names.append(name)
    return names


def _problems(cls) -> list[str]:
    base = f"{cls.__module__}.{cls.__name__}"
    found = []
    for name, ignored in [(base, CLASS_IGNORED)] + [
        (f"{base}.{m}", METHOD_IGNORED) for m in _public_members(cls)
    ]:
        for code, message in numpydoc_validate.validate(name)["errors"]:
            if code not in ignored:
                found.append(f"{name}: {code} {message}")
    return found


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda cls: cls.__name__)
def test_the_public_estimators_docstrings_pass_numpydoc(cls):
    problems = _problems(cls)
    assert not problems, "\n".join(problems)


def test_the_estimators_are_importable_from_kfdviz_and_their_examples_run():
    assert ESTIMATORS
    for cls in ESTIMATORS:
        assert getattr(kfdviz, cls.__name__) is cls
        module = importlib.import_module(cls.__module__)
        finder = doctest.DocTestFinder()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        tests = [t for t in finder.find(cls, module=module) if t.examples]
        assert tests, f"{cls.__name__} has no Examples"
        for test in tests:
            runner.run(test)
        assert runner.failures == 0, f"{cls.__name__}'s examples fail"


def test_the_validator_finds_what_is_missing():
    # A method with no docstring is reported, so a pass above means something.
    class Undocumented:
        """An estimator.

        Parameters
        ----------
        a : int
            A.
        """

        def __init__(self, a=1):
            self.a = a

        def fit(self, X):
            return self

    import sys

    module = sys.modules[__name__]
    module.Undocumented = Undocumented
    try:
        errors = numpydoc_validate.validate(f"{__name__}.Undocumented.fit")["errors"]
    finally:
        del module.Undocumented
    assert "GL08" in {code for code, _ in errors}


DISPLAYS = ("LevelSetDisplay", "OutputHistogramDisplay", "EmbeddingDisplay")
DISPLAY_METHODS = ("from_estimator", "save", "to_png", "to_svg", "figure_plan")


@pytest.mark.parametrize("name", DISPLAYS)
def test_the_displays_docstrings_pass_numpydoc_and_their_examples_run(name):
    cls = getattr(kfdviz, name)
    base = f"{cls.__module__}.{name}"
    problems = [
        f"{where}: {code} {message}"
        for where, ignored in [(base, CLASS_IGNORED)]
        + [(f"{base}.{m}", METHOD_IGNORED) for m in DISPLAY_METHODS]
        for code, message in numpydoc_validate.validate(where)["errors"]
        if code not in ignored
    ]
    assert not problems, "\n".join(problems)
    module = importlib.import_module(cls.__module__)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [t for t in doctest.DocTestFinder().find(cls, module=module) if t.examples]
    assert tests, f"{name} has no Examples"
    for test in tests:
        runner.run(test)
    assert runner.failures == 0, f"{name}'s examples fail"
