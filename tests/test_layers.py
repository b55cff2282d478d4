#!/usr/bin/python3
"""The layers of host/: which folder's files may include which other folder's headers.

Run as `test_layers.py SOURCE_DIR` (ctest: `layers`). It first checks itself: the check must fail,
naming the file and the include, on copies of host/ with a planted bad include (a core file
including the command line's header, a lower layer including a higher one, an include not written
relative to host/); then it checks the real tree. Every folder of host/ must be in LAYERS, have a
README.md and hold at most MAX_FILES files, and LAYERS must have no cycle.
"""

import re
import shutil
import sys
import tempfile
from pathlib import Path

# Folder -> the other folders its files may include, from the bottom layer up. Everything but cli/
# is the core library (clgemm_core); nothing in it may include cli/.
LAYERS = {
    "util": set(),
    "problem": {"util"},
    "check": {"problem", "util"},
    "opencl": {"util"},
    "cpu": {"util"},
    "cuda": {"opencl", "util"},
    "session": {"opencl", "check", "problem", "util"},
    "store": {"opencl", "problem", "util"},
    "registry": {"store", "cuda", "opencl", "cpu", "check", "problem", "util"},
    "report": {"registry", "store", "cuda", "opencl", "check", "problem", "util"},
    "run": {"report", "registry", "session", "store", "cuda", "opencl", "cpu", "check", "problem", "util"},
    "tune": {"run", "report", "registry", "session", "store", "cuda", "opencl", "check", "problem", "util"},
    "multi": {"run", "report", "registry", "session", "store", "cuda", "opencl", "check",
              "problem", "util"},
    # The BLAS shim's parts (libclgemm_blas.so's own file, blas_shim.cpp, is not in the core): the
    # records of its threshold live in the store's folders.
    "blas": {"store", "opencl", "problem", "util"},
    "api": {"run", "registry", "store", "cuda", "opencl", "problem", "util"},
    "commands": {"blas", "tune", "multi", "run", "report", "registry", "session", "store",
                 "cuda", "opencl", "cpu", "check", "problem", "util"},
}
LAYERS["cli"] = set(LAYERS) - {"cli"}

MAX_FILES = 16  # "about 15" per folder, README.md included

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def cycle_in(layers):
    """A folder that can reach itself through LAYERS, or None."""
    def reaches(start, target, seen):
        for d in layers.get(start, ()):
            if d == target or (d not in seen and reaches(d, target, seen | {d})):
                return True
        return False
    return next((f for f in layers if reaches(f, f, {f})), None)


def problems(host):
    """Every violation in the host/ tree at `host`, as messages naming the file."""
    found = []
    folders = sorted(p.name for p in host.iterdir() if p.is_dir())
    for name in sorted(set(LAYERS) - set(folders)):
        found.append(f"LAYERS names host/{name}/, which does not exist")
    for name in folders:
        if name not in LAYERS:
            found.append(f"host/{name}/ is not in LAYERS (tests/test_layers.py): say what it may use")
            continue
        files = [p for p in (host / name).iterdir() if p.is_file()]
        if not (host / name / "README.md").is_file():
            found.append(f"host/{name}/ has no README.md saying what it owns and may use")
        if len(files) > MAX_FILES:
            found.append(f"host/{name}/ holds {len(files)} files (at most {MAX_FILES}): split it")
    for path in sorted(p for p in host.glob("*") if p.is_file()):
        found.append(f"host/{path.name} lies outside the layer folders")
    for name in folders:
        if name not in LAYERS:
            continue
        for path in sorted((host / name).iterdir()):
            if path.suffix not in (".cpp", ".hpp"):
                continue
            where = f"host/{name}/{path.name}"
            for include in INCLUDE.findall(path.read_text()):
                folder, _, rest = include.partition("/")
                if not rest:
                    found.append(f'{where}: #include "{include}" is not written relative to host/ '
                                 f'(as "{name}/{include}" or "<folder>/{include}")')
                elif not (host / include).is_file():
                    found.append(f'{where}: #include "{include}" names no file under host/')
                elif folder != name and folder not in LAYERS[name]:
                    allowed = ", ".join(sorted(LAYERS[name])) or "no other folder"
                    found.append(f'{where}: #include "{include}": host/{name}/ may not use '
                                 f"host/{folder}/ (it may use {allowed})")
    return found


def self_test(source):
    """The check must catch each planted fault, naming the file and the include."""
    plants = [
        ("util/errors.hpp", '#include "cli/options.hpp"\n', "util/errors.hpp"),
        ("registry/kernels.cpp", '#include "run/launch.hpp"\n', "host/registry/ may not use"),
        ("opencl/device.cpp", '#include "device_class.hpp"\n', "not written relative to host/"),
    ]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for file, line, expected in plants:
            copy = Path(tmp) / "host"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(source / "host", copy)
            target = copy / file
            target.write_text(line + target.read_text())
            found = problems(copy)
            named = [m for m in found if file in m and line.split('"')[1] in m and expected in m]
            if not named:
                failures.append(f"planted {line.strip()} in host/{file}: not reported as expected "
                                f"(reported: {found})")
    if cycle_in({"a": {"b"}, "b": {"a"}}) is None:
        failures.append("the cycle check misses a -> b -> a")
    return failures


def main():
    source = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    failures = self_test(source)
    if failures:
        print("test_layers.py cannot catch what it should:", *failures, sep="\n  ")
        return 1
    found = problems(source / "host")
    cycle = cycle_in(LAYERS)
    if cycle:
        found.append(f"LAYERS has a cycle through {cycle}: the layers must stack")
    if found:
        print("host/'s layers are broken:", *found, sep="\n  ")
        return 1
    print(f"host/: {len(LAYERS)} folders, every include within its layer's table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
