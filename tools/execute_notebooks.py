"""Re-execute notebooks in place, the way they are stored in the repository.

    python tools/execute_notebooks.py notebooks/03_measures_vs_rejection.ipynb [...]
    python tools/execute_notebooks.py            # every lesson, then every teacher notebook

Each notebook runs top to bottom in a fresh kernel from its own folder
(widget state stored, so explorers render before anything runs), then the
wall-clock metadata of each cell is dropped so that a re-run changes only
what the code printed or drew. A notebook that raises stops the run with
its name and cell.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["notebooks/*.ipynb", "teacher/solutions/*.ipynb"]


def execute(path):
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    client.execute()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv):
    paths = argv or [str(p) for pattern in DEFAULT for p in sorted(ROOT.glob(pattern))]
    total = 0.0
    for path in paths:
        seconds = execute(path)
        total += seconds
        print(f"{seconds:6.1f} s  {path}")
    print(f"{total:6.1f} s  in all ({len(paths)} notebooks)")


if __name__ == "__main__":
    main(sys.argv[1:])
