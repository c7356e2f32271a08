"""The command line: the only layer that prints or reads a terminal."""
