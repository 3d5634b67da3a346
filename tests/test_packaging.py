"""kfdviz installed as an application: resources, icon, desktop entry, version, wheel and sdist,
the declared dependency floors, and the PyInstaller bundle.

The slow tests build and install for real, in fresh virtual environments (pip's own cache makes
the second run quick): the wheel and sdist once per module, the bundle once.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

import kfdviz
import kfdviz.estimators
from kfdviz import cli, desktop, resources

REPO = Path(__file__).resolve().parents[1]
PACKAGING = REPO / "packaging"
# The distributions the library part needs (the rest of the dependencies are the desktop app's).
LIBRARY_DEPENDENCIES = (
    "numpy",
    "scipy",
    "scikit-learn",
    "threadpoolctl",
    "contourpy",
    "clarabel",
    "highspy",
    "joblib",
    "tqdm",
)
# And the desktop app's.
APP_DEPENDENCIES = ("PySide6-Essentials", "pyqtgraph", "PyOpenGL")


# ---------------------------------------------------------------------------------------------
# helpers


def _pixels(data: bytes | Path) -> np.ndarray:
    """An image's RGBA pixels (height x width x 4, uint8), read by Qt."""
    from PySide6.QtGui import QImage

    image = QImage(str(data)) if isinstance(data, Path) else QImage.fromData(data)
    assert not image.isNull(), f"not an image: {data if isinstance(data, Path) else 'bytes'}"
    image = image.convertToFormat(QImage.Format.Format_RGBA8888)
    w, h = image.width(), image.height()
    rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(h, image.bytesPerLine())
    return rows[:, : 4 * w].reshape(h, w, 4).copy()


def _assert_real_picture(path: Path, min_width: int, min_height: int) -> np.ndarray:
    """A PNG of at least this size, with something drawn on it (not one flat colour)."""
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pixels = _pixels(path)
    h, w, _ = pixels.shape
    assert w >= min_width and h >= min_height, (w, h)
    rgb = pixels[..., :3].reshape(-1, 3)
    assert rgb.std(axis=0).max() > 20, "the picture is (nearly) one colour"
    assert len(np.unique(rgb, axis=0)) > 50, "the picture has almost no colours"
    return pixels


def _run(command, *, cwd=None, env=None, timeout=900) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [str(c) for c in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, (
        f"{' '.join(map(str, command))} exited {result.returncode}\n"
        f"stdout:\n{result.stdout[-4000:]}\nstderr:\n{result.stderr[-4000:]}"
    )
    return result


def _fresh_venv(folder: Path) -> Path:
    """A new virtual environment without kfdviz's own; returns its python."""
    _run([sys.executable, "-m", "venv", folder])
    return folder / "bin" / "python"


def _pip_install(python: Path, *requirements: str, cwd=None) -> None:
    _run(
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", *requirements],
        cwd=cwd,
    )


def _outside_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a user's shell: no PYTHONPATH, no virtual environment activated."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if Path(sys.prefix) not in Path(p).parents
    )
    env["HOME"] = str(tmp_path / "home")
    return env


def _declared_floors() -> dict[str, str]:
    """Every dependency's lower bound as pyproject.toml declares it: name -> version."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    floors = {}
    for requirement in project["dependencies"]:
        match = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9.]*)(,.*)?", requirement)
        assert match, f"dependency without a >= floor: {requirement!r}"
        floors[match.group(1)] = match.group(2)
    return floors


# ---------------------------------------------------------------------------------------------
# the icon and the resources accessor


def test_every_icon_png_is_the_svg_drawn_at_its_size(qapp):
    from PySide6.QtCore import QByteArray, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(QByteArray(resources.icon_svg()))
    assert renderer.isValid()
    assert renderer.defaultSize().width() == renderer.defaultSize().height()
    for size in resources.ICON_SIZES:
        committed = _pixels(resources.icon_png(size)).astype(int)
        assert committed.shape == (size, size, 4), (size, committed.shape)
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        drawn = _pixels(bytes(_png_bytes(image))).astype(int)
        difference = np.abs(committed - drawn)
        # Antialiasing may differ by a step or two between Qt versions; a stale PNG differs a lot.
        assert difference.mean() < 2.0 and np.percentile(difference, 99) < 40, size
        # The tile covers most of the square; the corners are transparent.
        opaque = committed[..., 3] > 128
        assert 0.7 < opaque.mean() < 0.98, size
        assert committed[0, 0, 3] == 0


def _png_bytes(image) -> bytes:
    from PySide6.QtCore import QBuffer, QIODevice

    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, "PNG")
    return bytes(buffer.data())


def test_the_icon_svg_is_a_square_svg_document():
    import xml.etree.ElementTree as ET

    root = ET.fromstring(resources.icon_svg())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    _, _, w, h = (float(v) for v in root.get("viewBox").split())
    assert w == h > 0


def test_an_icon_size_that_is_not_there_is_refused_with_the_sizes():
    with pytest.raises(ValueError, match=r"no 100 px icon.*16, 22, 24"):
        resources.icon_png(100)


def test_the_application_icon_holds_every_size(qapp):
    from kfdviz.app import application_icon

    sizes = {(s.width(), s.height()) for s in application_icon().availableSizes()}
    assert sizes == {(s, s) for s in resources.ICON_SIZES}


@pytest.mark.gui
@pytest.mark.slow
def test_the_app_shows_its_icon(qapp, tmp_path):
    from kfdviz.app import launch

    qapp.setWindowIcon(type(qapp.windowIcon())())  # start without one
    assert launch(None, screenshot=str(tmp_path / "shot.png")) == 0
    sizes = {s.width() for s in qapp.windowIcon().availableSizes()}
    assert sizes == set(resources.ICON_SIZES)
    assert qapp.desktopFileName() == "kfdviz"


# ---------------------------------------------------------------------------------------------
# the desktop entry and `kfdviz desktop install / uninstall`


def _validate_desktop_entry(path: Path) -> None:
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        pytest.skip(
            "desktop-file-validate is not installed (Debian: desktop-file-utils; "
            "python3 tasks.py test installs it)"
        )
    result = subprocess.run([tool, str(path)], capture_output=True, text=True)
    # It prints errors and warnings (hints are advice); an accepted entry gives neither.
    problems = [line for line in result.stdout.splitlines() if "hint:" not in line]
    assert result.returncode == 0 and not problems, result.stdout + result.stderr


def _entry_fields(text: str) -> dict[str, str]:
    lines = text.splitlines()
    assert lines[0] == "[Desktop Entry]"
    return dict(line.split("=", 1) for line in lines[1:] if line and not line.startswith("#"))


def _exec_arguments(value: str) -> list[str]:
    """An Exec value read back as the Desktop Entry Specification says: string escapes first,
    then double-quoted arguments with \\", \\`, \\$ and \\\\ inside, %% for a literal %."""
    escapes = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
    unescaped = re.sub(r"\\([snrt\\])", lambda m: escapes[m.group(1)], value)
    arguments, current, quoted, i, started = [], "", False, 0, False
    while i < len(unescaped):
        c = unescaped[i]
        if quoted and c == "\\":
            current += unescaped[i + 1]
            i += 2
            continue
        if c == '"':
            quoted, started = not quoted, True
        elif c == " " and not quoted:
            if started:
                arguments.append(current)
            current, started = "", False
        elif c == "%":
            assert unescaped[i + 1] == "%", f"field code in {value!r}"
            current += "%"
            started = True
            i += 1
        else:
            current += c
            started = True
        i += 1
    if started:
        arguments.append(current)
    return arguments


def test_the_packaged_desktop_entry_is_the_one_kfdviz_writes_and_is_valid():
    text = (PACKAGING / "kfdviz.desktop").read_text()
    assert text == desktop.entry_text()
    fields = _entry_fields(text)
    assert fields["Icon"] == resources.ICON_NAME
    assert _exec_arguments(fields["Exec"]) == ["kfdviz"]
    _validate_desktop_entry(PACKAGING / "kfdviz.desktop")


@pytest.mark.parametrize(
    "command",
    [
        ["/opt/kfdviz/kfdviz"],
        ["/home/a user/my apps/kfdviz"],
        ['/tmp/we"ird/$HOME/`x`/back\\slash/100%/kfdviz', "-m", "kfdviz"],
    ],
)
def test_the_exec_line_starts_exactly_the_command(command, tmp_path):
    text = desktop.entry_text(command, try_exec=command[0])
    fields = _entry_fields(text)
    assert _exec_arguments(fields["Exec"]) == command
    path = tmp_path / "kfdviz.desktop"
    path.write_text(text)
    _validate_desktop_entry(path)


def _tree(folder: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


def test_desktop_install_then_uninstall_leaves_the_data_folder_as_it_was(
    tmp_path, monkeypatch, capsys
):
    home = tmp_path / "data"
    # What the user has already: another application's entry and icon, which must stay.
    (home / "applications").mkdir(parents=True)
    (home / "applications" / "other.desktop").write_text("[Desktop Entry]\nName=other\n")
    (home / "icons" / "hicolor" / "48x48" / "apps").mkdir(parents=True)
    (home / "icons" / "hicolor" / "48x48" / "apps" / "other.png").write_bytes(b"png")
    before = _tree(home)
    monkeypatch.setenv("XDG_DATA_HOME", str(home))

    assert cli.main(["desktop", "install"]) == 0
    out = capsys.readouterr().out
    assert str(home / "applications" / "kfdviz.desktop") in out
    entry = home / "applications" / "kfdviz.desktop"
    fields = _entry_fields(entry.read_text())
    assert _exec_arguments(fields["Exec"]) == desktop.launch_command()
    assert fields["Icon"] == "kfdviz"
    _validate_desktop_entry(entry)
    hicolor = home / "icons" / "hicolor"
    for size in resources.ICON_SIZES:
        png = hicolor / f"{size}x{size}" / "apps" / "kfdviz.png"
        assert png.read_bytes() == resources.icon_png(size)
        assert _pixels(png).shape[:2] == (size, size)
    assert (hicolor / "scalable" / "apps" / "kfdviz.svg").read_bytes() == resources.icon_svg()
    added = set(_tree(home)) - set(before)
    assert len([p for p in added if _tree(home)[p] is not None]) == len(resources.ICON_SIZES) + 2
    assert not list(home.rglob("*.tmp")), "a temporary file was left behind"

    # Installing again replaces the files (the same ones), uninstalling removes them all.
    assert cli.main(["desktop", "install"]) == 0
    assert cli.main(["desktop", "uninstall"]) == 0
    assert f"removed {len(resources.ICON_SIZES) + 2} files" in capsys.readouterr().out
    assert _tree(home) == before
    assert cli.main(["desktop", "uninstall"]) == 0
    assert "nothing to remove" in capsys.readouterr().out


def test_the_data_folder_follows_the_specification(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))
    assert desktop.data_home() == tmp_path / "elsewhere"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/path")  # not absolute: ignored
    assert desktop.data_home() == tmp_path / ".local" / "share"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert desktop.data_home() == tmp_path / ".local" / "share"


def test_desktop_install_says_why_it_cannot_write(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    assert cli.main(["desktop", "install"]) == 1
    err = capsys.readouterr().err
    assert "could not install the desktop files" in err and str(blocker) in err


# ---------------------------------------------------------------------------------------------
# the version


def test_version_is_the_package_metadata_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"kfdviz {metadata.version('kfdviz')}"


# ---------------------------------------------------------------------------------------------
# wheel, sdist, floors (slow: they build and install for real)


@pytest.fixture(scope="module")
def distributions(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel, built as a release would be: the wheel from the sdist."""
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--outdir", out, REPO], cwd=out)
    (wheel,) = out.glob("kfdviz-*.whl")
    (sdist,) = out.glob("kfdviz-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.mark.slow
def test_the_wheel_and_the_sdist_carry_the_resources(distributions):
    expected = {
        "icons/kfdviz.svg",
        *(f"icons/{resources.icon_png_name(s)}" for s in resources.ICON_SIZES),
    }
    with zipfile.ZipFile(distributions["wheel"]) as wheel:
        names = set(wheel.namelist())
        in_wheel = {n.removeprefix("kfdviz/resources/") for n in names}
        assert expected <= in_wheel
        for size in resources.ICON_SIZES:
            name = f"kfdviz/resources/icons/{resources.icon_png_name(size)}"
            assert wheel.read(name) == resources.icon_png(size)
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        text = wheel.read(meta).decode()
    assert f"Version: {metadata.version('kfdviz')}" in text
    assert "Requires-Dist: scikit-learn>=1.6" in text
    with tarfile.open(distributions["sdist"]) as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert {f"kfdviz/resources/{e}" for e in expected} <= members


def _wheel_metadata(wheel: Path):
    """The wheel's METADATA, parsed as the email-header document it is."""
    from email.parser import Parser

    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return Parser().parsestr(archive.read(name).decode())


@pytest.mark.slow
def test_the_wheel_describes_the_project_for_a_package_index(distributions):
    meta = _wheel_metadata(distributions["wheel"])
    classifiers = set(meta.get_all("Classifier"))
    assert {
        "Environment :: X11 Applications :: Qt",
        "Intended Audience :: Science/Research",
        "Operating System :: POSIX :: Linux",
        "Programming Language :: Python :: 3.11",
        "Topic :: Scientific/Engineering :: Visualization",
    } <= classifiers
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    # every Python version named is one the package allows
    requires = meta["Requires-Python"]
    assert requires == ">=3.11"
    versions = [c.rsplit(" ", 1)[1] for c in classifiers if re.fullmatch(r".*:: 3\.\d+", c)]
    assert versions and all(tuple(map(int, v.split("."))) >= (3, 11) for v in versions)
    keywords = meta["Keywords"].split(",")
    assert {"kernel PCA", "kernel Fisher discriminant", "scikit-learn"} <= set(keywords)
    # the README is the package page, and it names every estimator
    assert meta["Description-Content-Type"] == "text/markdown"
    page = meta.get_payload()
    for name in kfdviz.estimators.__all__:
        exported = getattr(kfdviz.estimators, name)
        if isinstance(exported, type) and issubclass(exported, Warning):
            continue  # the warnings the estimators give are no estimators
        assert f"`{name}`" in page, name
    # a project URL is a real address, never a placeholder
    for entry in meta.get_all("Project-URL") or []:
        url = entry.split(",", 1)[1].strip()
        assert url.startswith("https://") and not re.search(r"OWNER|example\.|TODO|XXX", url)


def test_the_citation_file_is_valid_citation_file_format():
    """CITATION.cff: version 1.2.0 of the format, with the keys it requires, citing the
    software at the package's version, and each paper in full enough to find it."""
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with the test extra")
    cff = yaml.safe_load((REPO / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    assert {"cff-version", "message", "title", "authors"} <= set(cff)
    assert cff["type"] == "software"
    assert str(cff["version"]) == kfdviz.__version__
    assert cff["license"] == "BSD-3-Clause"
    assert all("name" in a or "family-names" in a for a in cff["authors"])
    references = cff["references"]
    assert len(references) >= 5
    for ref in references:
        assert {"type", "title", "authors", "year"} <= set(ref), ref.get("title")
        assert ref["authors"] and all("family-names" in a for a in ref["authors"])
        assert isinstance(ref["year"], int) and 1990 < ref["year"] < 2030
    titles = " ".join(r["title"] for r in references)
    for paper in ("Rayleigh Coefficients", "Mathematical Programming", "Novelty Detection"):
        assert paper in titles


@pytest.mark.slow
def test_the_wheel_installs_and_runs_outside_the_checkout(distributions, tmp_path):
    python = _fresh_venv(tmp_path / "venv")
    _pip_install(python, distributions["wheel"])
    kfdviz = python.parent / "kfdviz"
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = _outside_env(tmp_path)
    env.pop("QT_QPA_PLATFORM", None)

    info = _run([kfdviz, "info"], cwd=work, env=env).stdout
    assert re.search(r"^kfdviz\s+" + re.escape(metadata.version("kfdviz")) + "$", info, re.M)
    assert re.search(r"^Qt\s+6\.", info, re.M), info
    version = _run([kfdviz, "--version"], cwd=work, env=env).stdout.strip()
    assert version == f"kfdviz {metadata.version('kfdviz')}"
    # The installed package is the one that runs, not the checkout.
    where = _run([python, "-c", "import kfdviz; print(kfdviz.__file__)"], cwd=work, env=env)
    assert Path(where.stdout.strip()).is_relative_to(tmp_path / "venv")

    result = _run(
        [kfdviz, "render", "--preset", "kfd-vs-kpca", "--out", "x.png"], cwd=work, env=env
    )
    assert result.stdout.strip().endswith("x.png")
    _assert_real_picture(work / "x.png", 800, 300)
    # A display of the user's own estimator, with no display to draw on.
    headless = {k: v for k, v in env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    _run([python, "-c", DISPLAY_CHECK], cwd=work, env=headless)
    _assert_real_picture(work / "display.png", 800, 300)

    # The icon files come from the installed package too.
    home = tmp_path / "xdg"
    env["XDG_DATA_HOME"] = str(home)
    _run([kfdviz, "desktop", "install"], cwd=work, env=env)
    assert (home / "icons" / "hicolor" / "512x512" / "apps" / "kfdviz.png").read_bytes() == (
        resources.icon_png(512)
    )
    exec_line = _entry_fields((home / "applications" / "kfdviz.desktop").read_text())["Exec"]
    assert _exec_arguments(exec_line) == [str(kfdviz.absolute())]
    _run([kfdviz, "desktop", "uninstall"], cwd=work, env=env)
    assert not any(p.is_file() for p in home.rglob("*"))


DISPLAY_CHECK = textwrap.dedent(
    """
    from sklearn.datasets import make_moons

    import kfdviz

    X, y = make_moons(100, noise=0.1, random_state=0)
    kfd = kfdviz.KernelFisherDiscriminant(width=0.5).fit(X, y)
    kfdviz.LevelSetDisplay.from_estimator(kfd, X, y).save("display.png")
    """
)


FLOOR_CHECK = textwrap.dedent(
    """
    import json
    from importlib import metadata

    import numpy as np
    from sklearn.datasets import make_moons
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    import kfdviz
    from kfdviz import (
        KernelFisherDiscriminant, KernelOrthogonalCentroid, KernelPCA, KernelPCANoveltyDetector,
    )
    from kfdviz.pipeline.geometry import contour_lines

    X, y = make_moons(200, noise=0.1, random_state=0)
    out = {"versions": {name: metadata.version(name) for name in NAMES}}
    out["kfd"] = KernelFisherDiscriminant(width=0.5).fit(X, y).score(X, y)
    # the sparse programs: the QP through clarabel, the LP dual through highspy
    sparse = KernelFisherDiscriminant(width=0.5, formulation="sparse").fit(X, y)
    out["sparse"] = sparse.score(X, y)
    lp = KernelFisherDiscriminant(
        width=0.5, formulation="linear-sparse", n_centers=20, random_state=0
    ).fit(X, y)
    out["linear_sparse"] = lp.score(X, y)
    # KPCA against scikit-learn's (gamma = 1 / width), features equal up to sign
    ours = KernelPCA(n_components=3, width=0.5).fit(X).transform(X)
    theirs = SklearnKernelPCA(3, kernel="rbf", gamma=2.0).fit(X).transform(X)
    out["kpca_gap"] = float(np.abs(np.abs(ours) - np.abs(theirs)).max())
    out["koc_shape"] = list(KernelOrthogonalCentroid(width=0.5).fit(X, y).transform(X).shape)
    nd = KernelPCANoveltyDetector(width=0.5).fit(X)
    out["novelty_far_above_near"] = bool(
        nd.score_samples(np.array([[8.0, 8.0]]))[0] < nd.score_samples(X[:1])[0]
    )
    xs = np.linspace(-1.0, 1.0, 41)
    field = xs[None, :] ** 2 + xs[:, None] ** 2
    (line,) = contour_lines(xs, xs, field, [0.25])
    radius = np.hypot(*line.path[np.isfinite(line.path).all(axis=1)].T)
    out["contour"] = [line.n_pieces, float(radius.min()), float(radius.max())]
    print(json.dumps(out))
    """
)


def _install_floors(python: Path, floors: dict[str, str], names) -> None:
    """Install exactly the floors of ``names``. Binary wheels only: where this Python is newer
    than a floor's wheels, that floor cannot be checked here (nor would it install for a user);
    that is a skip, not a pass."""
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    pinned = [f"{name}=={floors[name]}" for name in names]
    install = subprocess.run(
        [*pip, "--only-binary", ":all:", *pinned],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if install.returncode != 0 and "No matching distribution" in install.stderr:
        pytest.skip(f"the floors have no wheels for this Python: {install.stderr[-600:]}")
    assert install.returncode == 0, install.stderr[-4000:]


def _assert_is_floor(installed: str, declared: str) -> None:
    """``installed`` is the release ``declared`` names (numpy 1.26 is numpy 1.26.0)."""
    have, want = installed.split("."), declared.split(".")
    assert have[: len(want)] == want and set(have[len(want) :]) <= {"0"}, (installed, declared)


@pytest.mark.slow
def test_the_declared_floors_install_fit_and_draw(distributions, tmp_path):
    floors = _declared_floors()
    assert set(floors) == set(LIBRARY_DEPENDENCIES) | set(APP_DEPENDENCIES)
    python = _fresh_venv(tmp_path / "venv")
    env = _outside_env(tmp_path)

    # The library on its floors alone (no Qt at all).
    _install_floors(python, floors, LIBRARY_DEPENDENCIES)
    _pip_install(python, "--no-deps", distributions["wheel"])
    check = tmp_path / "check.py"
    check.write_text(f"NAMES = {list(LIBRARY_DEPENDENCIES)!r}\n" + FLOOR_CHECK)
    out = json.loads(_run([python, check], cwd=tmp_path, env=env).stdout)
    for name in LIBRARY_DEPENDENCIES:
        _assert_is_floor(out["versions"][name], floors[name])
    assert out["kfd"] > 0.95 and out["sparse"] > 0.9 and out["linear_sparse"] > 0.9
    assert out["kpca_gap"] < 1e-6
    assert out["koc_shape"] == [200, 2]
    assert out["novelty_far_above_near"]
    assert out["contour"] == pytest.approx([1, 0.5, 0.5], abs=0.01)

    # Then the desktop app's floors: a figure, and the window where there is a display.
    _install_floors(python, floors, APP_DEPENDENCIES)
    versions = _run(
        [
            python,
            "-c",
            "import sys; from importlib.metadata import version as v; "
            "print(' '.join(v(n) for n in sys.argv[1:]))",
            *APP_DEPENDENCIES,
        ],
        env=env,
    ).stdout.split()
    for name, installed in zip(APP_DEPENDENCIES, versions, strict=True):
        _assert_is_floor(installed, floors[name])
    kfdviz = python.parent / "kfdviz"
    _run([kfdviz, "render", "--preset", "kfd-vs-kpca", "--out", "x.png"], cwd=tmp_path, env=env)
    _assert_real_picture(tmp_path / "x.png", 800, 300)
    if env.get("DISPLAY") and env.get("QT_QPA_PLATFORM", "xcb") == "xcb":
        _run([kfdviz, "--preset", "koc-iris", "--screenshot", "shot.png"], cwd=tmp_path, env=env)
        _assert_real_picture(tmp_path / "shot.png", 1000, 600)


# ---------------------------------------------------------------------------------------------
# the desktop bundle (slow: PyInstaller takes minutes)

# A guard against the bundle growing unnoticed (it was about 300 MiB with PySide6 6.11, numpy 2.4,
# scipy 1.17 and scikit-learn 1.9): most of it is Qt, scipy, numpy and two OpenBLAS builds.
BUNDLE_MAX_MIB = 400


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    pytest.importorskip("PyInstaller", reason="PyInstaller is in the test and package extras")
    out = tmp_path_factory.mktemp("bundle")
    _run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            out / "dist",
            "--workpath",
            out / "build",
            PACKAGING / "kfdviz.spec",
        ],
        cwd=out,
        timeout=1800,
    )
    return out / "dist" / "kfdviz"


def _bare_env(tmp_path: Path) -> dict[str, str]:
    """What a desktop session gives a program: a display, a home, a runtime folder; no Python
    on PATH beyond the system's, no PYTHONPATH, no virtual environment, no Qt settings."""
    home = tmp_path / "home"
    runtime = tmp_path / "runtime"
    for folder in (home, runtime):
        folder.mkdir(exist_ok=True)
    runtime.chmod(0o700)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_RUNTIME_DIR": str(runtime)}
    for name in ("DISPLAY", "XAUTHORITY", "LANG"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


@pytest.mark.slow
@pytest.mark.gui
def test_the_bundle_draws_a_preset_without_python_around(bundle, tmp_path):
    executable = bundle / "kfdviz"
    assert executable.is_file() and os.access(executable, os.X_OK)
    env = _bare_env(tmp_path)
    command = [executable, "--preset", "koc-iris", "--screenshot", tmp_path / "shot.png"]
    if "DISPLAY" not in env:
        if shutil.which("xvfb-run") is None:
            pytest.skip("needs an X display or xvfb-run (python3 tasks.py test provides both)")
        command = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", *command]
    _run(command, cwd=tmp_path, env=env, timeout=300)
    pixels = _assert_real_picture(tmp_path / "shot.png", 1000, 600)
    # The points of the three iris classes and the level sets are drawn in colour.
    rgb = pixels[..., :3].astype(int)
    saturated = (rgb.max(axis=2) - rgb.min(axis=2)) > 80
    assert saturated.mean() > 0.01

    version = _run([executable, "--version"], env=env).stdout.strip()
    assert version == f"kfdviz {metadata.version('kfdviz')}"
    info = _run([executable, "info"], env=env).stdout
    assert re.search(r"^numpy\s+\d", info, re.M) and "not installed" not in info, info


@pytest.mark.slow
def test_the_bundle_holds_what_the_app_uses_and_not_more(bundle):
    internal = bundle / "_internal"
    size = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file() and not p.is_symlink())
    print(f"bundle size: {size / 2**20:.0f} MiB")  # shown with pytest -s
    assert size < BUNDLE_MAX_MIB * 2**20, f"{size / 2**20:.0f} MiB"
    qt = internal / "PySide6"
    modules = {p.name.split(".")[0] for p in qt.glob("Qt*.so")}
    assert {"QtCore", "QtGui", "QtWidgets", "QtSvg", "QtOpenGL", "QtOpenGLWidgets"} <= modules
    assert not modules & {"QtNetwork", "QtQml", "QtQuick", "QtPdf", "QtWebEngineCore"}, modules
    platforms = {p.name for p in (qt / "Qt" / "plugins" / "platforms").iterdir()}
    assert {"libqxcb.so", "libqwayland.so", "libqoffscreen.so"} <= platforms
    assert "libqeglfs.so" not in platforms and "libqvnc.so" not in platforms
    assert (qt / "Qt" / "plugins" / "xcbglintegrations").is_dir()
    # The Python modules are in the archive inside the executable.
    from PyInstaller.archive.readers import CArchiveReader

    executable = CArchiveReader(str(bundle / "kfdviz"))
    (archive,) = [name for name in executable.toc if name.endswith(".pyz")]
    modules = set(executable.open_embedded_archive(archive).toc)
    for needed in ("pyqtgraph.opengl", "OpenGL.GL", "kfdviz.paper_presets", "kfdviz.app"):
        assert needed in modules, needed
    assert not modules & {"pytest", "matplotlib", "tkinter", "PySide6.QtNetwork"}
    icons = internal / "kfdviz" / "resources" / "icons"
    for size_px in resources.ICON_SIZES:
        assert (icons / resources.icon_png_name(size_px)).read_bytes() == resources.icon_png(
            size_px
        )
    assert not (internal / "PySide6" / "Qt" / "translations").exists()
    # No library a kept file does not link to, and no dangling link.
    assert not [p for p in bundle.rglob("*") if p.is_symlink() and not p.exists()]


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_desktop_install_is_refused_where_no_desktop_reads_it(
    platform, tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert cli.main(["desktop", "install"]) == 1
    assert "freedesktop.org" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
