#!/usr/bin/python3
"""clgemm checked by NumPy itself, through .npy files in both directions.

Usage: /usr/bin/python3 tests/numpy_roundtrip.py PATH_TO_CLGEMM

For a few shapes and (alpha, beta) pairs, writes A, B (and C) with numpy.save, runs every kernel
variant with --input-a/--input-b/--input-c/--output-c, loads the result with numpy.load and
compares it with alpha * A @ B + beta * C computed in float64, using the normalised error clgemm
itself uses (netlib BLAS style):

    |C - Cref| / (eps32 * (|alpha| |A| @ |B| + |beta| |C0|)) < 16

where elements whose denominator is 0 must match exactly. Exits non-zero on any mismatch.

Then the BLAS shapes (#26) with `best`, which computes them in the kernel: each file holds its
matrix as the caller's program stores it (A as K x M for --trans-a t, B as N x K for --trans-b t,
numpy.asfortranarray's Fortran order for --layout col), leading dimensions larger than the least,
and C must come back in the run's layout (Fortran order for col) equal to NumPy's own
op(A) @ op(B).

Then FP64 (--precision fp64, #26): float64 files in Fortran order with --trans-a t and leading
dimensions larger than the least, C back as a float64 Fortran-order file, judged in DBL_EPSILON
units against a long-double product of the same float64 inputs (NumPy's own float64 product is no
more exact than the result it would judge), with scalars a float cannot hold (0.1), so a run that
rounds anything to float fails by orders of magnitude.
"""

import os
import subprocess
import sys
import tempfile

import numpy as np

SHAPES = [(1, 1, 1), (7, 7, 7), (33, 17, 9), (100, 37, 129)]
SCALARS = [(1.0, 0.0), (1.5, -0.5)]
KERNELS = ["naive", "tiled", "regtile2d"]
# (layout, trans_a, trans_b, extra leading-dimension options as (name, added to the least), m, n, k)
SHAPED = [
    ("col", "t", "t", (("lda", 5), ("ldc", 2)), 33, 17, 9),
    ("col", "n", "n", (), 7, 7, 7),
    ("col", "n", "t", (("ldb", 3),), 1, 5, 4),
    ("row", "t", "n", (("lda", 1), ("ldb", 4), ("ldc", 7)), 100, 37, 129),
]
SHAPED_KERNEL = "best"
# FP64: (layout, trans_a, trans_b, leading dimensions as in SHAPED, m, n, k), float64 files.
FP64_SHAPED = [
    ("col", "t", "n", (("lda", 3), ("ldc", 5)), 33, 17, 9),
    ("col", "t", "t", (("lda", 1), ("ldb", 2)), 100, 37, 129),
]
FP64_SCALARS = [(0.1, 0.0), (1.5, -0.3)]
# best's FP64 build; `--kernel openblas` (DGEMM) runs the same checks where best has none yet.
FP64_KERNEL = "best"
THRESHOLD = 16.0
EPS32 = float(np.finfo(np.float32).eps)
EPS64 = float(np.finfo(np.float64).eps)
TIMEOUT_S = 300


def compare(out, a, b, c0, alpha, beta, eps=EPS32, wide=np.float64):
    """Returns (ok, max_ratio, message) for `out` against alpha * a @ b + beta * c0 in `wide`.

    The ratio is in units of `eps`: FLT_EPSILON for float32 results (against a float64 product),
    DBL_EPSILON for float64 ones (against a long-double product). BLAS semantics: with beta == 0,
    C0 is not read (it may hold NaN).
    """
    a64, b64 = a.astype(wide), b.astype(wide)
    ref = alpha * (a64 @ b64)
    mag = abs(alpha) * (np.abs(a64) @ np.abs(b64))
    if beta != 0.0:
        c64 = c0.astype(wide)
        ref = ref + beta * c64
        mag = mag + abs(beta) * np.abs(c64)
    got = out.astype(wide)
    if got.shape != ref.shape:
        return False, float("inf"), "shape %s, expected %s" % (got.shape, ref.shape)
    if not np.all(np.isfinite(got)):
        i, j = np.argwhere(~np.isfinite(got))[0]
        return False, float("inf"), "C[%d,%d] = %r is not finite" % (i, j, got[i, j])
    diff = np.abs(got - ref)
    zero = mag == 0.0
    if np.any(zero & (diff != 0.0)):
        i, j = np.argwhere(zero & (diff != 0.0))[0]
        return False, float("inf"), "C[%d,%d] = %r but the reference is exactly %r" % (
            i, j, got[i, j], ref[i, j])
    ratio = np.zeros_like(diff)
    ratio[~zero] = diff[~zero] / (eps * mag[~zero])
    max_ratio = float(ratio.max()) if ratio.size else 0.0
    if max_ratio >= THRESHOLD:
        i, j = np.unravel_index(np.argmax(ratio), ratio.shape)
        bad = int(np.count_nonzero(ratio >= THRESHOLD))
        return False, max_ratio, "C[%d,%d] = %r but the reference is %r (ratio %.3g); %d of %d " \
            "elements at or over %g" % (i, j, got[i, j], ref[i, j], ratio[i, j], bad, ratio.size,
                                        THRESHOLD)
    return True, max_ratio, ""


def make_inputs(rng, m, n, k, dtype=np.float32):
    a = rng.uniform(-1.0, 1.0, size=(m, k)).astype(dtype)
    b = rng.uniform(-1.0, 1.0, size=(k, n)).astype(dtype)
    c = rng.uniform(-1.0, 1.0, size=(m, n)).astype(dtype)
    if m > 1:
        a[0, :] = 0.0  # a row of C whose error denominator is 0 when beta == 0: must be exact
    return a, b, c


def self_check(failures):
    """The comparison must be able to fail: wrong answers are detected, right ones accepted."""
    rng = np.random.default_rng(7)
    a, b, c = make_inputs(rng, 9, 5, 6)
    alpha, beta = 1.5, -0.5
    right = (alpha * (a.astype(np.float64) @ b.astype(np.float64)) + beta * c).astype(np.float32)
    checks = [("correct result", right, True)]
    # alpha doubled (what a kernel that applies alpha twice would produce)
    checks.append(("alpha doubled",
                   (2 * alpha * (a.astype(np.float64) @ b.astype(np.float64)) + beta * c)
                   .astype(np.float32), False))
    # beta ignored
    checks.append(("beta ignored",
                   (alpha * (a.astype(np.float64) @ b.astype(np.float64))).astype(np.float32),
                   False))
    one_off = right.copy()
    one_off[4, 3] = np.nextafter(one_off[4, 3], np.float32(np.inf)) + np.float32(1e-3)
    checks.append(("one element off by 1e-3", one_off, False))
    with_nan = right.copy()
    with_nan[8, 4] = np.nan
    checks.append(("one NaN", with_nan, False))
    # Just over and well under the threshold, relative to each element's own denominator.
    mag = abs(alpha) * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))) + \
        abs(beta) * np.abs(c.astype(np.float64))
    over = right.copy()
    over[2, 2] = np.float32(np.float64(over[2, 2]) + 20 * EPS32 * mag[2, 2])
    checks.append(("one element 20 eps off", over, False))
    under = right.copy()
    under[2, 2] = np.float32(np.float64(under[2, 2]) + 5 * EPS32 * mag[2, 2])
    checks.append(("one element 5 eps off", under, True))
    exact_zero = np.zeros((3, 2), np.float32)
    a0 = np.zeros((3, 4), np.float32)
    b0 = rng.uniform(-1, 1, size=(4, 2)).astype(np.float32)
    ok, _, _ = compare(exact_zero, a0, b0, None, 1.0, 0.0)
    if not ok:
        failures.append("self-check: exact zeros with a zero denominator were rejected")
    off_zero = exact_zero.copy()
    off_zero[2, 1] = np.float32(1e-40)
    ok, _, _ = compare(off_zero, a0, b0, None, 1.0, 0.0)
    if ok:
        failures.append("self-check: a non-zero where the denominator is 0 was accepted")
    for name, value, should_pass in checks:
        ok, ratio, message = compare(value, a, b, c, alpha, beta)
        if ok != should_pass:
            failures.append("self-check '%s': expected %s, got %s (ratio %.3g) %s" % (
                name, "pass" if should_pass else "mismatch", "pass" if ok else "mismatch", ratio,
                message))
    # FP64: NumPy's float64 result passes in DBL_EPSILON units; the same rounded to float32, or
    # with alpha rounded to float, does not.
    a, b, c = make_inputs(rng, 9, 5, 6, np.float64)
    alpha, beta = 0.1, -0.3
    right = alpha * (a @ b) + beta * c
    checks64 = [("fp64: NumPy's float64 result", right, True),
                ("fp64: the result rounded to float32", right.astype(np.float32), False),
                ("fp64: alpha rounded to float",
                 float(np.float32(alpha)) * (a @ b) + beta * c, False)]
    for name, value, should_pass in checks64:
        ok, ratio, message = compare(value, a, b, c, alpha, beta, EPS64, np.longdouble)
        if ok != should_pass:
            failures.append("self-check '%s': expected %s, got %s (ratio %.3g) %s" % (
                name, "pass" if should_pass else "mismatch", "pass" if ok else "mismatch", ratio,
                message))
    print("self-check of the comparison: %s" % ("ok" if not failures else "FAILED"))


def run_case(clgemm, tmp, kernel, m, n, k, alpha, beta, a, b, c, failures, c_file=None,
             shape_args=(), shape_label="", fortran=False, fp64=False):
    """Runs clgemm on tmp/A.npy, tmp/B.npy (and c_file) and compares its C with NumPy's.

    a, b are op(A) and op(B) as NumPy computes with them; shape_args the shape's options, and
    fortran whether C must come back in Fortran order (--layout col); fp64 runs --precision fp64,
    whose C must be float64 and is judged in DBL_EPSILON units.
    """
    label = "%-9s M=%-3d N=%-3d K=%-3d alpha=%-4g beta=%-4g%s" % (
        kernel, m, n, k, alpha, beta, (" " + shape_label) if shape_label else "")
    out = os.path.join(tmp, "out_%s_%d_%d_%d_%g_%g.npy" % (kernel, m, n, k, alpha, beta))
    args = [clgemm, "--kernel", kernel, "--input-a", os.path.join(tmp, "A.npy"),
            "--input-b", os.path.join(tmp, "B.npy")] + list(shape_args)
    if c_file is not None:
        args += ["--input-c", c_file]
    if fp64:
        args += ["--precision", "fp64"]
        label += " fp64"
    args += ["--alpha", repr(alpha), "--beta", repr(beta), "--output-c", out,
             "--reps", "1", "--warmup", "0"]
    before = set(os.listdir(tmp))
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=TIMEOUT_S)
    if proc.returncode != 0:
        failures.append("%s: clgemm exited %d\n  command: %s\n  stderr: %s" % (
            label, proc.returncode, " ".join(args), proc.stderr.strip()))
        print("FAIL %s exit %d" % (label, proc.returncode))
        return
    left = set(os.listdir(tmp)) - before - {os.path.basename(out)}
    if left:
        failures.append("%s: clgemm left stray files %s" % (label, sorted(left)))
    result = np.load(out)
    problems = []
    expected_dtype = np.float64 if fp64 else np.float32
    if result.dtype != expected_dtype:
        problems.append("dtype %s, expected %s" % (result.dtype, np.dtype(expected_dtype).name))
    if result.shape != (m, n):
        problems.append("shape %s, expected %s" % (result.shape, (m, n)))
    # np.save writes Fortran order only where the array is not also C-contiguous (more than one
    # row and column), so that is where the order shows.
    if fortran and m > 1 and n > 1 and not np.isfortran(result):
        problems.append("C order, expected Fortran order for --layout col")
    if not fortran and m > 1 and n > 1 and np.isfortran(result):
        problems.append("Fortran order, expected C order for --layout row")
    judge = (EPS64, np.longdouble) if fp64 else (EPS32, np.float64)
    ok, ratio, message = compare(result, a, b, c, alpha, beta, *judge) if not problems else (
        False, float("inf"), "")
    if message:
        problems.append(message)
    # The comparison must see a wrong answer: the same output judged against alpha doubled.
    if ok and np.any(a @ b != 0):
        wrong_ok, _, _ = compare(result, a, b, c, 2 * alpha, beta, *judge)
        if wrong_ok:
            problems.append("the comparison did not notice alpha doubled")
    if problems:
        failures.append("%s: %s" % (label, "; ".join(problems)))
    print("%s %s max ratio %.3g%s" % ("ok  " if not problems else "FAIL", label, ratio,
                                     "" if not problems else "  " + "; ".join(problems)))
    os.remove(out)


def run_shaped(clgemm, tmp, rng, failures, fp64=False):
    """The BLAS shapes: files as the caller stores them, C back in the run's layout.

    With fp64, FP64_SHAPED in float64 files with FP64_SCALARS and FP64_KERNEL.
    """
    cases = 0
    shaped, scalars, kernel = (FP64_SHAPED, FP64_SCALARS, FP64_KERNEL) if fp64 else (
        SHAPED, SCALARS, SHAPED_KERNEL)
    for layout, trans_a, trans_b, lds, m, n, k in shaped:
        # op(A), op(B), C: what NumPy multiplies
        a, b, c = make_inputs(rng, m, n, k, np.float64 if fp64 else np.float32)
        stored_a = a.T if trans_a == "t" else a  # A's file: K x M when transposed
        stored_b = b.T if trans_b == "t" else b  # B's file: N x K when transposed
        order = np.asfortranarray if layout == "col" else np.ascontiguousarray
        np.save(os.path.join(tmp, "A.npy"), order(stored_a))
        np.save(os.path.join(tmp, "B.npy"), order(stored_b))
        np.save(os.path.join(tmp, "C.npy"), order(c))
        # The least leading dimension: the length of a stored line (a row, or a column in
        # column-major) of each matrix as stored.
        line = 1 if layout == "row" else 0
        least = {"lda": stored_a.shape[line], "ldb": stored_b.shape[line], "ldc": c.shape[line]}
        args = ["--layout", layout, "--trans-a", trans_a, "--trans-b", trans_b]
        label = "%s %s%s" % (layout, trans_a.upper(), trans_b.upper())  # as clgemm's shapeLabel
        for name, extra in lds:
            args += ["--" + name, str(least[name] + extra)]
            label += " %s=%d" % (name, least[name] + extra)
        for alpha, beta in scalars:
            c_file = os.path.join(tmp, "C.npy") if beta != 0.0 else None
            run_case(clgemm, tmp, kernel, m, n, k, alpha, beta, a, b, c, failures, c_file,
                     args, label, fortran=layout == "col", fp64=fp64)
            cases += 1
    return cases


def main():
    if len(sys.argv) != 2:
        print("usage: %s PATH_TO_CLGEMM" % sys.argv[0], file=sys.stderr)
        return 2
    clgemm = os.path.abspath(sys.argv[1])
    if not os.access(clgemm, os.X_OK):
        print("numpy_roundtrip: %s is not an executable" % clgemm, file=sys.stderr)
        return 2
    failures = []
    self_check(failures)
    rng = np.random.default_rng(20240601)
    cases = 0
    with tempfile.TemporaryDirectory(prefix="clgemm-numpy-") as tmp:
        for m, n, k in SHAPES:
            a, b, c = make_inputs(rng, m, n, k)
            np.save(os.path.join(tmp, "A.npy"), a)
            np.save(os.path.join(tmp, "B.npy"), b)
            np.save(os.path.join(tmp, "C.npy"), c)
            for alpha, beta in SCALARS:
                for kernel in KERNELS:
                    c_file = os.path.join(tmp, "C.npy") if beta != 0.0 else None
                    run_case(clgemm, tmp, kernel, m, n, k, alpha, beta, a, b, c, failures, c_file)
                    cases += 1
        # beta == 0: C is not read, so a C full of NaN must not reach the result.
        m, n, k = 33, 17, 9
        a, b, _ = make_inputs(rng, m, n, k)
        nan_c = np.full((m, n), np.nan, np.float32)
        np.save(os.path.join(tmp, "A.npy"), a)
        np.save(os.path.join(tmp, "B.npy"), b)
        np.save(os.path.join(tmp, "C_nan.npy"), nan_c)
        for kernel in KERNELS:
            run_case(clgemm, tmp, kernel, m, n, k, 2.0, 0.0, a, b, nan_c, failures,
                     os.path.join(tmp, "C_nan.npy"))
            cases += 1
        cases += run_shaped(clgemm, tmp, rng, failures)
        cases += run_shaped(clgemm, tmp, rng, failures, fp64=True)
    if failures:
        print("\nnumpy_roundtrip: %d problem(s):" % len(failures), file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    print("numpy_roundtrip: all %d cases match NumPy" % cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
