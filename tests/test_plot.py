#!/usr/bin/python3
"""Tests of tools/plot.py, run by ctest as `/usr/bin/python3 tests/test_plot.py [REPO_ROOT]`.

plot.py is started as an executable (no interpreter prefix) so that its
shebang and executable bit are tested too.  REPO_ROOT defaults to the parent
of this script's folder.

The fixture tests/data/sweep-small.csv is clgemm's own CSV, untouched: the
output of `tools/sweep.sh --sizes 32:64:x2 --reps 2` on pocl (the whole ladder,
CLBlast, OpenBLAS, and a peak measured by `clgemm peak`).
"""

import csv
import os
import struct
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                       else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PLOT = os.path.join(ROOT, "tools", "plot.py")
FIXTURE = os.path.join(ROOT, "tests", "data", "sweep-small.csv")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run_plot(*args):
    return subprocess.run([PLOT, *args], capture_output=True, text=True, timeout=120)


def png_size(data):
    """(width, height) from the IHDR chunk, which must come first."""
    length, chunk = struct.unpack(">I4s", data[8:16])
    if chunk != b"IHDR" or length != 13:
        raise AssertionError(f"first chunk is {chunk!r}, not IHDR")
    return struct.unpack(">II", data[16:24])


class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_plot-")
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def out(self, name="out.png"):
        return os.path.join(self.dir, name)

    def write_csv(self, name, header, rows):
        path = os.path.join(self.dir, name)
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, header, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        return path

    def fixture(self):
        with open(FIXTURE, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            return list(reader.fieldnames), list(reader)

    def assert_good_png(self, result, path):
        self.assertEqual(result.returncode, 0, f"stderr: {result.stderr}")
        self.assertTrue(os.path.isfile(path), f"{path} not written")
        with open(path, "rb") as f:
            data = f.read()
        self.assertEqual(data[:8], PNG_SIGNATURE)
        self.assertEqual(png_size(data), (800, 500))
        self.assertGreater(len(data), 10 * 1024)
        self.assertLess(len(data), 300 * 1024)

    def assert_fails(self, result, path):
        self.assertEqual(result.returncode, 2, f"stdout: {result.stdout}\nstderr: {result.stderr}")
        self.assertIn("plot.py: error:", result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertFalse(os.path.exists(path), f"{path} left behind")
        # Nor a temporary file from the atomic write.
        if os.path.isdir(os.path.dirname(path)):
            leftovers = [n for n in os.listdir(os.path.dirname(path)) if n.endswith(".png")]
            self.assertEqual(leftovers, [])

    # ------------------------------------------------------------ good input

    def test_executable(self):
        self.assertTrue(os.access(PLOT, os.X_OK), f"{PLOT} is not executable")
        with open(PLOT, encoding="utf-8") as f:
            self.assertEqual(f.readline().rstrip("\n"), "#!/usr/bin/python3")

    def test_kinds(self):
        for kind in ("lines", "ladder", "roofline"):
            with self.subTest(kind=kind):
                out = self.out(f"{kind}.png")
                self.assert_good_png(run_plot(FIXTURE, "-o", out, "--kind", kind), out)

    def test_several_shapes_plot_one_series_each(self):
        # A run over --layout row,col: the same variants and sizes twice, one series per shape.
        header, rows = self.fixture()
        header = header + ["layout", "trans_a", "trans_b"]
        shaped = [dict(r, layout=layout, trans_a="t", trans_b="n")
                  for layout in ("row", "col") for r in rows]
        path = self.write_csv("shapes.csv", header, shaped)
        for kind in ("lines", "ladder", "roofline"):
            with self.subTest(kind=kind):
                out = self.out(f"shapes-{kind}.png")
                self.assert_good_png(run_plot(path, "-o", out, "--kind", kind), out)

    def test_default_kind(self):
        out = self.out()
        self.assert_good_png(run_plot(FIXTURE, "-o", out), out)

    def test_size_and_title(self):
        header, rows = self.fixture()
        smallest = min(int(r["n"]) for r in rows if r["m"] == r["n"] == r["k"])
        for kind in ("ladder", "roofline"):
            with self.subTest(kind=kind):
                out = self.out(f"{kind}.png")
                result = run_plot(FIXTURE, "-o", out, "--kind", kind, "--size", str(smallest),
                                  "--title", "custom title")
                self.assert_good_png(result, out)

    def test_overwrites_output(self):
        out = self.out()
        with open(out, "wb") as f:
            f.write(b"old")
        self.assert_good_png(run_plot(FIXTURE, "-o", out, "--kind", "lines"), out)

    # ------------------------------------------------------------- bad input

    def test_missing_csv(self):
        out = self.out()
        self.assert_fails(run_plot(os.path.join(self.dir, "absent.csv"), "-o", out), out)

    def test_header_without_gflops(self):
        header, rows = self.fixture()
        header.remove("gflops")
        for r in rows:
            del r["gflops"]
        path = self.write_csv("no-gflops.csv", header, rows)
        out = self.out()
        result = run_plot(path, "-o", out)
        self.assert_fails(result, out)
        self.assertIn("gflops", result.stderr)

    def test_unknown_size(self):
        for kind in ("ladder", "roofline", "lines"):
            with self.subTest(kind=kind):
                out = self.out()
                result = run_plot(FIXTURE, "-o", out, "--kind", kind, "--size", "999")
                self.assert_fails(result, out)
                self.assertIn("999", result.stderr)

    def test_roofline_without_peak(self):
        header, rows = self.fixture()
        for r in rows:
            r["peak_gflops"] = ""
            r["peak_gbs"] = ""
        path = self.write_csv("no-peak.csv", header, rows)
        out = self.out()
        result = run_plot(path, "-o", out, "--kind", "roofline")
        self.assert_fails(result, out)
        self.assertIn("peak", result.stderr)

    def test_no_usable_rows(self):
        header, rows = self.fixture()
        for r in rows:
            r["status"] = "error"
        path = self.write_csv("all-failed.csv", header, rows)
        out = self.out()
        self.assert_fails(run_plot(path, "-o", out), out)

    def test_missing_output_directory(self):
        out = os.path.join(self.dir, "absent", "out.png")
        self.assert_fails(run_plot(FIXTURE, "-o", out), out)


if __name__ == "__main__":
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    sys.exit(0 if result.wasSuccessful() else 1)
