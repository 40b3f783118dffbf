import numpy as np
import pytest


def clustered_points(n, seed, centres=40, spread=2.0):
    """``n`` points around random centres (clusters at every zoom), as an (n, 2) array."""
    rng = np.random.default_rng(seed)
    c = np.column_stack([rng.uniform(-170, 170, centres), rng.uniform(-70, 70, centres)])
    which = rng.integers(0, centres, n)
    pts = c[which] + rng.normal(0, spread, (n, 2)) * rng.uniform(0.01, 1, (n, 1))
    pts[:, 0] = np.clip(pts[:, 0], -180, 180)
    pts[:, 1] = np.clip(pts[:, 1], -85, 85)
    return pts


@pytest.fixture
def points():
    return clustered_points(8000, 7)
