"""Collect the doctests of the documentation pages, not the Sphinx machinery."""

collect_ignore = ["conf.py"]
collect_ignore_glob = ["_build/*", "_ext/*"]
