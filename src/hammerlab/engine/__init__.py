"""The edition-neutral engine: state, geometry, dice, events, decisions."""
