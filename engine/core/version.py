"""The engine's version: games record it, and the local arena's wheel carries it."""

# 0.2: records carry a seal; 0.3: records are packed and sealed with their seed
# (format 3, engine/core/records.py)
ENGINE_VERSION = "0.3.0"
