"""Input and output: turning files (TOML libraries, BattleScribe data) into engine objects."""
