"""Scale benchmark (issue 2): the bench corpus through a whole `groundwork run`.

Unpacks `bench-corpus.tar.gz` once into a cache folder, runs the CLI on it into a fresh warehouse,
then runs it a second time on the unchanged corpus. For each run it measures wall time, documents/s,
words/s, the peak memory of the whole process tree (the CLI, the Prefect ephemeral server and the
worker processes: RSS and PSS summed over the tree, sampled from /proc; plus the largest single
process as `/usr/bin/time -v` reports it) and the CPU time of the tree, and reads the per-stage
timings and counts from the `runs` table. Prints a JSON summary and writes bench-out/scale.json.

By default the committed HEAD is exported (git archive) into the cache and that code is run, so
edits made to the working tree during the benchmark cannot change the code between the two runs;
`--code worktree` runs the working tree as it is (its uncommitted files are then recorded).

    .venv/bin/python benchmarks/scale.py                 # the whole corpus (~94,600 documents)
    .venv/bin/python benchmarks/scale.py --limit 2000    # the first 2,000 files, a quick try
    .venv/bin/python benchmarks/scale.py --corpus /tmp/groundwork-bench/x10   # 10x (perturbed)

Targets (issue 2): the whole corpus in under 10 minutes, peak memory under 4 GB, on 2 cores.
Only the standard library is used here, so the benchmark adds no dependency to the project.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from machine import cpu_model

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CACHE = Path("/tmp/groundwork-bench")
TARGET_WALL_S = 600.0
TARGET_PEAK_BYTES = 4 * 10**9  # "4 GB"; 4 GiB would be 4.29e9, so this is the stricter reading
SAMPLE_EVERY_S = 0.5
PREFECT_OFFLINE = {
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_CLOUD_ENABLE_ORCHESTRATION_TELEMETRY": "false",
    "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "60",
}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# The pipeline code the CLI runs: None = this working tree, else an exported commit (see main).
CODE: dict[str, Path | None] = {"dir": None}
PAGE = os.sysconf("SC_PAGE_SIZE")


# --------------------------------------------------------------------------- corpus preparation


def unpacked_corpus(tarball: Path, cache: Path) -> Path:
    """The unpacked bench corpus in the cache folder; unpacks the tarball only the first time."""
    target = cache / "bench-corpus"
    if (target / ".unpacked").exists():
        return target
    if not tarball.exists():
        sys.exit(f"error: {tarball} not found (use --shared)")
    cache.mkdir(parents=True, exist_ok=True)
    scratch = cache / ".unpacking"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.rmtree(target, ignore_errors=True)
    scratch.mkdir()
    started = time.perf_counter()
    print(f"unpacking {tarball} into {cache} ...", file=sys.stderr)
    subprocess.run(["tar", "-xzf", str(tarball), "-C", str(scratch)], check=True)
    os.replace(scratch / "bench-corpus", target)
    scratch.rmdir()
    # A dot file: the pipeline skips hidden files, so the marker is not part of the corpus.
    (target / ".unpacked").write_text(f"{tarball}\n", encoding="utf-8")
    print(f"unpacked in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return target


def corpus_files(corpus: Path) -> list[str]:
    """Relative paths of the files the pipeline reads, in its own order (visible files, sorted)."""
    found = []
    for path in corpus.rglob("*"):
        rel = path.relative_to(corpus)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            found.append(rel.as_posix())
    return sorted(found)


def subset_corpus(corpus: Path, cache: Path, limit: int) -> Path:
    """The first `limit` files of the corpus, in the pipeline's order, hard-linked into a folder
    of their own: the pipeline never follows symbolic links (ingest rejects them)."""
    target = cache / f"bench-corpus-first-{limit}"
    shutil.rmtree(target, ignore_errors=True)
    for rel in corpus_files(corpus)[:limit]:
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        os.link(corpus / rel, target / rel)
    return target


def fresh_warehouse(path: Path) -> None:
    """Delete an earlier benchmark warehouse; refuse to delete a folder that is not one."""
    if path.exists():
        known = {"groundwork.duckdb", "groundwork.duckdb.wal", "tables", ".run.lock", "reports"}
        known |= {
            "published.duckdb",
            "prefect-results",
            "unrecorded_runs.jsonl",
            "groundwork.duckdb.tmp",
        }
        known |= {"answers.md", "audit_trail.json", "report.html"}  # what a publication writes
        if not path.is_dir() or not {p.name for p in path.iterdir()} <= known:
            sys.exit(f"error: {path} exists and does not look like a warehouse; not deleting it")
        shutil.rmtree(path)


# --------------------------------------------------------------------------- process-tree sampling


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    return children


def background_jobs_finished(patience_s: float = 600.0) -> None:
    """Return once no run's background Data Docs job is alive (or after `patience_s`).

    The job outlives its run, and takes the run lock to read the tables; a second run started at
    once waits for it, so the unchanged rerun would time the job's read, not the fingerprint (it
    did so in one of four runs on 2026-11-26: 5.4 s against 1.2-1.3 s). A nightly run meets a
    job that finished long before."""
    deadline = time.monotonic() + patience_s
    while time.monotonic() < deadline and any(
        b"groundwork.quality.data_docs" in _cmdline(pid) for pid in _all_pids()
    ):
        time.sleep(0.5)


def _all_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:  # gone since it was listed
        return b""


def _tree(root: int) -> list[int]:
    children = _children_map()
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _proc_sample(pid: int) -> tuple[str, int, int, int] | None:
    """(command, rss bytes, pss bytes, cpu ticks) of a process, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            stat = f.read()
        fields = stat[stat.rindex(")") + 2 :].split()
        ticks = int(fields[11]) + int(fields[12])  # utime + stime
        rss = int(fields[21]) * PAGE
        pss = rss
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        pss = int(line.split()[1]) * 1024
                        break
        except OSError:
            pass
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        return cmd, rss, pss, ticks
    except (OSError, ValueError, IndexError):
        return None


def _role(cmd: str) -> str:
    if "forkserver" in cmd or "multiprocessing" in cmd:
        return "workers (forkserver)"
    if "uvicorn" in cmd or ("prefect" in cmd and "server" in cmd):
        return "prefect server"
    if "groundwork" in cmd and " run " in f" {cmd} ":
        return "groundwork CLI"
    if cmd.startswith("/usr/bin/time"):
        return "/usr/bin/time"
    return "other"


@dataclass
class TreeSampler:
    """Samples RSS, PSS and CPU time of a process tree until stopped (a background thread)."""

    root: int
    peak_rss: int = 0
    peak_pss: int = 0
    peak_processes: int = 0
    peak_breakdown: dict[str, int] = field(default_factory=dict)
    cpu_ticks: dict[int, int] = field(default_factory=dict)
    samples: int = 0
    timeline: list[tuple[float, int, int, int]] = field(default_factory=list)  # t, rss, pss, CLI
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._started = time.perf_counter()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(SAMPLE_EVERY_S)

    def sample(self) -> None:
        rss = pss = 0
        breakdown: dict[str, int] = {}
        pids = _tree(self.root)
        for pid in pids:
            got = _proc_sample(pid)
            if got is None:
                continue
            cmd, p_rss, p_pss, ticks = got
            rss += p_rss
            pss += p_pss
            role = _role(cmd)
            breakdown[role] = breakdown.get(role, 0) + p_rss
            self.cpu_ticks[pid] = max(self.cpu_ticks.get(pid, 0), ticks)
        self.samples += 1
        elapsed = round(time.perf_counter() - self._started, 2)
        if not self.timeline or elapsed - self.timeline[-1][0] >= 5:
            self.timeline.append((elapsed, rss, pss, breakdown.get("groundwork CLI", 0)))
        if rss > self.peak_rss:
            self.peak_rss, self.peak_breakdown, self.peak_processes = rss, breakdown, len(pids)
        self.peak_pss = max(self.peak_pss, pss)

    @property
    def cpu_seconds(self) -> float:
        return sum(self.cpu_ticks.values()) / CLOCK_TICKS


# --------------------------------------------------------------------------- one measured run


def _time_v(path: Path) -> dict[str, float | int | str]:
    """The fields of a `/usr/bin/time -v` report that we use."""
    wanted = {
        "Maximum resident set size (kbytes)": "max_single_rss_kb",
        "User time (seconds)": "user_s",
        "System time (seconds)": "system_s",
        "Percent of CPU this job got": "cpu_percent",
        "Elapsed (wall clock) time (h:mm:ss or m:ss)": "elapsed",
        "Exit status": "exit_status",
    }
    found: dict[str, float | int | str] = {}
    if not path.exists():
        return found
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        key, _, value = line.strip().rpartition(": ")
        if key in wanted:
            found[wanted[key]] = value.strip()
    return found


def _sql(warehouse: Path, statement: str) -> list[dict]:
    cmd = [str(REPO / ".venv/bin/groundwork"), "sql", statement, "-w", str(warehouse), "-f", "json"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=_env(), check=True)
    return json.loads(done.stdout)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    if CODE["dir"] is not None:
        # Put the exported commit before the editable install of the working tree; worker
        # processes inherit the parent's sys.path, so they run the same code.
        env["PYTHONPATH"] = os.pathsep.join(
            [str(CODE["dir"]), *filter(None, [env.get("PYTHONPATH")])]
        )
    for key, value in PREFECT_OFFLINE.items():
        env.setdefault(key, value)
    env.setdefault("COLUMNS", "120")
    return env


def _loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def measured_run(
    label: str, corpus: Path, warehouse: Path, workers: int, out: Path, questions: Path | None
) -> dict:
    """One `groundwork run` under /usr/bin/time -v with the process tree sampled."""
    cli = [
        str(REPO / ".venv/bin/groundwork"),
        "run",
        "--corpus",
        str(corpus),
        "--warehouse",
        str(warehouse),
        "--workers",
        str(workers),
        *(["--questions", str(questions)] if questions else []),
    ]
    time_file = out.with_name(f"{out.stem}-{label}.time")
    log_file = out.with_name(f"{out.stem}-{label}.log")
    time_bin = shutil.which("time", path="/usr/bin")
    cmd = [time_bin, "-v", "-o", str(time_file), *cli] if time_bin else cli
    load_before = _loadavg()
    print(f"[{label}] {' '.join(cli)}  (load {load_before})", file=sys.stderr)
    with open(log_file, "w", encoding="utf-8") as log:
        started = time.perf_counter()
        proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, env=_env(), cwd=CODE["dir"] or REPO
        )
        sampler = TreeSampler(proc.pid)
        sampler.start()
        code = proc.wait()
        wall = time.perf_counter() - started
        sampler.stop()
    load_after = _loadavg()
    print(
        f"[{label}] exit {code} in {wall:.1f}s, peak tree RSS "
        f"{sampler.peak_rss / 2**20:,.0f} MiB  (load {load_after})",
        file=sys.stderr,
    )
    time_v = _time_v(time_file)
    result: dict = {
        "label": label,
        "command": " ".join(cli),
        "exit_code": code,
        "wall_s": round(wall, 2),
        "peak_tree_rss_mib": round(sampler.peak_rss / 2**20, 1),
        "peak_tree_pss_mib": round(sampler.peak_pss / 2**20, 1),
        "peak_processes": sampler.peak_processes,
        "peak_rss_by_role_mib": {
            k: round(v / 2**20, 1) for k, v in sorted(sampler.peak_breakdown.items())
        },
        "max_single_process_rss_mib_time_v": (
            round(int(time_v["max_single_rss_kb"]) / 1024, 1)
            if "max_single_rss_kb" in time_v
            else None
        ),
        "tree_cpu_s": round(sampler.cpu_seconds, 1),
        "cpu_utilisation_of_2_cores": round(sampler.cpu_seconds / wall / (os.cpu_count() or 1), 3),
        "time_v": time_v,
        "memory_timeline_s_rss_pss_cli_mib": [
            (t, round(r / 2**20), round(p / 2**20), round(c / 2**20))
            for t, r, p, c in sampler.timeline
        ],
        "loadavg_before": load_before,
        "loadavg_after": load_after,
        "log": str(log_file),
    }
    if code in (0, 3):
        runs = _sql(
            warehouse,
            "SELECT run_id, status, timings, counts FROM runs ORDER BY run_id DESC LIMIT 1",
        )[0]
        result["run_id"] = runs["run_id"]
        result["status"] = runs["status"]
        result["timings_s"] = json.loads(runs["timings"])
        result["counts"] = json.loads(runs["counts"])
        result["stage_total_s"] = round(sum(result["timings_s"].values()), 2)
        result["outside_stages_s"] = round(wall - result["stage_total_s"], 2)
    else:
        result["tail"] = log_file.read_text(encoding="utf-8", errors="replace")[-3000:]
    return result


# --------------------------------------------------------------------------- main


def _git(*args: str) -> str:
    done = subprocess.run(["git", *args], capture_output=True, text=True, cwd=REPO, check=True)
    return done.stdout.strip()


def exported_commit(cache: Path, revision: str = "HEAD") -> Path:
    """A commit (HEAD unless named) exported (git archive) into the cache, so that edits made to
    the working tree while the benchmark runs (other people work in it) cannot change the code
    between the two runs, and an older commit runs beside today's for an A/B."""
    commit = _git("rev-parse", revision)
    target = cache / f"src-{commit[:12]}"
    if not (target / ".exported").exists():
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", "--format=tar", commit], cwd=REPO, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
        (target / ".exported").write_text(commit + "\n", encoding="utf-8")
    return target


def code_state() -> dict:
    """Which code was measured, and the module path the CLI really imports."""
    probe = subprocess.run(
        [str(REPO / ".venv/bin/python"), "-c", "import groundwork; print(groundwork.__file__)"],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=CODE["dir"] or REPO,
        check=True,
    )
    exported = CODE["dir"] is not None
    state = {
        "commit": (CODE["dir"] / ".exported").read_text().strip()[:7]
        if exported
        else _git("rev-parse", "--short", "HEAD"),
        "mode": "exported commit" if exported else "worktree",
        "imports": str(Path(probe.stdout.strip()).parent),
    }
    if CODE["dir"] is None:
        state["uncommitted"] = _git("status", "--short", "--untracked-files=no").splitlines()
    return state


def machine() -> dict:
    cpu = cpu_model()
    mem_kb = next(
        int(line.split()[1])
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal:")
    )
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)),
        "mem_total_gib": round(mem_kb / 2**20, 1),
        "python": platform.python_version(),
        "kernel": platform.release(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--shared",
        type=Path,
        default=REPO.parent / "shared",
        help="shared folder holding bench-corpus.tar.gz [../shared]",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=DEFAULT_CACHE,
        help=f"where the corpus is unpacked once [{DEFAULT_CACHE}]",
    )
    parser.add_argument(
        "--warehouse",
        type=Path,
        default=None,
        help="warehouse folder, deleted first [<cache>/warehouse[-first-N]]",
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=None,
        help="only the first N files (pipeline order), for a quick try",
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="run this corpus folder instead of the bench corpus (a perturbed_corpus.py one)",
    )
    parser.add_argument("--workers", type=int, default=0, help="passed to `groundwork run`")
    parser.add_argument(
        "--code",
        choices=["head", "worktree"],
        default="head",
        help="run the committed HEAD (exported once into the cache, immune to "
        "edits during the benchmark) or the working tree as it is [head]",
    )
    parser.add_argument(
        "--commit",
        default="HEAD",
        help="with --code head, the commit to export and run, for an A/B with an older one [HEAD]",
    )
    parser.add_argument(
        "--questions",
        type=Path,
        default=None,
        help="questions the runs answer too (data/questions.yaml: retrieval at corpus scale)",
    )
    parser.add_argument("--out", type=Path, default=REPO / "bench-out/scale.json")
    args = parser.parse_args()

    if args.code == "head":
        CODE["dir"] = exported_commit(args.cache, args.commit)
    if args.questions:
        args.questions = args.questions.resolve()  # the runs start in another folder
    args.out = args.out.resolve()
    code = code_state()
    print(f"code: {code}", file=sys.stderr)
    full = args.corpus or unpacked_corpus(args.shared / "bench-corpus.tar.gz", args.cache)
    corpus = subset_corpus(full, args.cache, args.limit) if args.limit else full
    suffix = f"-first-{args.limit}" if args.limit else f"-{full.name}" if args.corpus else ""
    warehouse = args.warehouse or args.cache / f"warehouse{suffix}"
    fresh_warehouse(warehouse)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    files = corpus_files(corpus)
    corpus_bytes = sum((corpus / rel).stat().st_size for rel in files)

    uptime_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    first = measured_run("first", corpus, warehouse, args.workers, args.out, args.questions)
    background_jobs_finished()
    second = measured_run("second", corpus, warehouse, args.workers, args.out, args.questions)
    uptime_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()

    ok = first["exit_code"] in (0, 3)
    words = chars = documents = None
    rejected: list[dict] = []
    if ok:
        size = _sql(
            warehouse,
            r"""
            SELECT count(*) AS documents, sum(length(text)) AS chars,
                   sum(length(regexp_split_to_array(trim(text), '\s+'))) AS words
            FROM documents WHERE status = 'active'""",
        )[0]
        documents, chars, words = size["documents"], size["chars"], size["words"]
        rejected = _sql(
            warehouse,
            "SELECT reason, count(*) AS n FROM rejected_documents "
            "WHERE run_id = '" + first["run_id"] + "' "
            "GROUP BY 1 ORDER BY 2 DESC",
        )
        for run in (first, second):
            if "counts" in run:
                run["documents_per_s"] = round(run["counts"]["documents"] / run["wall_s"], 1)
                run["words_per_s"] = round(words / run["wall_s"])
                run["mb_files_per_s"] = round(corpus_bytes / 1e6 / run["wall_s"], 2)

    summary = {
        "benchmark": "scale",
        "machine": machine(),
        "code": code,
        "benchmark_process_cpu_s": round(
            resource.getrusage(resource.RUSAGE_SELF).ru_utime
            + resource.getrusage(resource.RUSAGE_SELF).ru_stime,
            1,
        ),
        "corpus": {
            "path": str(corpus),
            "limit": args.limit,
            "files": len(files),
            "bytes_on_disk_files": corpus_bytes,
            "documents": documents,
            "words": words,
            "chars": chars,
        },
        "warehouse": str(warehouse),
        "uptime_before": uptime_before,
        "uptime_after": uptime_after,
        "runs": [first, second],
        "rejected_first_run": rejected,
        "targets": {
            "wall_s_max": TARGET_WALL_S,
            "peak_bytes_max": TARGET_PEAK_BYTES,
            "applies": args.limit is None,
            "wall_met": ok and first["wall_s"] < TARGET_WALL_S,
            "memory_met": first["peak_tree_rss_mib"] * 2**20 < TARGET_PEAK_BYTES
            and second["peak_tree_rss_mib"] * 2**20 < TARGET_PEAK_BYTES,
        },
    }
    text = json.dumps(summary, indent=1, ensure_ascii=False)
    args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0 if ok and second["exit_code"] in (0, 3) else 1


if __name__ == "__main__":
    sys.exit(main())
