"""``python -m rejlab``: the same command line as ``rejlab`` (see :mod:`rejlab.cli`)."""

from .cli import main

if __name__ == "__main__":  # pytest --doctest-modules imports this file too
    raise SystemExit(main())
