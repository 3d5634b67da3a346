"""`kfdviz reproduce`: the protocol against brute force, resuming, backends, clean JSON.

The data are small IDA-format folders made here (the real benchmark folder is not needed): a
few realizations of two Gaussian classes under the papers' data set names.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, StratifiedKFold

from kfdviz.estimators import KernelFisherDiscriminant
from kfdviz.experiments import methods as methods_module
from kfdviz.experiments import run as run_module
from kfdviz.experiments.crossval import fit_each_scorer, grid_search
from kfdviz.experiments.methods import ProtocolOptions
from kfdviz.experiments.protocol import median_choice
from kfdviz.experiments.report import NOT_AVAILABLE, to_csv, to_json, to_markdown
from kfdviz.experiments.run import reproduce

SMALL_GRID = {"width": [0.5, 2.0, 8.0], "mu": [1e-4, 1e-2, 1.0]}


def write_ida_folder(folder, name="banana", *, n_train=40, n_test=60, realizations=3, d=2, seed=0):
    """An IDA-format NAME.npz: two overlapping Gaussian classes, labels -1/+1."""
    rng = np.random.RandomState(seed)
    pool = n_train + n_test + 40
    y = np.where(rng.rand(pool) < 0.45, 1, -1).astype(np.int8)
    X = rng.randn(pool, d) + 1.2 * y[:, None] * np.r_[1.0, np.zeros(d - 1)]
    train, test = [], []
    for _ in range(realizations):
        order = rng.permutation(pool)
        train.append(order[:n_train])
        test.append(order[n_train : n_train + n_test])
    np.savez(
        folder / f"{name}.npz",
        X=X,
        y=y,
        train_idx=np.array(train, dtype=np.int32),
        test_idx=np.array(test, dtype=np.int32),
        realizations=np.arange(1, realizations + 1),
    )
    return folder


def load(folder, name, r):
    from kfdviz.datasets.ida import load_ida

    return load_ida(folder, name, r)


@pytest.fixture
def small_kfd_grid(monkeypatch):
    """KFD's grid cut to 3 x 3 (in this process: n_jobs=1 runs the tasks here)."""
    kfd = dataclasses.replace(methods_module.METHODS["kfd"], grid=lambda d: dict(SMALL_GRID))
    monkeypatch.setitem(methods_module.METHODS, "kfd", kfd)
    return SMALL_GRID


def ringnorm(n, d=5, seed=0):
    rng = np.random.RandomState(seed)
    y = np.r_[np.zeros(n // 2, int), np.ones(n - n // 2, int)]
    X = np.where(y[:, None] == 0, 2.0 * rng.randn(n, d), 0.9 + rng.randn(n, d))
    return X, y


# -- the grid search and the median ----------------------------------------------------------------
def test_shared_grid_search_chooses_as_gridsearchcv():
    X, y = ringnorm(70, seed=1)
    est = KernelFisherDiscriminant(kernel="rbf", threshold="margin-lp")
    ours = grid_search(fit_each_scorer(est), SMALL_GRID, X, y, shared=("width",), seed=4)
    search = GridSearchCV(
        est, SMALL_GRID, cv=StratifiedKFold(5, shuffle=True, random_state=4), refit=False
    ).fit(X, y)
    assert ours.best_params == search.best_params_
    np.testing.assert_array_equal(ours.mean_scores, search.cv_results_["mean_test_score"])


def test_svm_gram_scorer_agrees_with_libsvm_on_the_rbf_kernel():
    from kfdviz.estimators.svm import SupportVectorClassifier

    X, y = ringnorm(80, seed=2)
    grid = {"width": [2.0, 10.0], "C": [0.1, 1.0, 10.0]}
    m = methods_module.METHODS["svm"]
    ours = grid_search(m.fold_scorer(), grid, X, y, shared=("width",), seed=0)
    search = GridSearchCV(
        SupportVectorClassifier(), grid, cv=StratifiedKFold(5, shuffle=True, random_state=0)
    ).fit(X, y)
    # The same machine from a precomputed Gram matrix: at most a point on a margin may flip.
    np.testing.assert_allclose(ours.mean_scores, search.cv_results_["mean_test_score"], atol=0.02)


def test_median_choice_is_the_per_parameter_median():
    choices = [
        {"width": w, "mu": m} for w, m in [(1, 0.1), (4, 1e-3), (2, 1.0), (8, 0.1), (2, 1e-2)]
    ]
    assert median_choice(choices) == {"width": 2, "mu": 0.1}
    # an even count takes the lower middle value, which is one of the choices (a grid value)
    assert median_choice(choices[:4]) == {"width": 2, "mu": 0.1}


# -- the protocol on a small case, against brute force -----------------------------------------------
def test_protocol_matches_brute_force_gridsearchcv(tmp_path, small_kfd_grid):
    write_ida_folder(tmp_path, "banana", realizations=3)
    doc = reproduce(
        "mika-table1",
        tmp_path,
        datasets=["banana", "diabetis"],
        methods=["kfd"],
        cache_dir=tmp_path / "cache",
        progress=False,
        options=ProtocolOptions(ties="first"),  # GridSearchCV's rule among equal scores
    )
    est = KernelFisherDiscriminant(kernel="rbf", threshold="margin-lp")
    choices, errors = [], []
    for r in (1, 2, 3):
        X, y, _, _ = load(tmp_path, "banana", r)
        cv = StratifiedKFold(5, shuffle=True, random_state=r)
        choices.append(GridSearchCV(est, small_kfd_grid, cv=cv).fit(X, y).best_params_)
    widths = sorted(c["width"] for c in choices)
    mus = sorted(c["mu"] for c in choices)
    params = {"width": widths[1], "mu": mus[1]}
    for r in (1, 2, 3):
        X, y, Xt, yt = load(tmp_path, "banana", r)
        model = clone(est).set_params(**params).fit(X, y)
        errors.append(100.0 * np.mean(model.predict(Xt) != yt))

    banana, diabetes = doc["rows"]
    cell = banana["cells"]["kfd"]
    assert cell["ours"]["cv_choices"] == choices
    assert cell["ours"]["params"] == params
    assert cell["ours"]["mean"] == pytest.approx(np.mean(errors), abs=1e-12)
    assert cell["ours"]["se"] == pytest.approx(np.std(errors, ddof=1) / np.sqrt(3), abs=1e-12)
    paper = cell["paper"]
    assert paper["mean"] == 10.8
    expected = (np.mean(errors) - 10.8) / np.hypot(cell["ours"]["se"], paper["se"])
    assert cell["difference_se"] == pytest.approx(expected)
    assert banana["realizations"] == 3
    assert not diabetes["available"] and diabetes["note"] == NOT_AVAILABLE
    assert NOT_AVAILABLE in to_markdown(doc)
    assert doc["columns"][0]["threshold"].startswith("margin LP")
    rows = to_csv(doc).splitlines()
    assert rows[0].startswith("dataset,method") and len(rows) == 3


def test_single_realization_has_no_standard_error(tmp_path, small_kfd_grid):
    write_ida_folder(tmp_path, "twonorm", realizations=1, d=3)
    doc = reproduce(
        "mika-1999",
        tmp_path,
        datasets=["twonorm"],
        methods=["kfd"],
        cache_dir=tmp_path / "cache",
        progress=False,
    )
    row = doc["rows"][0]
    assert row["realizations"] == 1 and "one realization" in row["note"]
    assert row["cells"]["kfd"]["ours"]["se"] is None
    assert row["cells"]["kfd"]["difference_se"] is None


# -- resuming --------------------------------------------------------------------------------------
class Interrupted(Exception):
    pass


def counting(monkeypatch, fail_after=None):
    """Count the tasks computed (and stop the run after ``fail_after`` of them)."""
    calls = []
    for name in ("cv_fold_task", "eval_task"):
        original = getattr(run_module, name)

        def wrapped(*args, _original=original, _name=name):
            if fail_after is not None and len(calls) == fail_after:
                raise Interrupted(f"simulated interruption after {fail_after} tasks")
            calls.append(_name)
            return _original(*args)

        monkeypatch.setattr(run_module, name, wrapped)
    return calls


def test_an_interrupted_run_resumes_without_recomputing(tmp_path, monkeypatch, small_kfd_grid):
    write_ida_folder(tmp_path, "banana", realizations=3)
    kwargs = dict(
        datasets=["banana"], methods=["kfd", "skfd"], cache_dir=tmp_path / "c", progress=False
    )
    # KFD: 3 realizations x 5 folds x 3 widths + 3 fits; SKFD (KFD's width, its 4 C scored
    # together): 3 x 5 folds + 3 fits
    total = 45 + 3 + 15 + 3
    with monkeypatch.context() as m:
        first = counting(m, fail_after=5)
        with pytest.raises(Interrupted):
            reproduce("mika-table1", tmp_path, **kwargs)
    assert len(first) == 5
    stored = list((tmp_path / "c").rglob("*.json"))
    assert len(stored) == 5
    with monkeypatch.context() as m:
        second = counting(m)
        doc = reproduce("mika-table1", tmp_path, **kwargs)
    assert len(second) == total - 5
    with monkeypatch.context() as m:
        third = counting(m)
        again = reproduce("mika-table1", tmp_path, **kwargs)
    assert third == []
    assert to_json(again) == to_json(doc)
    skfd = doc["rows"][0]["cells"]["skfd"]["ours"]
    assert skfd["params"]["width"] == doc["rows"][0]["cells"]["kfd"]["ours"]["params"]["width"]
    assert 0.0 < skfd["sparsity"] <= 1.0


def test_a_changed_parameter_grid_is_not_read_from_the_store(tmp_path, monkeypatch):
    write_ida_folder(tmp_path, "banana", realizations=2)
    kwargs = dict(datasets=["banana"], methods=["kfd"], cache_dir=tmp_path / "c", progress=False)
    for grid in ({"width": [1.0], "mu": [1e-2, 1.0]}, {"width": [2.0], "mu": [1e-2, 1.0]}):
        kfd = dataclasses.replace(methods_module.METHODS["kfd"], grid=lambda d, g=grid: g)
        monkeypatch.setitem(methods_module.METHODS, "kfd", kfd)
        with monkeypatch.context() as m:
            calls = counting(m)
            doc = reproduce("mika-table1", tmp_path, **kwargs)
        assert len(calls) == 12  # 2 realizations x 5 folds + 2 fits each time
        assert doc["rows"][0]["cells"]["kfd"]["ours"]["params"]["width"] == grid["width"][0]


# -- backends and the command line -----------------------------------------------------------------
@pytest.mark.slow
def test_loky_and_a_dask_local_cluster_give_the_same_json(tmp_path):
    pytest.importorskip("distributed")
    write_ida_folder(tmp_path, "heart", n_train=30, n_test=40, realizations=2, d=3)
    docs = []
    for backend in ("loky", "dask"):
        docs.append(
            reproduce(
                "koc-table1",
                tmp_path,
                datasets=["heart"],
                n_jobs=2,
                backend=backend,
                cache_dir=tmp_path / f"cache-{backend}",
                progress=False,
            )
        )
        if backend == "loky":  # joblib keeps its workers for reuse; this test owns them
            from joblib.externals.loky import get_reusable_executor

            get_reusable_executor().shutdown(wait=True)
    assert to_json(docs[0]) == to_json(docs[1])
    cell = docs[0]["rows"][0]["cells"]["koc-rbf"]["ours"]
    assert len(cell["cv_choices"]) == 2 and cell["mean"] is not None


def test_json_mode_prints_one_json_document_on_stdout(tmp_path):
    write_ida_folder(tmp_path, "heart", n_train=30, n_test=40, realizations=2, d=3)
    out = tmp_path / "out"
    env = dict(os.environ, KFDVIZ_DATA_DIR=str(tmp_path))
    command = [sys.executable, "-m", "kfdviz", "reproduce", "mika-1999", "--datasets", "heart"]
    command += ["--methods", "kfd", "--n-jobs", "2", "--json", "--out", str(out)]
    proc = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)  # the whole of stdout, nothing before or after
    assert doc["table"] == "mika-1999"
    assert "task" in proc.stderr  # the progress bar went to stderr
    assert json.loads((out / "mika-1999.json").read_text()) == doc
    assert (out / "mika-1999.md").read_text().startswith("### ")
    # the second run reads everything back from the store
    again = subprocess.run(proc.args, capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode == 0 and json.loads(again.stdout) == doc


def test_bad_arguments_get_clear_errors(tmp_path):
    write_ida_folder(tmp_path, "banana", realizations=1)
    with pytest.raises(ValueError, match="not in this table"):
        reproduce("mika-table1", tmp_path, datasets=["iris"], progress=False)
    with pytest.raises(ValueError, match="unknown table"):
        reproduce("table-9", tmp_path, progress=False)
    with pytest.raises(ValueError, match="--scheduler"):
        reproduce(
            "mika-table1",
            tmp_path,
            methods=["kfd"],
            scheduler="tcp://localhost:1",
            cache_dir=tmp_path / "c",
            progress=False,
        )


def test_the_figure_puts_ours_beside_the_papers(tmp_path, small_kfd_grid):
    from kfdviz.experiments.figures import save_table_figure, table_figure_plan

    write_ida_folder(tmp_path, "banana", realizations=2)
    doc = reproduce(
        "mika-table1",
        tmp_path,
        datasets=["banana", "diabetis"],
        methods=["kfd"],
        cache_dir=tmp_path / "cache",
        progress=False,
    )
    plan = table_figure_plan(doc)
    (panel,) = plan.panels
    assert panel.kind == "errorbars" and panel.title == "KFD"
    data = panel.result
    assert data.categories == ("Banana",)  # the missing data set is not drawn
    ours, paper = data.series
    assert ours.values[0] == pytest.approx(doc["rows"][0]["cells"]["kfd"]["ours"]["mean"])
    assert paper.values == (10.8,) and paper.errors == (0.05,)
    path = save_table_figure(doc, tmp_path / "table.svg")
    svg = path.read_text()
    for text in ("Banana", "ours", "paper", "KFD"):
        assert text in svg


def test_dask_is_imported_only_by_the_dask_backend():
    code = (
        "import sys\n"
        "import kfdviz.core, kfdviz.estimators, kfdviz.experiments.run, kfdviz.experiments.cli\n"
        "import kfdviz.cli\n"
        "kfdviz.cli.build_parser()\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)


def test_output_files_get_the_usual_permissions(tmp_path):
    from kfdviz.experiments.cache import write_text_atomic

    old = os.umask(0o022)
    try:
        path = write_text_atomic(tmp_path / "a" / "table.md", "| x |\n")
    finally:
        os.umask(old)
    assert path.read_text() == "| x |\n"
    assert path.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in path.parent.iterdir()] == ["table.md"]  # no temporary file left
