#!/usr/bin/python3
"""Plot clgemm results (the CSV written by `clgemm --format csv`) as a PNG.

Usage:
    tools/plot.py RESULTS.csv -o OUT.png [--kind lines|ladder|roofline]
                  [--size N|MxNxK] [--title TEXT]

Kinds:
    lines     GFLOP/s against matrix size, one line per variant.
    ladder    speedup over `naive` at one size, one bar per variant.
    roofline  GFLOP/s against arithmetic intensity at one size, under the
              device's roof (needs the peak columns, see `clgemm peak`).

Without --kind: `lines` when the CSV holds more than one size, else `ladder`
when it has vs_naive values, else `lines`.  --size picks the size of the
ladder and roofline plots (default: the largest suitable one).

The image is always 800x500 pixels.  Bad input prints
`plot.py: error: ...` and exits with status 2.

Runs on Debian's /usr/bin/python3 with python3-matplotlib; no numpy needed.
"""

import argparse
import csv
import math
import os
import sys
import tempfile

try:
    import matplotlib
except ImportError:
    sys.stderr.write(
        "plot.py: error: matplotlib is not installed for %s (Debian: python3-matplotlib, "
        "which tools/setup.sh installs)\n" % sys.executable
    )
    sys.exit(2)

# Headless: the plot goes to a file, and CI machines have no display.
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullLocator  # noqa: E402

PROG = "plot.py"
KINDS = ("lines", "ladder", "roofline")
BASELINES = ("clblast", "openblas", "cublas")
USABLE_STATUS = ("ok", "unchecked")

# Columns without which no plot can be drawn; the others may be missing and
# are then read as empty.
REQUIRED_COLUMNS = ("variant", "m", "n", "k", "gflops", "status")
NUMERIC_COLUMNS = ("gflops", "vs_naive", "intensity", "peak_gflops", "peak_gbs")

WIDTH_IN, HEIGHT_IN, DPI = 8, 5, 100
MARKERS = ("o", "s", "^", "v", "D", "P", "X", "*", "<", ">", "h", "p")


class PlotError(Exception):
    """Bad input; the message names the file or column at fault."""


def fail(message):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- input


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Plot clgemm CSV results (`clgemm --format csv`) as an 800x500 PNG.",
    )
    parser.add_argument("csv", metavar="RESULTS.csv", help="output of `clgemm --format csv`")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.png", help="PNG to write")
    parser.add_argument("--kind", choices=KINDS, help="default: lines if the CSV holds several sizes, else ladder if it has"
                        " vs_naive values, else lines")
    parser.add_argument("--size", metavar="N|MxNxK", help="size for ladder and roofline (default: the largest with results)")
    parser.add_argument("--title", help="replaces the generated title")
    return parser.parse_args(argv)


def parse_size(text):
    """'N' or 'MxNxK' as an (m, n, k) tuple."""
    parts = text.lower().split("x")
    try:
        dims = tuple(int(p) for p in parts)
    except ValueError:
        dims = ()
    if len(dims) == 1:
        dims = dims * 3
    if len(dims) != 3 or min(dims) <= 0:
        raise PlotError(f"--size {text!r}: expected N or MxNxK with positive integers")
    return dims


def number(row, column, path, line, as_int=False):
    text = (row.get(column) or "").strip()
    if not text:
        return None
    try:
        value = int(text) if as_int else float(text)
    except ValueError:
        raise PlotError(f"{path}:{line}: column {column}: not a number: {text!r}") from None
    if not as_int and not math.isfinite(value):
        return None
    return value


def read_rows(path):
    """All rows of the CSV with the columns the plots use, parsed.

    Every row is returned, usable or not, because peak values may sit on
    rows whose run was skipped.
    """
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            if not reader.fieldnames:
                raise PlotError(f"{path}: empty file, no CSV header")
            missing = [c for c in REQUIRED_COLUMNS if c not in reader.fieldnames]
            if missing:
                raise PlotError(f"{path}: missing column(s) {', '.join(missing)}"
                                " (expected the output of `clgemm --format csv`)")
            rows = []
            for raw in reader:
                line = reader.line_num
                if raw.get("variant") is None or not raw["variant"].strip():
                    continue  # blank line or truncated row
                row = {c: (raw.get(c) or "").strip()
                       for c in ("variant", "device", "driver", "date", "status")}
                for c in ("m", "n", "k"):
                    row[c] = number(raw, c, path, line, as_int=True)
                    if row[c] is None or row[c] <= 0:
                        raise PlotError(f"{path}:{line}: column {c}: missing or not positive")
                for c in NUMERIC_COLUMNS:
                    row[c] = number(raw, c, path, line)
                row["size"] = (row["m"], row["n"], row["k"])
                # The BLAS shape (clgemm --layout, --trans-a, --trans-b); files from before
                # shapes have no such columns and are all row-major NN.
                trans = ((raw.get("trans_a") or "n") + (raw.get("trans_b") or "n")).strip()
                row["shape"] = (raw.get("layout") or "row").strip() + " " + trans.upper()
                rows.append(row)
            # A run over several shapes holds one series per variant and shape: its name says
            # the shape, so lines of one variant in two shapes are neither merged nor mixed up.
            if len({r["shape"] for r in rows}) > 1:
                for r in rows:
                    r["variant"] = f"{r['variant']} ({r['shape']})"
            return rows
    except OSError as e:
        raise PlotError(f"{path}: cannot read: {e.strerror or e}") from None
    except (UnicodeDecodeError, csv.Error) as e:
        raise PlotError(f"{path}: not a readable CSV file: {e}") from None


def usable(rows):
    return [r for r in rows
            if r["status"] in USABLE_STATUS and r["gflops"] is not None and r["gflops"] > 0]


def best_per_variant(rows):
    """One row per variant (its fastest), in CSV order of first appearance.

    A sweep may hold several rows of one variant at one size (different
    defines); the plots show what the variant can do, i.e. its best.
    """
    best = {}
    for r in rows:
        if r["variant"] not in best or r["gflops"] > best[r["variant"]]["gflops"]:
            best[r["variant"]] = r
    return list(best.values())


def base_variant(variant):
    """The variant's own name: "clblast" of "clblast (col TN)" in a run over several shapes."""
    return variant.split(" (")[0]


def is_baseline(variant):
    return base_variant(variant) in BASELINES


def is_opencl(row):
    # Platform and driver are only filled for rows run on the OpenCL device.
    return bool(row["driver"])


# ---------------------------------------------------------------- sizes


def size_text(size):
    m, n, k = size
    return str(n) if m == n == k else f"{m}x{n}x{k}"


def all_square(rows):
    return all(r["m"] == r["n"] == r["k"] for r in rows)


def x_of(size, square):
    m, n, k = size
    return float(n) if square else (m * n * k) ** (1.0 / 3.0)


def x_label(square):
    return "matrix size N (M = N = K)" if square else "size: cube root of M*N*K"


def volume(size):
    m, n, k = size
    return m * n * k


def pick_size(requested, candidates, path, what):
    """--size if given (run() has checked that the CSV has it), else the
    largest of the candidate sizes."""
    if requested is not None:
        return requested
    if not candidates:
        raise PlotError(f"{path}: no size suitable for {what}")
    return max(candidates, key=volume)


# ---------------------------------------------------------------- style


def colours(count):
    cmap = plt.get_cmap("tab20" if count > 10 else "tab10")
    return [cmap(i % cmap.N) for i in range(count)]


def legend_outside(ax, entries):
    # Outside the axes on the right so it never hides data; tight_layout
    # then shrinks the axes to make room.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
              fontsize=7 if entries > 8 else 8, ncol=2 if entries > 24 else 1,
              frameon=False)


def readable_ticks(xs):
    """The sizes to label, leaving out those that would overprint a
    neighbour (1000 beside 1024); powers of two win such clashes."""
    xs = sorted(set(xs))
    span = math.log2(xs[-1] / xs[0]) if len(xs) > 1 else 1.0
    gap = max(span, 1.0) * 0.08  # about one label's width on the 8-inch figure

    def power_of_two(x):
        return abs(math.log2(x) - round(math.log2(x))) < 1e-9

    kept = []
    for x in sorted(xs, key=lambda x: (not power_of_two(x), x)):
        if all(abs(math.log2(x / y)) >= gap for y in kept):
            kept.append(x)
    return sorted(kept)


def set_size_ticks(axis, xs):
    axis.set_major_locator(FixedLocator(readable_ticks(xs)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.0f}"))
    axis.set_minor_locator(NullLocator())


def plain_log_ticks(axis, base=10, subs=(1.0,)):
    # Readers compare numbers, not exponents: "0.25" and "20" beat 2^-2 and 2x10^1.
    axis.set_major_locator(LogLocator(base=base, subs=subs))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_locator(NullLocator())


def format_value(value):
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


# ---------------------------------------------------------------- kinds


def plot_lines(ax, rows, args, path):
    square = all_square(rows)
    opencl = [r for r in rows if is_opencl(r)]
    tera = bool(opencl) and all(r["gflops"] > 1000 for r in opencl)
    scale, unit = (1000.0, "TFLOP/s") if tera else (1.0, "GFLOP/s")

    variants = list(dict.fromkeys(r["variant"] for r in rows))
    palette = colours(len(variants))
    xs = set()
    for i, variant in enumerate(variants):
        mine = [r for r in rows if r["variant"] == variant]
        points = sorted((x_of(r["size"], square), r["size"], r["gflops"] / scale)
                        for r in best_per_size(mine))
        xs.update(p[0] for p in points)
        ax.plot([p[0] for p in points], [p[2] for p in points],
                linestyle="--" if is_baseline(variant) else "-",
                marker=MARKERS[i % len(MARKERS)], markersize=4, linewidth=1.4,
                color=palette[i], label=variant)

    ax.set_xscale("log", base=2)
    set_size_ticks(ax.xaxis, xs)
    if len(xs) > 8:
        ax.tick_params(axis="x", labelrotation=45)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(x_label(square))
    ax.set_ylabel(unit)
    ax.grid(True, which="major", alpha=0.3)
    legend_outside(ax, len(variants))
    return f"{unit} by matrix size"


def best_per_size(rows):
    best = {}
    for r in rows:
        if r["size"] not in best or r["gflops"] > best[r["size"]]["gflops"]:
            best[r["size"]] = r
    return list(best.values())


def speedup_text(value):
    if value < 1.0:
        return f"{value:.2f}x"
    return f"{value:.1f}x" if value < 100 else f"{value:.0f}x"


def plot_ladder(ax, rows, args, path):
    # rows holds only successful runs, so any naive row here ran ok.
    # Each shape's naive in a run over several: every row's vs_naive is its own shape's.
    naive_sizes = [r["size"] for r in rows if base_variant(r["variant"]) == "naive"]
    size = pick_size(args.size, naive_sizes, path, "a ladder (naive never ran ok)")
    naive = [r for r in rows if base_variant(r["variant"]) == "naive" and r["size"] == size]
    if not naive:
        raise PlotError(f"{path}: naive did not run ok at size {size_text(size)},"
                        " so there is no speedup over naive to plot")
    naive_gflops = max(r["gflops"] for r in naive)

    bars = best_per_variant([r for r in rows if r["size"] == size])
    names = [r["variant"] for r in bars]
    values = [r["vs_naive"] if r["vs_naive"] else r["gflops"] / naive_gflops for r in bars]
    palette = colours(len(bars))
    positions = range(len(bars))
    drawn = ax.bar(positions, values, color=palette, edgecolor="black", linewidth=0.6)
    for patch, name in zip(drawn, names):
        if is_baseline(name):
            patch.set_hatch("//")
            patch.set_alpha(0.75)
    for x, value in zip(positions, values):
        ax.annotate(speedup_text(value),
                    (x, value), xytext=(0, 2), textcoords="offset points",
                    ha="center", va="bottom", fontsize=8)

    ax.set_yscale("log")
    plain_log_ticks(ax.yaxis, subs=(1.0, 2.0, 5.0))
    # Headroom above the tallest bar for its label, and a floor below the
    # lowest so that bars under 1x still show.
    ax.set_ylim(min(min(values), 1.0) / 1.6, max(max(values), 1.0) * 2.0)
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xticks(list(positions))
    ax.set_xticklabels(names, rotation=30 if len(names) > 6 else 0,
                       ha="right" if len(names) > 6 else "center",
                       fontsize=8 if len(names) > 10 else 9)
    ax.set_xlabel("variant (hatched: baseline library)")
    ax.set_ylabel("speedup over naive (x)")
    ax.grid(True, axis="y", which="major", alpha=0.3)
    return f"speedup over naive at {size_label(size)}"


def size_label(size):
    return f"N = {size[0]}" if size[0] == size[1] == size[2] else size_text(size)


def compulsory_intensity(size):
    # Each of A, B and C crosses global memory once, 4 bytes per float.
    m, n, k = size
    return 2.0 * m * n * k / (4.0 * (m * k + k * n + m * n))


def first_value(rows, column):
    return next((r[column] for r in rows if r[column]), None)


def plot_roofline(ax, rows, all_rows, args, path):
    peak = first_value(all_rows, "peak_gflops")
    bandwidth = first_value(all_rows, "peak_gbs")
    if not peak or not bandwidth:
        raise PlotError(f"{path}: no peak in the CSV (columns peak_gflops, peak_gbs are empty):"
                        " run `clgemm peak` first")
    # The roofline is the OpenCL device's; host rows (OpenBLAS, the CPU
    # paths) run under another roof and would be misplaced on this one.
    eligible = [r for r in rows if is_opencl(r)]
    size = pick_size(args.size, [r["size"] for r in eligible], path, "a roofline")
    points = best_per_variant([r for r in eligible if r["size"] == size])
    if not points:
        raise PlotError(f"{path}: no OpenCL result at size {size_text(size)}")

    ridge = peak / bandwidth
    compulsory = compulsory_intensity(size)
    placed = [(r, r["intensity"] if r["intensity"] else compulsory, not r["intensity"])
              for r in points]
    intensities = [p[1] for p in placed] + [ridge]
    lo, hi = min(intensities) / 4.0, max(intensities) * 4.0
    ax.plot([lo, ridge], [bandwidth * lo, peak], color="black", linewidth=1.6,
            label=f"bandwidth {format_value(bandwidth)} GB/s")
    ax.plot([ridge, hi], [peak, peak], color="dimgrey", linewidth=1.6, linestyle="-.",
            label=f"peak {format_value(peak)} GFLOP/s")

    palette = colours(len(placed))
    for i, (r, x, at_compulsory) in enumerate(placed):
        label = r["variant"] + (" (at compulsory traffic)" if at_compulsory else "")
        ax.plot([x], [r["gflops"]], linestyle="none",
                marker="D" if at_compulsory else "o",
                markersize=7, markerfacecolor="none" if at_compulsory else palette[i],
                markeredgecolor=palette[i], markeredgewidth=1.6 if at_compulsory else 0.8,
                color=palette[i], label=label)

    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    plain_log_ticks(ax.xaxis, base=2)
    plain_log_ticks(ax.yaxis)
    ax.set_xlim(lo, hi)
    lowest = min(min(r["gflops"] for r in points), bandwidth * lo)
    ax.set_ylim(lowest / 2.0, peak * 2.0)
    # clgemm's intensity counts every load a kernel issues as global traffic; caches can
    # lift a kernel above the bandwidth line, which is worth seeing rather than hiding.
    ax.set_xlabel("arithmetic intensity (flop/byte of global loads, caches ignored)")
    ax.set_ylabel("GFLOP/s")
    ax.grid(True, which="major", alpha=0.3)
    legend_outside(ax, len(placed) + 2)
    return f"roofline at {size_label(size)}"


# ---------------------------------------------------------------- output


def device_name(rows):
    opencl = next((r["device"] for r in rows if is_opencl(r) and r["device"]), None)
    return opencl or rows[0]["device"]


def make_title(rows, what, override):
    if override is not None:
        return override
    parts = [device_name(rows), what, rows[0]["date"]]
    return " — ".join(p for p in parts if p)


def save_atomic(fig, out):
    """Write the PNG beside its destination, then rename it into place, so
    that a failure never leaves a half-written file under the real name."""
    directory = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".plot-", suffix=".png", dir=directory)
    os.close(fd)
    try:
        # mkstemp makes the file private; give it the usual permissions.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        fig.savefig(tmp, dpi=DPI, format="png")
        os.replace(tmp, out)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def default_kind(rows):
    if len({r["size"] for r in rows}) > 1:
        return "lines"
    return "ladder" if any(r["vs_naive"] for r in rows) else "lines"


def run(args):
    out_dir = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(out_dir):
        raise PlotError(f"{args.output}: output directory {out_dir} does not exist")
    if args.size is not None:
        args.size = parse_size(args.size)

    all_rows = read_rows(args.csv)
    rows = usable(all_rows)
    if not rows:
        raise PlotError(f"{args.csv}: no usable rows (status ok or unchecked with a gflops value)")
    if args.size is not None and args.size not in {r["size"] for r in rows}:
        listed = ", ".join(size_text(s) for s in sorted({r["size"] for r in rows}, key=volume))
        raise PlotError(f"--size {size_text(args.size)} not in {args.csv}"
                        f" (sizes with results: {listed})")
    kind = args.kind or default_kind(rows)

    fig = plt.figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    try:
        ax = fig.add_subplot(1, 1, 1)
        if kind == "lines":
            what = plot_lines(ax, rows, args, args.csv)
        elif kind == "ladder":
            what = plot_ladder(ax, rows, args, args.csv)
        else:
            what = plot_roofline(ax, rows, all_rows, args, args.csv)
        ax.set_title(make_title(all_rows, what, args.title), fontsize=11)
        fig.tight_layout()
        try:
            save_atomic(fig, args.output)
        except OSError as e:
            raise PlotError(f"{args.output}: cannot write: {e.strerror or e}") from None
    finally:
        plt.close(fig)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        run(args)
    except PlotError as e:
        fail(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
