"""The web interface: ``hammerlab serve`` (docs/web.md)."""
