"""Re-execute notebooks in place, the way they are stored in the repository.

    python tools/execute_notebooks.py notebooks/03_measures_vs_rejection.ipynb [...]
    python tools/execute_notebooks.py            # every lesson, then every teacher notebook

Each notebook runs top to bottom in a fresh kernel from its own folder
(widget state stored, so explorers render before anything runs), then the
wall-clock metadata of each cell is dropped so that a re-run changes only
what the code printed or drew. A notebook that raises stops the run with
its name and cell.

Each is stored as JupyterLab would write it back, so that opening a lesson
leaves it unmodified (no autosave, no conflict at the next ``git pull``): the
kernel's display name as the lab's kernelspec gives it, and numbers as the
browser keeps them (JSON read by JavaScript has no integral floats: 1.0 comes
back as 1). ``--as-stored`` applies that alone, without executing.

    python tools/execute_notebooks.py --as-stored      # every notebook, no kernel
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["notebooks/*.ipynb", "teacher/solutions/*.ipynb"]
#: ipykernel's kernelspec ``python3``, as the lab's kernelspecs API names it.
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def as_the_lab_writes(node):
    """``node`` with every integral float made an int (recursively); the lab's JSON keeps no 1.0."""
    if isinstance(node, float) and node.is_integer() and abs(node) < 1e21:
        return int(node)
    if isinstance(node, dict):
        for key, value in node.items():
            node[key] = as_the_lab_writes(value)
    elif isinstance(node, list):
        node[:] = [as_the_lab_writes(value) for value in node]
    return node


def store(nb, path):
    nb.metadata["kernelspec"] = nbformat.from_dict(KERNELSPEC)
    nbformat.write(as_the_lab_writes(nb), path)


def execute(path):
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    client.execute()
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    store(nb, path)
    return time.perf_counter() - start


def main(argv):
    as_stored = "--as-stored" in argv
    argv = [a for a in argv if a != "--as-stored"]
    paths = argv or [str(p) for pattern in DEFAULT for p in sorted(ROOT.glob(pattern))]
    if as_stored:
        for path in paths:
            store(nbformat.read(path, as_version=4), path)
        print(f"{len(paths)} notebooks stored as the lab writes them")
        return
    total = 0.0
    for path in paths:
        seconds = execute(path)
        total += seconds
        print(f"{seconds:6.1f} s  {path}")
    print(f"{total:6.1f} s  in all ({len(paths)} notebooks)")


if __name__ == "__main__":
    main(sys.argv[1:])
