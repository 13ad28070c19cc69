"""The engine's version: games record it, and the local arena's wheel carries it."""

ENGINE_VERSION = "0.2.0"  # 0.2: records carry a seal (engine/core/records.py)
