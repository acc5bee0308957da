"""Interactive explorers: each function returns one ipywidgets container.

Importing this module imports ipywidgets and matplotlib; ``import rejlab``
does not.
"""

from ._base import Explorer, format_number  # noqa: F401
from ._rejection import *  # noqa: F401,F403  lessons 01-03, 06
from ._optimality import *  # noqa: F401,F403  lessons 04-05
from ._covering import *  # noqa: F401,F403  lessons 07-09
from ._context import *  # noqa: F401,F403  lesson 10
from ._report import *  # noqa: F401,F403  lesson 11
