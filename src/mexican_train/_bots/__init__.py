"""Players: the bots, the search and its playouts, the longest train, and the simulation runner."""
