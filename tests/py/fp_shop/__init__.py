"""A small 'shop' project for the dead-letter fingerprint tests: two real bugs whose messages
carry customer ids, amounts, durations, paths and quoted values, raised from the project's own
code (and, for the export, from inside the standard library's json module)."""
