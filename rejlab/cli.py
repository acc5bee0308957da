"""The ``rejlab`` command line (issue 8)."""


def main(argv=None):  # replaced by issue 8
    raise SystemExit("rejlab: the command line is not built yet")
