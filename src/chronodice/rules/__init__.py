"""chronodice.rules."""
