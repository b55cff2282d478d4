#!/usr/bin/python3
"""NumPy's matmul through the BLAS shim (ctest: numpy_blas_shim; label blas_shim).

Run as `numpy_blas_shim.py SHIM`. A child Python with LD_PRELOAD=SHIM and every call on the device
(CLGEMM_BLAS_THRESHOLD=0) computes float32 and float64 products of shapes that divide no tile,
transposed views, a strided block and one-column cases and saves them; this process computes the
same with NumPy's own BLAS and compares them (relative to K * eps * the size of the terms), and
the shim's count lines must show calls on the device for cblas_sgemm and cblas_dgemm. NumPy calls
BLAS through cblas_sgemm/cblas_dgemm (row-major, its own C-ordered arrays; a transposed view is a
Trans flag, not a copy) for products with both dimensions above 1, and through cblas_?gemv
for matrix-vector ones, which the shim leaves to the system BLAS.
"""

import os
import re
import subprocess
import sys
import tempfile

import numpy as np

CASES = [  # name, shape of A, shape of B, how to view them
    ("70x50@50x90", (70, 50), (50, 90), None),
    ("A.T@B", (50, 70), (50, 90), "at"),
    ("A@B.T", (70, 50), (90, 50), "bt"),
    ("A.T@B.T", (50, 70), (90, 50), "atbt"),
    ("block", (100, 80), (80, 120), "block"),
    ("one column", (33, 17), (17, 1), None),
    ("one row", (1, 17), (17, 29), None),
    ("129x1@1x37", (129, 1), (1, 37), None),
]


def operands(dtype):
    rng = np.random.default_rng(7)
    for name, sa, sb, view in CASES:
        a = rng.uniform(-1, 1, sa).astype(dtype)
        b = rng.uniform(-1, 1, sb).astype(dtype)
        if view in ("at", "atbt"):
            a = a.T
        if view in ("bt", "atbt"):
            b = b.T
        if view == "block":  # a strided block: leading dimensions with gaps
            a = a[10:80, 5:55]
            b = b[5:55, 20:110]
        yield name, a, b


def child(out_dir):
    for dtype in (np.float32, np.float64):
        for i, (_, a, b) in enumerate(operands(dtype)):
            np.save(os.path.join(out_dir, f"{np.dtype(dtype).name}-{i}.npy"), a @ b)


def main():
    if sys.argv[1] == "--child":
        child(sys.argv[2])
        return 0
    shim = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, LD_PRELOAD=shim, CLGEMM_BLAS_THRESHOLD="0", CLGEMM_BLAS_VERBOSE="1",
                   CLGEMM_DATA="none")
        run = subprocess.run([sys.executable, __file__, "--child", tmp], env=env,
                             capture_output=True, text=True, timeout=600)
        print(run.stdout + run.stderr)
        if run.returncode != 0:
            print(f"FAIL: the child exited with {run.returncode}")
            return 1
        for dtype in (np.float32, np.float64):
            eps = np.finfo(dtype).eps
            for i, (name, a, b) in enumerate(operands(dtype)):
                got = np.load(os.path.join(tmp, f"{np.dtype(dtype).name}-{i}.npy"))
                want = a @ b
                k = a.shape[1]
                bound = 16 * k * eps * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64))
                err = np.abs(got.astype(np.float64) - want.astype(np.float64))
                ok = got.shape == want.shape and got.dtype == want.dtype and bool(
                    np.all(err <= bound))
                print(f"{np.dtype(dtype).name:8} {name:12} {str(got.shape):10} max error "
                      f"{err.max():.3g} (bound {bound.min():.3g}): {'ok' if ok else 'FAIL'}")
                if not ok:
                    failures.append(f"{np.dtype(dtype).name} {name}")
    for routine in ("cblas_sgemm", "cblas_dgemm"):
        m = re.search(rf"^clgemm_blas: {routine}: \d+ calls?: (\d+) on .*, (\d+) on the system BLAS",
                      run.stderr, re.M)
        if not m:
            failures.append(f"no count line for {routine} from the shim")
        elif int(m.group(1)) == 0:
            failures.append(f"no {routine} call ran on the device")
        elif int(m.group(2)) != 0:
            failures.append(f"{m.group(2)} {routine} calls went to the system BLAS")
    if failures:
        print("FAIL:", *failures, sep="\n  ")
        return 1
    print("numpy_blas_shim.py: NumPy's products through the shim match its own")
    return 0


if __name__ == "__main__":
    sys.exit(main())
