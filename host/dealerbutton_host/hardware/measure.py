"""Measurements on the built parts, for the checks: how thick the thinnest wall is (rays
cast into the mesh), how much two solids overlap, the gap round a bought part in its pocket
(both cut across at one height)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

import numpy as np
import trimesh
from build123d import Compound, Plane

GRAZING = 0.25      # the cosine under which a ray only skims a face (about 75 degrees)


@dataclass(frozen=True)
class Wall:
    """The thinnest wall found: its thickness, where, and how many rays measured one."""

    thickness: float
    at: Tuple[float, float, float]
    rays: int


def thinnest_wall(mesh: trimesh.Trimesh, rays: int = 20000, seed: int = 1) -> Wall:
    """Cast a ray from points spread evenly over the surface straight into the material
    (against the face's normal); the distance to where it leaves is the wall there. A face
    the ray only skims along (within GRAZING of parallel to it, as the side of a hole
    does for a ray from its rim) is not where it leaves."""
    points, faces = trimesh.sample.sample_surface_even(mesh, rays, seed=seed)
    inward = -mesh.face_normals[faces]
    start = points + inward * 1e-4
    hits, which, tri = mesh.ray.intersects_location(start, inward, multiple_hits=True)
    crossing = np.abs(np.einsum("ij,ij->i", inward[which], mesh.face_normals[tri])) >= GRAZING
    depth = np.full(len(points), np.inf)
    np.minimum.at(depth, which[crossing],
                  np.linalg.norm(hits[crossing] - start[which[crossing]], axis=1) + 1e-4)
    k = int(np.argmin(depth))
    at = tuple(float(v) for v in points[k])
    return Wall(float(depth[k]), (at[0], at[1], at[2]), int(np.isfinite(depth).sum()))


def overlap(a, b) -> float:
    """The volume (mm3) that two solids (or compounds of them) have in common: each solid
    of one with each of the other whose boxes meet."""
    total = 0.0
    for x in a.solids():
        box = x.bounding_box()
        for y in b.solids():
            if box.disjoint(y.bounding_box()):
                continue
            common = x.intersect(y)
            if common is not None:
                total += sum(s.volume for s in common.solids())
    return float(total)


def clearance(part, component, z: float) -> float:
    """The gap between a part and a bought part, both cut across at height z: the
    nearest either comes to the other in that plane."""
    plane = Plane.XY.offset(z)
    cut_part = part.intersect(plane)
    cut_component = component.intersect(plane)
    if not cut_part or not cut_component:
        raise ValueError("nothing to measure at z = %g" % z)
    return float(Compound(list(cut_part.faces())).distance_to(
        Compound(list(cut_component.faces()))))
