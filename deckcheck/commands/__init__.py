"""The use cases, one module each: an opened deck and its parameters in, a frozen result out."""
