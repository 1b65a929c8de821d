"""Front ends: the command line and the web table."""
