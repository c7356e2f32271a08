"""Bounded in-memory stores for what the web server keeps between requests.

Uploads, lab jobs and games in play live in the server process only, under
random ids the server chooses; each store holds at most ``capacity`` items and
forgets one ``ttl`` seconds after it was last used, so a long-running server
(or a careless client) cannot grow it without bound.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class StoreFullError(Exception):
    """Every slot holds an item that may not be evicted yet."""


class BoundedStore(Generic[T]):
    """Items by id: at most ``capacity``, each expiring ``ttl`` seconds after its last use.

    When full, the least recently used item is evicted, unless ``evictable``
    says it may not be (a lab job still running): then :class:`StoreFullError`.
    """

    def __init__(
        self,
        capacity: int,
        ttl: float,
        evictable: Callable[[T], bool] = lambda _: True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity = capacity
        self.ttl = ttl
        self._evictable = evictable
        self._clock = clock
        self._items: OrderedDict[str, tuple[float, T]] = OrderedDict()
        self._lock = threading.Lock()

    def _expire(self, now: float) -> None:
        for key in [k for k, (used, item) in self._items.items() if now - used > self.ttl]:
            if self._evictable(self._items[key][1]):
                del self._items[key]

    def add(self, item: T) -> str:
        """Keep ``item``; its new id."""
        with self._lock:
            now = self._clock()
            self._expire(now)
            while len(self._items) >= self.capacity:
                oldest = next((k for k, (_, v) in self._items.items() if self._evictable(v)), None)
                if oldest is None:
                    raise StoreFullError(f"at most {self.capacity} at a time; try again later")
                del self._items[oldest]
            key = secrets.token_urlsafe(9)
            self._items[key] = (now, item)
            return key

    def get(self, key: str) -> T | None:
        """The item ``key`` (now counted as used), or ``None`` if unknown or expired."""
        with self._lock:
            now = self._clock()
            self._expire(now)
            found = self._items.get(key)
            if found is None:
                return None
            self._items[key] = (now, found[1])
            self._items.move_to_end(key)
            return found[1]

    def discard(self, key: str) -> None:
        """Forget the item ``key``, if held (a game left broken by a stopped request)."""
        with self._lock:
            self._items.pop(key, None)

    def values(self) -> list[T]:
        """Every item held now."""
        with self._lock:
            self._expire(self._clock())
            return [item for _, item in self._items.values()]

    def __len__(self) -> int:
        with self._lock:
            self._expire(self._clock())
            return len(self._items)
