"""chronodice.rules.pool10."""
