"""Named exceptions. Each carries a one-line message saying what is wrong and how to fix it.

The CLI turns any ``PipelineError`` into ``error: <message>`` on stderr and exit status 2.
"""


class PipelineError(Exception):
    """Base class: a problem with the input that the user can fix."""


class CorpusError(PipelineError):
    """The corpus metadata (corpus/witnesses.toml) or a raw file is wrong."""


class InputFileError(CorpusError):
    """A raw file is missing, empty, binary or not UTF-8."""


class UnknownWitnessError(PipelineError):
    """A witness id that the corpus does not have."""
