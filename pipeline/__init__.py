"""Reference digitization pipeline for historical card-game laws (Écarté, Whist; French and English).

Stages (one module each, pure functions over the frozen types of ``pipeline.model``):
corpus -> clean -> segment -> align -> export (TEI, tables) -> rules -> referee.
"""

import os

__version__ = "0.1.0"

# one BLAS thread unless the user chose otherwise (read when numpy is first imported, so set here, before any
# stage imports it): the tagger multiplies one sentence's small matrices at a time, where OpenBLAS's threads
# only spin against each other and against the build's workers (a French sentence tagged in 31 ms on one
# thread, 440 ms with two threads on a busy two-core machine); the products are the same
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
