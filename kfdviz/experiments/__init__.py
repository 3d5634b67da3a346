"""Re-measuring the papers' tables: the benchmark protocol, shared by tests and the CLI."""
