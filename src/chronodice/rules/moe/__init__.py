"""chronodice.rules.moe."""
