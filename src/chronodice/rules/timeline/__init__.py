"""chronodice.rules.timeline."""
