"""Reference digitization pipeline for historical card-game laws (Écarté, Whist; French and English).

Stages (one module each, pure functions over the frozen types of ``pipeline.model``):
corpus -> clean -> segment -> align -> export (TEI, tables) -> rules -> referee.
"""

__version__ = "0.1.0"
