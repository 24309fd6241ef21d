"""Pictures of the parts for the manual: each mesh seen from above at an angle, shaded,
drawn with a depth buffer in numpy and written by matplotlib (no display needed), in the manual's colours (the
ring legend's dark ground, the palette's colours for the bought parts)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import List, Sequence, Tuple

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import trimesh  # noqa: E402

GROUND = "#15171A"
TITLE = "#FFFFFF"
NOTE = "#AAAAAA"
COLOURS = {
    "base": "#7A828C", "top": "#E8E8E8", "pod": "#7A828C", "ring": "#2B2B2B",
    "led": "#F0E442", "pico": "#009E73", "capacitor": "#0072B2", "switch": "#E69F00",
    "engraved": "#56B4E9",
}
LIGHT = np.array([-0.35, -0.45, 0.82])
SIZE = (9.0, 5.6)          # inches, at 100 dpi


class Layer:
    """A mesh to draw in a colour; `marked` faces (a mask) in the second colour."""

    def __init__(self, mesh: trimesh.Trimesh, colour: str, marked=None, second: str = ""):
        self.mesh = mesh
        self.colour = colour
        self.marked = marked
        self.second = second

    def rgb(self) -> np.ndarray:
        """Each face's colour."""
        rgb = np.tile(mcolors.to_rgb(self.colour), (len(self.mesh.faces), 1))
        if self.marked is not None:
            rgb[self.marked] = mcolors.to_rgb(self.second)
        return rgb


def engraved(mesh: trimesh.Trimesh) -> np.ndarray:
    """The floors of what is engraved in a mesh's top face: faces looking up, below it."""
    top = mesh.bounds[1][2]
    up = mesh.face_normals[:, 2] > 0.99
    low = mesh.triangles_center[:, 2] < top - 0.05
    return up & low & (mesh.triangles_center[:, 2] > top - 1.5)


def _view(azimuth: float, elevation: float) -> np.ndarray:
    """Rows: the screen's right, up and toward-the-viewer axes in model space."""
    az, el = math.radians(azimuth), math.radians(elevation)
    toward = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    right = np.cross([0.0, 0.0, 1.0], toward)
    right /= np.linalg.norm(right)
    up = np.cross(toward, right)
    return np.vstack([right, up, toward])


SCALE = 1
CELL = 10                  # pixels: triangles are split until each fits in a cell


def _screen_triangles(layers: Sequence[Layer], view: np.ndarray):
    """Every front-facing triangle in view space (x right, y up, z toward the viewer)
    and its shaded colour."""
    tris, colours = [], []
    light = LIGHT / np.linalg.norm(LIGHT)
    for layer in layers:
        tri = layer.mesh.vertices[layer.mesh.faces] @ view.T
        normals = layer.mesh.face_normals @ view.T
        front = normals[:, 2] > 1e-6
        shade = 0.38 + 0.62 * np.clip(layer.mesh.face_normals[front] @ light, 0.0, 1.0)
        tris.append(tri[front])
        colours.append(np.clip(shade[:, None] * layer.rgb()[front], 0, 1))
    return np.concatenate(tris), np.concatenate(colours)


def _split(tri: np.ndarray, colours: np.ndarray, longest: float):
    """Triangles halved at their longest edge until no edge is longer than `longest`."""
    out_t, out_c = [], []
    while len(tri):
        edges = np.stack([np.linalg.norm(tri[:, (i + 1) % 3, :2] - tri[:, i, :2], axis=1)
                          for i in range(3)], axis=1)
        small = edges.max(axis=1) <= longest
        out_t.append(tri[small])
        out_c.append(colours[small])
        tri, colours, edges = tri[~small], colours[~small], edges[~small]
        k = edges.argmax(axis=1)
        a = tri[np.arange(len(tri)), k]
        b = tri[np.arange(len(tri)), (k + 1) % 3]
        c = tri[np.arange(len(tri)), (k + 2) % 3]
        mid = (a + b) / 2
        tri = np.concatenate([np.stack([a, mid, c], axis=1), np.stack([mid, b, c], axis=1)])
        colours = np.concatenate([colours, colours])
    return np.concatenate(out_t), np.concatenate(out_c)


def _edge(p, q, px, area):
    """How far each pixel px is to the left of the edge p -> q, in the triangle's area."""
    return ((q[..., 0] - p[..., 0]) * (px[..., 1] - p[..., 1])
            - (q[..., 1] - p[..., 1]) * (px[..., 0] - p[..., 0])) / area


def _raster(tri: np.ndarray, colours: np.ndarray, width: int, height: int) -> np.ndarray:
    """The triangles (in pixels, y down) drawn with a depth buffer: an RGB image."""
    image = np.tile(np.array(mcolors.to_rgb(GROUND)), (height * width, 1))
    depth = np.full(height * width, -np.inf)
    gy, gx = np.mgrid[0:CELL + 1, 0:CELL + 1]
    cell = np.stack([gx.ravel(), gy.ravel()], axis=1).astype(np.float32)
    for lo in range(0, len(tri), 20000):
        t = tri[lo:lo + 20000]
        origin = np.floor(t[:, :, :2].min(axis=1))
        px = origin[:, None, :] + cell[None, :, :] + 0.5
        a, b, c = t[:, 0, None, :], t[:, 1, None, :], t[:, 2, None, :]
        area = ((b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1])
                - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0]))
        area = np.where(np.abs(area) < 1e-12, 1e-12, area)
        w0, w1, w2 = _edge(b, c, px, area), _edge(c, a, px, area), _edge(a, b, px, area)
        inside = (w0 >= 0) & (w1 >= 0) & (w2 >= 0)
        inside &= (px[..., 0] >= 0) & (px[..., 0] < width) & (px[..., 1] >= 0)
        inside &= px[..., 1] < height
        z = w0 * a[..., 2] + w1 * b[..., 2] + w2 * c[..., 2]
        which, _ = np.nonzero(inside)
        pix = (px[..., 1][inside].astype(np.int64) * width + px[..., 0][inside].astype(np.int64))
        z = z[inside]
        order = np.lexsort((z, pix))
        pix, z, which = pix[order], z[order], which[order]
        last = np.append(pix[1:] != pix[:-1], True)
        pix, z, which = pix[last], z[last], which[last]
        nearer = z > depth[pix]
        depth[pix[nearer]] = z[nearer]
        image[pix[nearer]] = colours[lo + which[nearer]]
    return image.reshape(height, width, 3)


def _image(layers: Sequence[Layer], view: np.ndarray, width: int, height: int) -> np.ndarray:
    """The layers drawn to fill width x height pixels (with a margin), smoothed."""
    tri, colours = _screen_triangles(layers, view)
    w, h = width * SCALE, height * SCALE
    lo, hi = tri[:, :, :2].reshape(-1, 2).min(axis=0), tri[:, :, :2].reshape(-1, 2).max(axis=0)
    scale = 0.94 * min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    centre = (lo + hi) / 2
    tri = tri.copy()
    tri[:, :, 0] = (tri[:, :, 0] - centre[0]) * scale + w / 2
    tri[:, :, 1] = h / 2 - (tri[:, :, 1] - centre[1]) * scale
    tri, colours = _split(tri.astype(np.float32), colours, CELL - 1)
    big = _raster(tri, colours, w, h)
    return big.reshape(height, SCALE, width, SCALE, 3).mean(axis=(1, 3))


def picture(path: Path, layers: Sequence[Layer], title: str, notes: List[str],
            azimuth: float = -60.0, elevation: float = 32.0) -> None:
    """Draw the layers into a PNG at path, the title and notes above them."""
    width, height = int(SIZE[0] * 100), int(SIZE[1] * 100)
    top = 120
    image = _image(layers, _view(azimuth, elevation), width - 20, height - top - 10)
    fig = plt.figure(figsize=SIZE, dpi=100, facecolor=GROUND)
    fig.figimage(image, xo=10, yo=10)
    fig.text(0.02, 0.94, title, color=TITLE, fontsize=15, fontweight="bold",
             family="DejaVu Sans")
    for i, line in enumerate(notes):
        fig.text(0.02, 0.895 - 0.04 * i, line, color=NOTE, fontsize=10, family="DejaVu Sans")
    fig.savefig(path, facecolor=GROUND, metadata={"Software": None})
    plt.close(fig)


def mesh_of(shape, tolerance: float = 0.05, angular: float = 0.2) -> trimesh.Trimesh:
    """A build123d shape's triangles as a trimesh mesh."""
    vertices, triangles = shape.tessellate(tolerance, angular)
    return trimesh.Trimesh(np.array([tuple(v) for v in vertices], dtype=float),
                           np.array(triangles, dtype=np.int64), process=True)


def flipped(mesh: trimesh.Trimesh) -> Tuple[trimesh.Trimesh, float]:
    """The mesh turned over (about x), and how far it was lifted back onto z = 0."""
    out = mesh.copy()
    out.apply_transform(trimesh.transformations.rotation_matrix(math.pi, (1, 0, 0)))
    lift = -out.bounds[0][2]
    out.apply_translation((0.0, 0.0, lift))
    return out, lift
