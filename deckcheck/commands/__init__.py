"""The use cases, one module each, side by side: none imports another."""
