"""chronodice.services."""
