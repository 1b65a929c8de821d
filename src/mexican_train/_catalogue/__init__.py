"""The catalogue of house rules: named variants of the two rulebooks."""
