"""Benchmarks (not tests), each run as `python -m benchmarks.NAME`; e.g. `benchmarks.throughput` measures the
environments' speed on this machine and writes `benchmarks/results/throughput.json`."""
