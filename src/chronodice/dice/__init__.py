"""chronodice.dice."""
