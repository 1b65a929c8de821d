"""Every Hypothesis strategy the tests use, in one place."""
