"""Analysis: running scenarios, exact odds, Monte Carlo and the rules lab."""
