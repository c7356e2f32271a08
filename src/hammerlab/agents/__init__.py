"""Standard agent interfaces: a PettingZoo AEC environment and a Gymnasium
single-agent wrapper for any scenario of either ruleset (see ``docs/ai.md``)."""
