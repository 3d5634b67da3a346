"""A software 3-D projection for figures: the app's camera, without OpenGL (no Qt here).

The app's rotatable view normalizes the points into about [-1, 1]^3 (one factor for all axes)
and looks at the origin from ``distance`` 4.2 at a given elevation and azimuth, z up. The same
camera here gives each point a position on the picture plane and a depth, so a figure can draw
the points far-to-near (painter's order) with the axes labelled.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

AXIS_REACH = 1.1  # the drawn axes run from -1.1 to 1.1 (the app's 3-D view does the same)
LABEL_REACH = 1.22


def normalized(P: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """Centre the points and scale them (one factor for all axes) into about [-1, 1]^3."""
    P = np.asarray(P, dtype=float)
    if P.ndim == 1:
        P = P[:, None]
    if P.shape[1] < 3:
        P = np.hstack([P, np.zeros((P.shape[0], 3 - P.shape[1]))])
    P = P[:, :3]
    if P.shape[0] == 0:
        return P, 1.0, np.zeros(3)
    centre = 0.5 * (P.min(axis=0) + P.max(axis=0))
    scale = float(np.abs(P - centre).max())
    scale = scale if scale > 0 else 1.0
    return (P - centre) / scale, scale, centre


@dataclass(frozen=True)
class Camera:
    elevation: float = 22.0  # degrees above the x-y plane
    azimuth: float = 38.0  # degrees, from the x axis towards y
    distance: float = 4.2

    def basis(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        el, az = np.radians(self.elevation), np.radians(self.azimuth)
        eye = self.distance * np.array(
            [np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)]
        )
        forward = -eye / np.linalg.norm(eye)
        right = np.cross(forward, [0.0, 0.0, 1.0])
        if np.linalg.norm(right) < 1e-9:  # looking straight down or up
            right = np.array([1.0, 0.0, 0.0])
        right /= np.linalg.norm(right)
        up = np.cross(right, forward)
        return eye, right, up, forward

    def project(self, Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Picture-plane coordinates (n, 2), y up, and depth (n,) of normalized points."""
        eye, right, up, forward = self.basis()
        d = np.asarray(Q, dtype=float) - eye
        depth = d @ forward
        depth = np.maximum(depth, 1e-6)
        uv = np.column_stack([d @ right, d @ up]) / depth[:, None]
        return uv, depth

    def frame(self, Q: np.ndarray | None = None) -> tuple[float, float, float, float]:
        """(u0, u1, v0, v1) enclosing the projected axes (with their labels) and points ``Q``."""
        ends = np.vstack([np.eye(3) * LABEL_REACH, -np.eye(3) * AXIS_REACH])
        if Q is not None and len(Q):
            ends = np.vstack([ends, np.asarray(Q, dtype=float)[:, :3]])
        uv, _ = self.project(ends)
        lo, hi = uv.min(axis=0), uv.max(axis=0)
        pad = 0.04 * float(max(hi - lo))
        return float(lo[0] - pad), float(hi[0] + pad), float(lo[1] - pad), float(hi[1] + pad)


def axes_segments(camera: Camera) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For each axis k: the projected ends of its line and where its label goes."""
    out = []
    for k in range(3):
        ends = np.zeros((3, 3))
        ends[0, k], ends[1, k], ends[2, k] = -AXIS_REACH, AXIS_REACH, LABEL_REACH
        uv, _ = camera.project(ends)
        out.append((uv[0], uv[1], uv[2]))
    return out


def painter_order(depth: np.ndarray) -> np.ndarray:
    """Indices from the farthest point to the nearest (stable, so ties keep their order)."""
    return np.argsort(-np.asarray(depth), kind="stable")


__all__ = ["Camera", "axes_segments", "normalized", "painter_order"]
