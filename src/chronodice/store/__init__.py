"""chronodice.store."""
