"""hammerlab: an executable rules engine and rules lab for 40K-style wargames.

Layers, imports pointing down only: ``cli`` → ``analysis`` → ``editions`` →
``engine``; ``io`` turns files into ``engine`` objects.
"""

__version__ = "0.1.0"
