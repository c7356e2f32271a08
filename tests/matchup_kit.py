"""The scripts of examples/matchups/ as their tests load them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

MATCHUPS = Path(__file__).resolve().parents[1] / "examples" / "matchups"


def load_script(name: str) -> ModuleType:
    """``examples/matchups/NAME.py`` as a module, loaded as when the script runs:
    beside its neighbours (which it may import), and under its own name in
    ``sys.modules`` (which a dataclass of it looks up)."""
    sys.path.insert(0, str(MATCHUPS))
    try:
        spec = importlib.util.spec_from_file_location(name, MATCHUPS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(MATCHUPS))
    return module
