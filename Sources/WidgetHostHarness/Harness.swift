// The harness lives here; see docs/harness.md.
