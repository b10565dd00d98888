"""Figures of two tensors as numpy computes them: the oracle of tensor_compare_test.

usage: numpy_figures.py A.bin B.bin DTYPE SHAPE [SCALE ZERO_POINT]
A is the reference, B the run; SHAPE like 2x3x4. With SCALE and ZERO_POINT both sides are
dequantized, (q - zero_point) * scale, before comparing. Prints one JSON object.
"""
import json
import sys

import numpy as np

a_path, b_path, dtype, shape = sys.argv[1:5]
shape = tuple(int(s) for s in shape.split("x")) if shape else ()
a = np.fromfile(a_path, dtype=np.dtype(dtype)).reshape(shape)
b = np.fromfile(b_path, dtype=np.dtype(dtype)).reshape(shape)
differing = int(np.count_nonzero(~((a == b) | (np.isnan(a) & np.isnan(b)))) if a.dtype.kind == "f" else np.count_nonzero(a != b))
a = a.astype(np.float64)
b = b.astype(np.float64)
if len(sys.argv) > 5:
    scale, zp = float(sys.argv[5]), float(sys.argv[6])
    a = (a - zp) * scale
    b = (b - zp) * scale
np.seterr(all="ignore")
fin = np.isfinite(a) & np.isfinite(b)
x, y = a[fin], b[fin]
d = x - y
out = {
    "elements": int(fin.sum()),
    "differing": differing,
    "mse": float(np.mean(d**2)),
    "l1": float(np.sum(np.abs(d))),
    "snr_db": float(10 * np.log10(np.mean(x**2) / np.mean(d**2))),
    "cosine": float(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y))),
    "max_abs": float(np.max(np.abs(d))),
    "mean_abs": float(np.mean(np.abs(d))),
    "max_rel": float(np.max(np.abs(d[x != 0]) / np.abs(x[x != 0]))),
    "nan_reference": int(np.isnan(a).sum()),
    "inf_reference": int(np.isinf(a).sum()),
    "nan_run": int(np.isnan(b).sum()),
    "inf_run": int(np.isinf(b).sum()),
    # The first differing positions, storage order = C order here, with their index.
    "first": [list(map(int, np.unravel_index(i, shape))) for i in
              np.flatnonzero(~((a == b) | (np.isnan(a) & np.isnan(b))).reshape(-1))[:10]],
}
# Statistics of the reference (tensor_stats): population std, 32 bins over [min, max].
xa = a[np.isfinite(a)]
hist, _ = np.histogram(xa, bins=32, range=(xa.min(), xa.max()))
out["stats"] = {
    "min": float(xa.min()), "max": float(xa.max()), "mean": float(xa.mean()),
    "std": float(xa.std()), "abs_max": float(np.abs(xa).max()),
    "zeros": int((xa == 0).sum()), "histogram": [int(h) for h in hist],
}
for k, v in out.items():  # JSON has no Infinity: non-finite figures are null
    if isinstance(v, float) and not np.isfinite(v):
        out[k] = None
print(json.dumps(out))
