#!/usr/bin/env python3
"""Developer tasks for kfdviz: set up the virtualenv, run the app, run the tests, lint.

Standard library only, so that a fresh machine with nothing but python3 can run it:

    python3 tasks.py run [ARGS...]     set up .venv, then start the app (`kfdviz ARGS...`)
    python3 tasks.py test [ARGS...]    set up .venv and system packages, run the whole test suite
                                       under a virtual X display (ARGS go to pytest)
    python3 tasks.py lint              ruff check + ruff format --check + the import layers
                                       (lint-imports, contracts in pyproject.toml)
    python3 tasks.py package [ARGS...] build the desktop bundle dist/kfdviz/ with PyInstaller
                                       (packaging/kfdviz.spec; ARGS go to pyinstaller)
    python3 tasks.py docs              build the API reference (Sphinx, docs/api/) into
                                       build/docs/html, any warning an error, and run the
                                       examples page's code

The virtualenv lives in `.venv` beside this file. The project is installed into it in editable
mode: `run` installs the application alone, `test` and `lint` add the `test` extra, `package` the
`package` extra, `docs` the `docs` extra. An install is skipped while pyproject.toml is unchanged since the last one and
the extras asked for are in (a stamp file in .venv remembers both).
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(REPO, ".venv")
STAMP = os.path.join(VENV, ".kfdviz-install-stamp")
PYPROJECT = os.path.join(REPO, "pyproject.toml")
MIN_PYTHON = (3, 11)
LINT_PATHS = ["kfdviz", "tests", "tasks.py", "packaging"]
SPEC = os.path.join(REPO, "packaging", "kfdviz.spec")

# Debian packages that Qt's xcb platform plugin (PySide6 6.10 wheels) loads at run time and that a
# minimal Debian does not have. Each entry lists alternative names, newest naming first.
GUI_PACKAGES = [
    ("libgl1",),
    ("libegl1",),
    ("libgl1-mesa-dri",),  # Mesa's software renderer (llvmpipe): OpenGL without a GPU
    ("libx11-xcb1",),
    ("libxcb-cursor0",),
    ("libxcb-icccm4",),
    ("libxcb-image0",),
    ("libxcb-keysyms1",),
    ("libxcb-randr0",),
    ("libxcb-render-util0",),
    ("libxcb-shape0",),
    ("libxcb-xfixes0",),
    ("libxcb-xkb1",),
    ("libxkbcommon-x11-0",),
    ("libfontconfig1",),
    ("fonts-dejavu-core",),  # without any font Qt warns, and the tests fail on Qt warnings
    ("libdbus-1-3",),
    ("libglib2.0-0t64", "libglib2.0-0"),
]
# What the tests add: a virtual X server and xvfb-run (which needs xauth), and the desktop entry's
# validator.
TEST_PACKAGES = [("xvfb",), ("xauth",), ("desktop-file-utils",)]

XVFB_SCREEN = "-screen 0 1920x1080x24"


def say(message):
    print("tasks.py: " + message, flush=True)


def fail(message, code=1):
    print("tasks.py: error: " + message, file=sys.stderr, flush=True)
    sys.exit(code)


def is_root():
    return hasattr(os, "geteuid") and os.geteuid() == 0


def venv_bin(name):
    folder = "Scripts" if os.name == "nt" else "bin"
    suffix = ".exe" if os.name == "nt" else ""
    return os.path.join(VENV, folder, name + suffix)


# --------------------------------------------------------------------------------------------
# Python interpreter and virtualenv


def find_python():
    """An interpreter new enough for kfdviz: this one, or a python3.X on PATH."""
    if sys.version_info[:2] >= MIN_PYTHON:
        return sys.executable
    for minor in range(20, MIN_PYTHON[1] - 1, -1):
        candidate = shutil.which(f"python3.{minor}")
        if candidate:
            return candidate
    have = "{}.{}".format(*sys.version_info[:2])
    need = "{}.{}".format(*MIN_PYTHON)
    fail(f"kfdviz needs Python >= {need}, this is {have} and no newer python3.X is on PATH")


def python_version(python):
    out = subprocess.run(
        [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
    )
    return out.stdout.strip() if out.returncode == 0 else None


def venv_is_usable():
    python = venv_bin("python")
    if not os.path.exists(python):
        return False
    check = subprocess.run(
        [
            python,
            "-c",
            f"import sys, pip; sys.exit(sys.version_info[:2] < {MIN_PYTHON!r})",
        ],
        capture_output=True,
    )
    return check.returncode == 0


def apt_install(packages):
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    update = subprocess.run(["apt-get", "update"], env=env, capture_output=True, text=True)
    if update.returncode != 0:
        print(update.stdout + update.stderr, file=sys.stderr)
        return False
    install = subprocess.run(
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages], env=env
    )
    return install.returncode == 0


def install_venv_support(python):
    """Debian and Ubuntu ship `venv` without ensurepip unless python3.X-venv is installed."""
    version = python_version(python) or "{}.{}".format(*sys.version_info[:2])
    candidates = [f"python{version}-venv", "python3-venv"]
    if not (is_root() and shutil.which("apt-get")):
        fail(
            f"`{python} -m venv` cannot create a virtualenv: ensurepip is missing.\n"
            "On Debian or Ubuntu install it with:\n"
            f"    sudo apt-get install python{version}-venv\n"
            "then run this command again."
        )
    for package in candidates:
        say("installing system packages: " + package)
        if apt_install([package]):
            return
    fail("could not install {} with apt-get".format(" or ".join(candidates)))


def create_venv(python):
    say("creating .venv")
    shutil.rmtree(VENV, ignore_errors=True)
    made = subprocess.run([python, "-m", "venv", VENV], capture_output=True, text=True)
    if made.returncode == 0 and venv_is_usable():
        return True
    shutil.rmtree(VENV, ignore_errors=True)
    output = made.stdout + made.stderr
    # Debian's venv says "ensurepip is not available"; a venv made without pip means the same.
    if "ensurepip" in output or made.returncode == 0:
        return False
    fail(f"`{python} -m venv .venv` failed:\n{output}")


def install_stamp():
    digest = hashlib.sha256()
    with open(PYPROJECT, "rb") as handle:
        digest.update(handle.read())
    digest.update(REPO.encode())
    digest.update((python_version(venv_bin("python")) or "").encode())
    return digest.hexdigest()


def installed_extras(stamp):
    """The extras the last install put into .venv, or None when pyproject.toml or Python changed.

    The stamp file holds the install's digest on its first line and one installed extra a line.
    """
    if not os.path.exists(STAMP):
        return None
    with open(STAMP) as handle:
        lines = handle.read().split()
    if not lines or lines[0] != stamp:
        return None
    return set(lines[1:])


def ensure_venv(extras=()):
    """Create or reuse .venv with the project and ``extras`` installed; return the venv's python.

    `run` needs the application only; `test`, `lint` and `package` add their tools. An install
    is skipped when pyproject.toml is unchanged and the extras asked for are already in.
    """
    if not venv_is_usable():
        python = find_python()
        if not create_venv(python):
            install_venv_support(python)
            if not create_venv(python):
                fail(f"`{python} -m venv .venv` still fails after installing venv support")
    stamp = install_stamp()
    have = installed_extras(stamp)
    wanted = set(extras)
    if have is None or not wanted <= have or not os.path.exists(venv_bin("kfdviz")):
        keep = (have or set()) | wanted
        target = ".[{}]".format(",".join(sorted(keep))) if keep else "."
        say(f"installing kfdviz{target[1:]} into .venv")
        pip = [venv_bin("python"), "-m", "pip", "--disable-pip-version-check"]
        code = subprocess.run([*pip, "install", "-q", "-e", target], cwd=REPO).returncode
        if code != 0:
            fail(f"pip install -e '{target}' failed (exit {code})", code)
        with open(STAMP, "w") as handle:
            handle.write("\n".join([stamp, *sorted(keep)]) + "\n")
    return venv_bin("python")


# --------------------------------------------------------------------------------------------
# System packages


def deb_installed(name):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Status}", name], capture_output=True, text=True)
    return out.returncode == 0 and out.stdout.strip().endswith("install ok installed")


def deb_available(name):
    out = subprocess.run(["apt-cache", "show", name], capture_output=True, text=True)
    return out.returncode == 0 and "Package:" in out.stdout


def ensure_system_packages(requirements):
    """Install the Debian packages the GUI needs when missing (as root), or say what to do."""
    if not sys.platform.startswith("linux") or not shutil.which("dpkg-query"):
        return
    missing = [names for names in requirements if not any(deb_installed(n) for n in names)]
    if not missing:
        return
    if not (is_root() and shutil.which("apt-get")):
        names = " ".join(names[-1] for names in missing)
        say("missing system packages; install them with:")
        print("    sudo apt-get install -y --no-install-recommends " + names, flush=True)
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "update"], env=env, capture_output=True)
    chosen = []
    for names in missing:
        available = [n for n in names if deb_available(n)]
        chosen.append(available[0] if available else names[-1])
    say("installing system packages: " + " ".join(chosen))
    install = subprocess.run(
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", *chosen], env=env
    )
    if install.returncode != 0:
        say("warning: apt-get install failed; GUI tests may not be able to run")


# --------------------------------------------------------------------------------------------
# Commands


def has_display():
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def cmd_run(args):
    ensure_venv()
    ensure_system_packages(GUI_PACKAGES)
    command = [venv_bin("kfdviz"), *args]
    wants_window = not any(a in ("-h", "--help", "--version") for a in args) and not (
        args and not args[0].startswith("-")
    )
    if sys.platform.startswith("linux") and wants_window and not has_display():
        if any(a == "--screenshot" or a.startswith("--screenshot=") for a in args):
            ensure_system_packages(TEST_PACKAGES)
            if shutil.which("xvfb-run"):
                command = ["xvfb-run", "-a", "-s", XVFB_SCREEN, *command]
                os.environ["QT_QPA_PLATFORM"] = "xcb"
        else:
            fail(
                "no display (DISPLAY and WAYLAND_DISPLAY are unset): kfdviz is a desktop app.\n"
                "Run it on a desktop session, or save a picture headless with\n"
                "    python3 tasks.py run --screenshot FILE.png"
            )
    if os.name == "nt":
        sys.exit(subprocess.run(command).returncode)
    os.execvp(command[0], command)


def cmd_test(args):
    python = ensure_venv(("test",))
    ensure_system_packages(GUI_PACKAGES + TEST_PACKAGES)
    env = dict(os.environ)
    data_dir = os.path.normpath(os.path.join(REPO, "..", "shared", "ida"))
    if not env.get("KFDVIZ_DATA_DIR") and os.path.isdir(data_dir):
        env["KFDVIZ_DATA_DIR"] = data_dir
    pytest = [python, "-m", "pytest", *args]
    if shutil.which("xvfb-run"):
        env["QT_QPA_PLATFORM"] = "xcb"
        # Under a real (virtual) X display with Mesa, OpenGL tests must run, not skip.
        env["KFDVIZ_REQUIRE_GL"] = "1"
        command = ["xvfb-run", "-a", "-s", XVFB_SCREEN, *pytest]
    elif has_display():
        command = pytest
    else:
        say("warning: no xvfb-run and no display; Qt runs offscreen and OpenGL tests skip")
        env["QT_QPA_PLATFORM"] = "offscreen"
        command = pytest
    say("running the test suite" + (" under xvfb-run" if command[0] == "xvfb-run" else ""))
    with tempfile.TemporaryDirectory(prefix="kfdviz-runtime-") as runtime_dir:
        # Qt warns when XDG_RUNTIME_DIR is unset (as under CI), and the tests fail on Qt warnings.
        if not env.get("XDG_RUNTIME_DIR"):
            env["XDG_RUNTIME_DIR"] = runtime_dir
        code = subprocess.run(command, cwd=REPO, env=env).returncode
    if code == 5:
        say("error: pytest collected no tests")
    sys.exit(code)


def cmd_lint(args):
    ensure_venv(("test",))
    ruff = venv_bin("ruff")
    checked = subprocess.run([ruff, "check", *args, *LINT_PATHS], cwd=REPO).returncode
    formatted = subprocess.run([ruff, "format", "--check", *LINT_PATHS], cwd=REPO).returncode
    layered = subprocess.run(
        [venv_bin("lint-imports"), "--no-logo", "--no-cache"], cwd=REPO
    ).returncode
    sys.exit(checked or formatted or layered)


def folder_size(folder):
    """(bytes, files) of everything under folder, links not followed."""
    total = count = 0
    for parent, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(parent, name)
            if not os.path.islink(path):
                total += os.path.getsize(path)
                count += 1
    return total, count


def option_value(options, name):
    """The value of `name VALUE` or `name=VALUE` in options, or None."""
    for i, option in enumerate(options):
        if option == name and i + 1 < len(options):
            return options[i + 1]
        if option.startswith(name + "="):
            return option.split("=", 1)[1]
    return None


def cmd_package(args):
    ensure_venv(("package",))
    # PyInstaller copies the system libraries Qt loads into the bundle: they must be here.
    ensure_system_packages(GUI_PACKAGES)
    options = list(args)
    distpath = option_value(options, "--distpath")
    if distpath is None:
        distpath = os.path.join(REPO, "dist")
        options += ["--distpath", distpath]
    if option_value(options, "--workpath") is None:
        options += ["--workpath", os.path.join(REPO, "build", "pyinstaller")]
    say("building the desktop bundle with PyInstaller (a few minutes)")
    command = [venv_bin("pyinstaller"), "--noconfirm", "--log-level", "WARN", *options, SPEC]
    code = subprocess.run(command, cwd=REPO).returncode
    if code != 0:
        fail(f"pyinstaller exited {code}", code)
    bundle = os.path.join(os.path.abspath(distpath), "kfdviz")
    size, files = folder_size(bundle)
    say(f"{bundle}: {size / 2**20:.0f} MiB in {files} files; the app: {bundle}/kfdviz")


DOCS = os.path.join(REPO, "docs", "api")
DOCS_OUT = os.path.join(REPO, "build", "docs")


def cmd_docs(args):
    """The API reference as HTML, then the examples page's code under the doctest builder.

    ``-W --keep-going``: every warning is reported, and any fails the build. ``-q``: only
    warnings and errors are printed, so that CI's log stays short. Nothing is fetched from the
    network (docs/api/conf.py uses no intersphinx).
    """
    python = ensure_venv(("docs",))
    env = dict(os.environ)
    # The package is imported to read its docstrings; no figure is drawn, but Qt must not look
    # for a display should a module start it.
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    sphinx = [python, "-m", "sphinx", "-W", "--keep-going", "-q", *args]
    for builder in ("html", "doctest"):
        say(f"building the docs: {builder}")
        out = os.path.join(DOCS_OUT, builder)
        doctrees = os.path.join(DOCS_OUT, "doctrees")
        code = subprocess.run(
            [*sphinx, "-b", builder, "-d", doctrees, DOCS, out], cwd=REPO, env=env
        ).returncode
        if code != 0:
            fail(f"sphinx-build -b {builder} failed (exit {code})", code)
    say("the API reference: " + os.path.join(DOCS_OUT, "html", "index.html"))


COMMANDS = {
    "run": (cmd_run, "set up .venv and start the app: kfdviz ARGS..."),
    "test": (cmd_test, "set up .venv and system packages, run all tests under a virtual display"),
    "lint": (cmd_lint, "ruff check, ruff format --check and the import layers (lint-imports)"),
    "package": (cmd_package, "build the one-folder desktop bundle dist/kfdviz/ (PyInstaller)"),
    "docs": (cmd_docs, "build the API reference (Sphinx, no warnings) and run its examples"),
}


def usage():
    lines = ["usage: python3 tasks.py COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<8} {text}" for name, (_, text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv):
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if argv else 2
    name, args = argv[0], argv[1:]
    if name not in COMMANDS:
        print(usage(), file=sys.stderr)
        fail(f"unknown command {name!r}", 2)
    COMMANDS[name][0](args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
