"""A local Ray cluster shared by the tests of one module.

``from raykit import local_ray`` in a test module overrides conftest's ``local_ray`` (one
cluster a test) with one cluster for the module's tests: starting one costs about two and
a half CPU-seconds, and the tests that share it check what Ray computes and says, which
needs no fresh cluster (a job queue or ``--ray local`` joins the one running; nothing in
piquet shuts it down).  The same name, so conftest still marks the tests ``ray``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

__all__ = ["local_ray"]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray cluster of one worker, for the module; shut down after its last test."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()
