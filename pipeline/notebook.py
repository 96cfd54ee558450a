"""Small functions shared by the notebooks under notebooks/ (plots without a GUI, where the outputs are)."""

from __future__ import annotations

import io
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def outputs_dir() -> Path:
    """The outputs folder the notebooks read: $PIPELINE_OUTPUTS, else the project's outputs/."""
    return Path(os.environ.get("PIPELINE_OUTPUTS", ROOT / "outputs"))


def show(fig) -> None:
    """Render a matplotlib figure as PNG in the notebook (Agg backend, no GUI) and free it."""
    import matplotlib.pyplot as plt
    from IPython.display import Image, display

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    display(Image(data=buf.getvalue(), format="png"))
