"""Truco Arena: referee engine, gRPC arena, tournaments and ratings."""

__version__ = "0.1.0"
