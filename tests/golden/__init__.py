"""Golden files and the scripts that regenerate them."""
