"""Citadels with Dark City (seed rules 001 and 003): rules, data files and built-in bots."""

from engine.core.registry import register

from .bots import BOTS
from .search import SearchBot
from .title import CITADELS

# search.py plays its playouts with bots.py's builder, so it joins the heuristic bots here.
register(CITADELS, {**BOTS, "search": SearchBot})
