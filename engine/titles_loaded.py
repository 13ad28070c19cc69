"""Imports every title package so that it registers itself."""

import importlib

for _name in ("citadels", "praga"):
    try:
        importlib.import_module(f"engine.{_name}")
    except ModuleNotFoundError as err:  # a title not built yet
        if err.name != f"engine.{_name}":
            raise
