"""The desktop bundle's entry point: the ``kfdviz`` command, as installed by pip."""

import sys

from kfdviz.cli import main

if __name__ == "__main__":
    sys.exit(main())
