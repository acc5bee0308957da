"""rejlab: learn and measure classification with rejection and accuracy on
neighborhood systems.

The maths lives in plain NumPy modules (measures, binary, rejectors,
optimality, neighborhood, accuracy, context, datasets). Drawing
(``rejlab.plot``) and explorers (``rejlab.widgets``) load matplotlib and
ipywidgets lazily, so ``import rejlab`` stays light.
"""

from importlib import import_module as _import_module

from .measures import *  # noqa: F401,F403
from .binary import *  # noqa: F401,F403
from .rejectors import *  # noqa: F401,F403
from .optimality import *  # noqa: F401,F403
from .neighborhood import *  # noqa: F401,F403
from .accuracy import *  # noqa: F401,F403
from .report import *  # noqa: F401,F403
from . import datasets, exercises  # noqa: F401

__version__ = "0.1.0"

_LAZY = ("plot", "widgets", "context", "cli")


def __getattr__(name):
    if name in _LAZY:
        return _import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
