"""Citadels with Dark City (seed rules 001 and 003): rules, data files and built-in bots."""

from engine.core.registry import register

from .bots import BOTS
from .title import CITADELS

register(CITADELS, BOTS)
