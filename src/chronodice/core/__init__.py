"""chronodice.core."""
