"""``python -m rejlab``: the same command line as ``rejlab`` (see :mod:`rejlab.cli`)."""

from .cli import main

raise SystemExit(main())
