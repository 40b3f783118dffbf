"""Exact clustering of more points than one module holds, on Dask: see ``cluster_points``."""

from .run import DaskClustering, cluster_points

__all__ = ["DaskClustering", "cluster_points"]
