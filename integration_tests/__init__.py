"""The Home Assistant integration's tests (scripts/test-integration.sh)."""
