"""chronodice.render."""
