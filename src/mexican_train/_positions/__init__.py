"""Positions from outside: the bounds of every number, the fields read, their checks, and chance."""
