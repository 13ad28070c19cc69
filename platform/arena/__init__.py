"""Meeple Arena's Django project."""
