"""Measuring the pipeline, apart from the product: the cleaning and alignment evaluations (``make eval``)
and the benchmarks (``make bench``).  Run as ``python -m measure.evaluate_clean``, ``python -m measure.bench_build`` ..."""
