"""The `kfdviz` command: opens the desktop app, or runs a headless subcommand.

Adding a subcommand takes one decorated function in this module::

    def _render_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("preset")

    @command("render", help="draw a preset's figure to a file", arguments=_render_arguments)
    def _render(args: argparse.Namespace) -> int:
        from kfdviz.render import render  # heavy imports stay inside the handler
        ...
        return 0

Nothing at module level imports Qt: `kfdviz --help` and the headless subcommands must work on a
machine without a display, and quickly. What loads inside a handler is what `kfdviz --help` must
not wait for: Qt, and the presets, sessions and figures (which bring the fitting pipeline).
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy  # noqa: F401  (loads numpy's BLAS, for `info`: threadpoolctl sees loaded libraries)
import scipy.linalg  # noqa: F401  (and scipy's)
from threadpoolctl import threadpool_info

from . import __version__, desktop
from .export_data import export_data

Handler = Callable[[argparse.Namespace], int]
ArgumentsHook = Callable[[argparse.ArgumentParser], None]


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    run: Handler
    arguments: ArgumentsHook | None = None


# Subcommands in the order `--help` lists them.
COMMANDS: dict[str, Command] = {}


def command(
    name: str, *, help: str, arguments: ArgumentsHook | None = None
) -> Callable[[Handler], Handler]:
    """Register ``func(args) -> exit code`` as the subcommand ``name``."""

    def register(func: Handler) -> Handler:
        if name in COMMANDS:
            raise ValueError(f"subcommand {name!r} is registered twice")
        COMMANDS[name] = Command(name, help, func, arguments)
        return func

    return register


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kfdviz",
        description=(
            "Explore kernel feature extraction: kernel PCA, oriented kernel PCA, kernel Fisher "
            "discriminants and the Kernel Orthogonal Centroid. Without a subcommand, opens the "
            "desktop app."
        ),
    )
    parser.add_argument("--version", action="version", version=f"kfdviz {__version__}")
    gui = parser.add_argument_group("desktop app (when no subcommand is given)")
    gui.add_argument(
        "--preset", metavar="NAME", help="open this preset instead of the built-in default"
    )
    gui.add_argument(
        "--screenshot",
        metavar="FILE.png",
        help="open the window, wait until the fit is drawn, save a screenshot and exit",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="subcommands")
    for cmd in COMMANDS.values():
        sub = subparsers.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        if cmd.arguments is not None:
            cmd.arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        if args.screenshot is not None and not args.screenshot.strip():
            return _error("--screenshot needs a file name, e.g. --screenshot window.png")
        return _open_app(args)
    if args.preset is not None or args.screenshot is not None:
        parser.error("--preset and --screenshot apply to the desktop app, not to subcommands")
    return _run_command(COMMANDS[args.command], args)


# Set to 1 to see the traceback of an unexpected error in a subcommand.
TRACEBACK_VARIABLE = "KFDVIZ_TRACEBACK"


def _run_command(cmd: Command, args: argparse.Namespace) -> int:
    """A subcommand's exit code; every failure is one line on stderr, never a traceback.

    Errors about a file or a value (ValueError: SessionError, DataFileError, DeckError, ...; and
    OSError) are the user's to fix and are said as they are; anything else is a bug, said in one
    line too, with how to see its traceback.
    """
    try:
        return cmd.run(args)
    except KeyboardInterrupt:
        print("kfdviz: interrupted", file=sys.stderr)
        return 130
    except (ValueError, OSError) as exc:
        return _error(_one_line(exc))
    except Exception as exc:  # a bug: still one line, with how to see the traceback
        if os.environ.get(TRACEBACK_VARIABLE) == "1":
            raise
        return _error(
            f"unexpected {type(exc).__name__} in `kfdviz {cmd.name}`: {_one_line(exc)} "
            f"(set {TRACEBACK_VARIABLE}=1 to see where)"
        )


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror and exc.filename:
        text = f"{exc.filename}: {exc.strerror}"
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(text.split())


def _error(message: str) -> int:
    print(f"kfdviz: error: {message}", file=sys.stderr)
    return 1


def _open_app(args: argparse.Namespace) -> int:
    try:
        # Qt and the window load only when the app opens, not for `--help` or a subcommand.
        from kfdviz.app import launch
    except ModuleNotFoundError as exc:
        if exc.name in ("kfdviz.app", "kfdviz"):
            return _error(
                "the desktop app is not part of this build yet (no kfdviz.app module); "
                "`kfdviz info` and the other subcommands work without it"
            )
        if exc.name and exc.name.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"):
            return _error(
                f"the desktop app needs {exc.name.split('.')[0]}, which is not installed: "
                "pip install kfdviz (or its dependencies) into this environment"
            )
        raise
    except ImportError as exc:
        # Typically a shared library Qt needs (libEGL.so.1, libxcb-cursor.so.0, ...).
        return _error(
            f"the desktop app could not load Qt: {exc}\n"
            "On Debian or Ubuntu the system libraries Qt needs are listed in tasks.py "
            "(GUI_PACKAGES); `python3 tasks.py run` installs them."
        )
    if (
        sys.platform.startswith("linux")
        and not os.environ.get("QT_QPA_PLATFORM")
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    ):
        return _error(
            "no display (DISPLAY and WAYLAND_DISPLAY are unset). Run kfdviz in a desktop "
            "session, or headless under a virtual display: xvfb-run -a kfdviz ..."
        )
    return launch(preset=args.preset, screenshot=args.screenshot)


# ---------------------------------------------------------------------------------------------
# kfdviz info


def _distribution_version(*names: str) -> str:
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return "not installed"


def _qt_versions() -> tuple[str, str]:
    """(Qt runtime version, PySide6 version); imports Qt, so only `info` calls it."""
    try:
        # Qt loads only for `info`; a missing Qt is reported, not raised.
        import PySide6
        from PySide6.QtCore import qVersion
    except ImportError as exc:
        missing = f"not available ({exc})"
        return missing, _distribution_version("PySide6", "PySide6-Essentials")
    return qVersion(), PySide6.__version__


def _blas_lines() -> list[str]:
    lines = []
    for lib in threadpool_info():
        if lib.get("user_api") != "blas":
            continue
        # The folder tells whose copy it is (numpy.libs, scipy.libs, ...).
        path = lib.get("filepath") or ""
        where = os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))
        lines.append(
            f"{lib.get('internal_api')} {lib.get('version') or '(unknown version)'}, "
            f"{lib.get('num_threads')} threads, "
            f"architecture {lib.get('architecture') or 'unknown'} ({where})"
        )
    return lines or ["none found by threadpoolctl"]


@command(
    "info",
    help="print the versions of kfdviz, Python, Qt and the numerical libraries, and the BLAS",
)
def _info(args: argparse.Namespace) -> int:
    qt, pyside = _qt_versions()
    rows = [
        ("kfdviz", __version__),
        ("Python", f"{platform.python_version()} ({platform.python_implementation()})"),
        ("platform", platform.platform()),
        ("Qt", qt),
        ("PySide6", pyside),
        ("pyqtgraph", _distribution_version("pyqtgraph")),
        ("numpy", _distribution_version("numpy")),
        ("scipy", _distribution_version("scipy")),
        ("scikit-learn", _distribution_version("scikit-learn")),
        ("contourpy", _distribution_version("contourpy")),
        ("threadpoolctl", _distribution_version("threadpoolctl")),
    ]
    rows += [("BLAS", line) for line in _blas_lines()]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return 0


# ---------------------------------------------------------------------------------------------
# kfdviz bench


def delegated(name: str, module: str, *, help: str) -> None:
    """Register the subcommand ``name`` whose ``add_arguments(parser)`` and ``run(args)`` live
    in ``module``. The module is imported when the parser is built (at module level it must
    import only the standard library, and modules that import only the standard library) and
    again to run."""

    def arguments(parser: argparse.ArgumentParser) -> None:
        importlib.import_module(module).add_arguments(parser)

    def run(args: argparse.Namespace) -> int:
        return importlib.import_module(module).run(args)

    command(name, help=help, arguments=arguments)(run)


delegated(
    "bench",
    "kfdviz.bench.cli",
    help="time the fast paths against baselines computed in the same run (--quick: smoke run)",
)


# ---------------------------------------------------------------------------------------------
# kfdviz presets, kfdviz render


def _presets_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="also print each preset's description"
    )


@command(
    "presets",
    help="list the presets (the papers' figures): name and title",
    arguments=_presets_arguments,
)
def _presets(args: argparse.Namespace) -> int:
    # The presets bring the fitting pipeline, which `kfdviz --help` must not wait for.
    from kfdviz import presets

    names = presets.names()
    width = max(len(n) for n in names)
    for name in names:
        p = presets.get(name)
        print(f"{name:<{width}}  {p.title}")
        if args.verbose:
            print(textwrap.fill(p.description, 96, initial_indent="    ", subsequent_indent="    "))
            if p.source:
                print(f"    Source: {p.source}")
            print()
    return 0


def _size_argument(text: str) -> tuple[int, int]:
    parts = text.lower().replace("×", "x").split("x")
    try:
        width, height = (int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"size must be WIDTHxHEIGHT in pixels, e.g. 1600x900, not {text!r}"
        ) from None
    return width, height


def _render_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--preset", dest="render_preset", metavar="NAME", help="a preset's figure")
    what.add_argument("--session", metavar="FILE.kfdviz", help="the picture of a session file")
    what.add_argument("--all", action="store_true", help="every preset, into --out-dir")
    parser.add_argument("--out", metavar="FILE", help="the picture: .png, .svg or .pdf")
    parser.add_argument("--out-dir", metavar="DIR", help="with --all: the folder for NAME.png etc.")
    parser.add_argument(
        "--format",
        dest="formats",
        action="append",
        choices=("png", "svg", "pdf"),
        help="with --all: the formats to write (repeatable; default png)",
    )
    parser.add_argument(
        "--size",
        type=_size_argument,
        metavar="WxH",
        help="size in pixels (default: 1600 wide, as tall as the panels need, at most 16:9)",
    )
    parser.add_argument(
        "--dpi",
        type=float,
        metavar="N",
        help="dots per inch: text and lines are sized in points (default 150; 300 for print)",
    )
    parser.add_argument(
        "--data",
        metavar="FILE",
        help="also write the points, outputs and embeddings (.csv with a .json of the "
        "parameters beside it, or .npz)",
    )
    parser.add_argument(
        "--save-session", metavar="FILE.kfdviz", help="also write the session (data, parameters)"
    )
    layout = parser.add_argument_group("layout")
    layout.add_argument(
        "--titles",
        choices=("auto", "all", "panels", "none"),
        default="auto",
        help="the figure's and the panels' titles (all), the panels' only (panels: a paper's "
        "caption takes the figure's) or none; default auto: all on a picture a slide wide "
        "(7.5 in) or wider, panels on a narrower one",
    )
    layout.add_argument(
        "--no-titles",
        action="store_const",
        const="none",
        dest="titles",
        help="the same as --titles none",
    )
    layout.add_argument(
        "--arrangement",
        choices=("auto", "row", "column", "grid"),
        default="auto",
        help="the panels in one row, one column, or a grid (default: the preset's own)",
    )
    layout.add_argument(
        "--panels-separately",
        action="store_true",
        help="each panel to a file of its own: --out f.png writes f-1.png, f-2.png, ...",
    )


@command(
    "render",
    help="draw a preset's or a session's picture to PNG, SVG or PDF, without a display",
    arguments=_render_arguments,
)
def _render(args: argparse.Namespace) -> int:
    # Figures are painted with QPainter, without a window: Qt's offscreen platform is all that is
    # needed, and it works without a display (or with a stale DISPLAY). Set before Qt starts.
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # Rendering and sessions bring the pipeline and the figure code: loaded for `render` only.
    from kfdviz import render as rendering
    from kfdviz.figure.export import check_size, format_of, save_figure
    from kfdviz.session import SessionError, load_session, save_session

    for option, value in (
        ("--out", args.out),
        ("--out-dir", args.out_dir),
        ("--session", args.session),
        ("--save-session", args.save_session),
        ("--data", args.data),
    ):
        if value is not None and not value.strip():
            return _error(f"{option} needs a file name, not an empty one")
    try:
        if args.all:
            if not args.out_dir:
                return _error("render --all writes into a folder: give --out-dir DIR")
            if args.out or args.data or args.save_session:
                return _error("render --all takes --out-dir (not --out, --data or --save-session)")
            written = rendering.render_all(
                args.out_dir,
                formats=tuple(dict.fromkeys(args.formats or ["png"])),
                size=args.size,
                dpi=args.dpi,
                report=lambda path: print(path, flush=True),
            )
            print(f"{len(written)} files in {Path(args.out_dir)}")
            return 0
        if not args.out:
            return _error("give the picture's file name with --out FILE.png (or .svg, .pdf)")
        if args.formats:
            return _error("--format goes with --all; the suffix of --out names the format")
        format_of(args.out)
        check_size(args.size, args.dpi)  # before fitting: --dpi inf, --dpi 0, --size 1x1
        if args.session:
            state = load_session(args.session)
        else:
            state = rendering.state_from_preset(args.render_preset)
        computed = rendering.compute(state)
        options = {"titles": args.titles, "arrangement": args.arrangement}
        if args.panels_separately:
            for path in rendering.render_panels(
                state,
                args.out,
                size=args.size,
                dpi=args.dpi,
                computed=computed,
                figure_options=options,
            ):
                print(path)
        else:
            # the data written beside the picture are the picture's: its maps' boxes
            computed, plan = rendering.picture(computed, args.size, args.dpi, options)
            save_figure(plan, args.out, args.size, args.dpi)
            print(Path(args.out))
        if args.data:
            written = export_data(computed, args.data)
            for p in written if isinstance(written, tuple) else (written,):
                print(p)
        if args.save_session:
            print(save_session(args.save_session, state))
        failed = [r for r in computed.results if isinstance(r, str)]
        for message in failed:
            print(f"kfdviz: warning: a panel could not be fitted: {message}", file=sys.stderr)
        sweep = computed.sweep
        if sweep is not None:
            for message in sweep.failures:
                print(f"kfdviz: warning: a sweep fit failed: {message}", file=sys.stderr)
            n_fits = len(sweep.values) * len(sweep.sweep.curves)
            if sweep.failures and len(sweep.failures) >= n_fits:
                return _error("every fit of the sweep failed; the picture shows no curve")
        if computed.results and len(failed) == len(computed.results):
            return _error("no panel could be fitted; the picture shows why in each panel")
        return 0
    except SessionError as exc:
        return _error(str(exc))
    except (ValueError, OSError) as exc:
        return _error(_one_line(exc))


# ---------------------------------------------------------------------------------------------
# kfdviz desktop


def _desktop_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        choices=("install", "uninstall"),
        help="install: put kfdviz (this copy of it) with its icon into the application menu; "
        "uninstall: remove what install wrote",
    )


@command(
    "desktop",
    help="add kfdviz to the Linux desktop's application menu, or remove it "
    "(files under $XDG_DATA_HOME, by default ~/.local/share)",
    arguments=_desktop_arguments,
)
def _desktop(args: argparse.Namespace) -> int:
    if sys.platform in ("win32", "darwin"):
        return _error(
            "kfdviz desktop writes a freedesktop.org menu entry, which Linux and BSD desktops "
            "read; on Windows and macOS make a shortcut to kfdviz (or to the bundle) instead"
        )
    home = desktop.data_home()
    try:
        if args.action == "install":
            command = desktop.launch_command()
            written = desktop.install(home, command)
            print(f"installed the menu entry {written[0]}, which starts {' '.join(command)}")
            print(f"and {len(written) - 1} icons under {home / 'icons' / 'hicolor'}")
            return 0
        removed = desktop.uninstall(home)
    except OSError as exc:
        return _error(f"could not {args.action} the desktop files under {home}: {exc}")
    if not removed:
        print(f"nothing to remove: no kfdviz desktop files under {home}")
    else:
        print(f"removed {len(removed)} files under {home}")
    return 0


# ---------------------------------------------------------------------------------------------
# kfdviz reproduce


delegated(
    "reproduce",
    "kfdviz.experiments.cli",
    help="reproduce a table of the papers on the IDA benchmark data (resumable, parallel)",
)
