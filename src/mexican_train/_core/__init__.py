"""The core: the rules of the game, and nothing above them."""
