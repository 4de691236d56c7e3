"""The comparison grid: declared run matrices, a durable SQLite store, executors, reports."""
