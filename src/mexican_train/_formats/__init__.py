"""Formats: text notation, JSON, game records, events and pictures of the table."""
