"""Drawing: every function takes already-computed results and ``ax=None``,
and returns the Axes it drew on (so notebooks and widgets share them).

Importing this module imports matplotlib; ``import rejlab`` does not.
"""

from ._style import OKABE_ITO, REGION_STYLE, SERIES_COLORS, SUBSET_STYLE, get_ax  # noqa: F401
from ._subsets import *  # noqa: F401,F403  four subsets, partitions (lessons 01-03, 06)
from ._measures import *  # noqa: F401,F403  curves, operating sets, beta matrix, rho_0
from ._covering import *  # noqa: F401,F403  coverings and AA / RAR results
from ._scene import *  # noqa: F401,F403  hyperspectral scene maps
