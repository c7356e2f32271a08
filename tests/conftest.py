"""What every test starts from."""

from __future__ import annotations

import pytest

from hammerlab.engine.transpositions import forget_all


@pytest.fixture(autouse=True)
def _no_answers_remembered_from_other_tests() -> None:
    """Each test starts with empty tables of answers by position
    (:mod:`hammerlab.engine.transpositions`: the Waffle AI's, the models able to
    fire each weapon): a test that changes a function they answer for must not be
    answered from another test's battles, nor its own answers serve one that runs
    after it in the same worker."""
    forget_all()
