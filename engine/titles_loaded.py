"""Imports every title package so that it registers itself."""

from . import citadels, praga  # noqa: F401
