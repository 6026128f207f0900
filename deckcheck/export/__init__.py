"""Export: a deck in the formats other tools read, written without ever losing a file."""
