"""numpy, loaded in one place with its linear-algebra library on one thread.

The simulator's matrix products are small (a batch of hands times a few dozen groups). The
OpenBLAS that numpy's wheels bundle starts one thread per core and keeps them spinning after
each product, which on a two-core machine doubled the CPU time of a simulated query for the
same wall time, and took the second core from everything else. The library reads its thread
count once, when numpy loads, so it is set for that moment only: a user's own setting wins,
and the environment is as it was afterwards (child processes see nothing of it).

Import ``np`` (and ``npt``, numpy's typing) from here, never numpy directly, and only where
it is needed (numpy is never loaded at start-up).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: What the BLAS builds numpy ships with (OpenBLAS in the wheels, MKL in some distributions)
#: read for their thread count when they load.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextmanager
def _one_blas_thread() -> Iterator[None]:
    before = {name: os.environ.get(name) for name in THREAD_VARIABLES}
    for name, value in before.items():
        if value is None:
            os.environ[name] = "1"
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)


if "numpy" in sys.modules:  # loaded by the embedding program: its threads are its own
    import numpy as np
    import numpy.typing as npt
else:
    with _one_blas_thread():
        import numpy as np
        import numpy.typing as npt

__all__ = ["np", "npt"]
