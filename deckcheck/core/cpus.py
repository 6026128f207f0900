"""How many processors this process may use: its CPU affinity, within a container's CPU quota.

``os.cpu_count()`` counts the machine's processors, not those the process may run on: pinned
to one core (``taskset -c 0``) or in a container limited to one CPU, a simulation that started
a worker per machine processor paid their start-up and then shared the one core among them.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

#: The cgroup file system's usual mount point.
CGROUP_ROOT = Path("/sys/fs/cgroup")


def usable_cpus(cgroup_root: Path = CGROUP_ROOT, proc_cgroup: Path | None = None) -> int:
    """Processors this process may use: those of its affinity mask (``os.sched_getaffinity``,
    where the system has it, else ``os.cpu_count()``), at most its cgroup's CPU quota (rounded
    down, at least one) where one is set. ``cgroup_root`` and ``proc_cgroup`` (default
    ``/proc/self/cgroup``) are for tests."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS, Windows: no affinity mask to read
        cpus = os.cpu_count() or 1
    quota = cgroup_quota(cgroup_root, proc_cgroup or Path("/proc/self/cgroup"))
    if quota is not None:
        cpus = min(cpus, max(1, math.floor(quota)))
    return max(1, cpus)


def cgroup_quota(cgroup_root: Path, proc_cgroup: Path) -> float | None:
    """The tightest CPU quota (in processors) of this process's cgroup and its ancestors, v2
    (``cpu.max``) or v1 (``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``); None when none is set
    or nothing can be read."""
    found: list[float] = []
    for folder in _cgroup_folders(cgroup_root, proc_cgroup):
        quota = _v2_quota(folder / "cpu.max")
        if quota is None:
            quota = _v1_quota(folder / "cpu.cfs_quota_us", folder / "cpu.cfs_period_us")
        if quota is not None:
            found.append(quota)
    return min(found) if found else None


def _cgroup_folders(root: Path, proc_cgroup: Path) -> list[Path]:
    """The folders that may hold this process's CPU limits: its own cgroup's and each
    ancestor's, under the v2 root and the v1 ``cpu`` hierarchies (inside a container the
    root itself is the container's cgroup)."""
    try:
        lines = proc_cgroup.read_text().splitlines()
    except OSError:
        lines = []
    bases = [root, root / "cpu", root / "cpu,cpuacct", root / "cpuacct,cpu"]
    folders: list[Path] = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers and "cpu" not in controllers.split(","):
            continue
        relative = Path(path.lstrip("/"))
        for base in bases:
            here = base / relative
            while True:
                folders.append(here)
                if here == base:
                    break
                here = here.parent
    folders.extend(bases)
    unique: list[Path] = []
    for f in folders:
        if f not in unique:
            unique.append(f)
    return unique


def _v2_quota(path: Path) -> float | None:
    try:
        fields = path.read_text().split()
    except OSError:
        return None
    if len(fields) != 2 or fields[0] == "max":
        return None
    try:
        quota, period = int(fields[0]), int(fields[1])
    except ValueError:
        return None
    return quota / period if quota > 0 and period > 0 else None


def _v1_quota(quota_path: Path, period_path: Path) -> float | None:
    try:
        quota = int(quota_path.read_text().strip())
        period = int(period_path.read_text().strip())
    except (OSError, ValueError):
        return None
    return quota / period if quota > 0 and period > 0 else None
