"""Benchmarks that print figures: ``python -m bench`` (engines and service)."""
