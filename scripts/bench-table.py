#!/usr/bin/env python3
"""Markdown tables for docs/benchmarks.md from a shared-bench results folder.

Usage: scripts/bench-table.py RESULTS [STATS_DIR]
Env: ANCHORS_ALSO=DIR  another results folder with anchor TSVs (e.g. the
     shared bench's quiet-machine baselines); per case the anchor's faster
     run of the two is used, so that ratios never flatter reduce.

RESULTS holds the TSVs that ../shared/bench/run-all.sh wrote (cvise.tsv,
treereduce.tsv, reduce-<variant>.tsv; the latest row per case wins).
STATS_DIR, if given, holds the `--stats-json` files of the reduce runs,
named <variant>-<nanoseconds>.json; they are matched to the TSV rows of
reduce-<variant> by order (run-all.sh runs the cases in name order), to
report the reducer's own CPU time as a share of the wall time.

Prints: one table of every tool (tokens · oracle calls · wall s), ratios of
each reduce variant to C-Vise, and, when both exist, reduce -j 2 against
-j 1 with the reducer's CPU share.
"""
import csv
import glob
import json
import os
import sys


def load(results, tool):
    path = os.path.join(results, tool + ".tsv")
    rows = {}
    if os.path.exists(path):
        with open(path, newline="") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                rows[r["case"]] = r
    return rows


def load_best(folders, tool):
    """The anchor's row per case with the lowest wall time over `folders`."""
    best = {}
    for folder in folders:
        for case, r in load(folder, tool).items():
            if case not in best or float(r["wall_s"]) < float(best[case]["wall_s"]):
                best[case] = r
    return best


def cell(r):
    if not r:
        return "—"
    mark = " (cap)" if r["status"] == "timeout" else ""
    mark += "" if r["still_interesting"] == "yes" else " NOT INTERESTING"
    if r["status"] == "error":
        return "error"
    return f"{r['tokens_out']} · {r['oracle_calls']} · {float(r['wall_s']):.0f} s{mark}"


def ratio(a, b):
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return "—"
    return f"{a / b:.2f}" if b else "—"


def cpu_shares(stats_dir, variant, cases):
    files = sorted(
        glob.glob(os.path.join(stats_dir, f"{variant}-*.json")),
        key=lambda p: int(p.rsplit("-", 1)[1].split(".")[0]),
    )
    shares = {}
    for case, path in zip(cases, files[-len(cases):] if files else []):
        with open(path) as f:
            s = json.load(f)
        wall = s.get("wall_seconds") or s.get("seconds")
        cpu = s.get("reducer_cpu_seconds")
        if wall and cpu is not None:
            shares[case] = cpu / wall
    return shares


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    results = argv[1]
    stats_dir = argv[2] if len(argv) > 2 else None
    folders = [results] + ([os.environ["ANCHORS_ALSO"]] if os.environ.get("ANCHORS_ALSO") else [])
    anchors = [t for t in ("cvise", "creduce", "treereduce") if load_best(folders, t)]
    variants = sorted(
        os.path.basename(p)[len("reduce-"):-len(".tsv")]
        for p in glob.glob(os.path.join(results, "reduce-*.tsv"))
    )
    data = {t: load_best(folders, t) for t in anchors}
    data.update({f"reduce-{v}": load(results, f"reduce-{v}") for v in variants})
    cases = sorted({c for rows in data.values() for c in rows})
    tools = anchors + [f"reduce-{v}" for v in variants]

    print("Cells: final tokens · oracle calls · wall time.\n")
    print("| case | tokens in | " + " | ".join(tools) + " |")
    print("|---|---:|" + "---|" * len(tools))
    for c in cases:
        tin = next((rows[c]["tokens_in"] for rows in data.values() if c in rows), "?")
        print(f"| {c} | {tin} | " + " | ".join(cell(data[t].get(c)) for t in tools) + " |")

    if "cvise" in data:
        print("\nRatios to C-Vise (tokens / oracle calls / wall time; below 1 is better):\n")
        print("| case | " + " | ".join(f"reduce-{v}" for v in variants) + " |")
        print("|---|" + "---|" * len(variants))
        for c in cases:
            base = data["cvise"].get(c)
            row = []
            for v in variants:
                r = data[f"reduce-{v}"].get(c)
                if not base or not r or r["status"] == "error":
                    row.append("—")
                    continue
                row.append(
                    " / ".join(
                        ratio(r[k], base[k]) for k in ("tokens_out", "oracle_calls", "wall_s")
                    )
                )
            print(f"| {c} | " + " | ".join(row) + " |")

    if "auto-j1" in variants and "auto-j2" in variants:
        j1, j2 = data["reduce-auto-j1"], data["reduce-auto-j2"]
        share1 = cpu_shares(stats_dir, "auto-j1", sorted(j1)) if stats_dir else {}
        share2 = cpu_shares(stats_dir, "auto-j2", sorted(j2)) if stats_dir else {}
        print("\n`-j 2` against `-j 1` (auto), and the reducer's own CPU time as a share of wall time:\n")
        print("| case | -j 1 wall s | -j 2 wall s | -j 2 / -j 1 | same result | reducer CPU -j 1 | reducer CPU -j 2 |")
        print("|---|---:|---:|---:|---|---:|---:|")
        for c in cases:
            a, b = j1.get(c), j2.get(c)
            if not a or not b:
                continue
            same = "yes" if (a["bytes_out"], a["tokens_out"]) == (b["bytes_out"], b["tokens_out"]) else "no"
            pct = lambda d: f"{d[c] * 100:.1f}%" if c in d else "—"
            print(
                f"| {c} | {float(a['wall_s']):.1f} | {float(b['wall_s']):.1f} | "
                f"{ratio(b['wall_s'], a['wall_s'])} | {same} | {pct(share1)} | {pct(share2)} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
