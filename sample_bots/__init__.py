"""Sample bots. Each module in SAMPLE_BOTS runs as its own process:
``TRUCO_ARENA_TOKEN=TOKEN python -m MODULE --address HOST:PORT [--name NAME]`` (sdk.main),
and tests/arena/test_compliance.py plays every one of them through the arena."""

SAMPLE_BOTS: dict[str, str] = {
    "random": "sample_bots.random_bot",
    "heuristic": "sample_bots.heuristic",
    "simulation": "sample_bots.simulation",
    "ismcts": "sample_bots.ismcts",
    "inference": "sample_bots.inference",
}
