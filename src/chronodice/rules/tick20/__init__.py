"""chronodice.rules.tick20."""
