"""Sets `threadmap-cli counters` (the analysis of the traced run) beside Nsight
Compute's counters for the same kernel and parameters. Each configuration is
profiled several times ($label.N.csv): the hardware counters' spread over
those runs is ncu's own noise. Where ncu has the SASS-level twins of the
shared-memory counters (sm__sass_...), they are shown too. Prints Markdown."""
import csv
import glob
import io
import json
import os
import sys

HARDWARE = [
    ("smsp__inst_executed_op_shared_ld.sum", "shared ld inst"),
    ("smsp__inst_executed_op_shared_st.sum", "shared st inst"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared ld wavefronts"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared st wavefronts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "shared ld conflicts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared st conflicts"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global ld requests"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global st requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global ld sectors"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global st sectors"),
]
# Instructions executed by warps with at least one thread predicated on: a
# request in ThreadMap's sense (a warp's execution of an access with at least
# one active lane). ncu's plain inst_executed also counts warps whose lanes
# are all predicated off (pred_off_all), which make no access.
PRED_ON = {
    "smsp__inst_executed_op_shared_ld_pred_on_any.sum": "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st_pred_on_any.sum": "smsp__inst_executed_op_shared_st.sum",
    "smsp__inst_executed_op_global_ld_pred_on_any.sum": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "smsp__inst_executed_op_global_st_pred_on_any.sum": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
}
# The same instructions counted by ncu's patching of the machine code
# (sm__sass_*): exact, and only where at least one lane is predicated on.
# The hardware pred_on_any counters above also count a small, varying share
# of instructions whose every lane is predicated off (bench/gpu/
# pred_on_any_probe.cu: 4166..4207 of 1048576 shared loads executed with no
# lane on), which the tree reductions execute by the hundred thousand.
SASS_INST = {
    "smsp__sass_inst_executed_op_shared_ld.sum": "smsp__inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum": "smsp__inst_executed_op_shared_st.sum",
    "smsp__sass_inst_executed_op_global_ld.sum": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
}
# SASS-level counters ncu computes per executed instruction, and the
# hardware metric of ours each one is compared with.
SASS = {
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
}


# The atomics' counters (bench/gpu/run.sh pack-counters): COUNTERS=atomics shows these instead.
ATOMICS = [
    ("smsp__inst_executed_op_shared_atom.sum", "shared atom inst"),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", "shared atom wavefronts"),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", "shared atom conflicts"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "global atom requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "global atom sectors"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "global red requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "global red sectors"),
    ("smsp__inst_executed_op_shared_st.sum", "shared st inst"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global ld requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global ld sectors"),
]
if os.environ.get("COUNTERS") == "atomics":
    # The plain stores and loads beside the atomics, also counted in the
    # machine code: a store executed with no lane on is in the hardware count only.
    HARDWARE, SASS, PRED_ON = ATOMICS, {}, {}
    SASS_INST = {m: ours for m, ours in SASS_INST.items() if "shared_st" in m or "global_ld" in m}
if sys.argv[1:] == ["--metrics"]:
    extra = list(SASS_INST) if os.environ.get("COUNTERS") == "atomics" else []
    print(",".join([m for m, _ in HARDWARE] + extra))
    sys.exit(0)


def ncu_values(path):
    text = open(path).read()
    start = text.find('"ID"')
    values = {}
    for row in csv.DictReader(io.StringIO(text[start:])):
        name = row.get("Metric Name")
        if name and name not in values:
            try:
                values[name] = float(row["Metric Value"].replace(",", ""))
            except ValueError:
                pass
    return values


out_dir, labels = sys.argv[1], sys.argv[2:]
print("| config | " + " | ".join(short for _, short in HARDWARE) + " |")
print("|---|" + "---|" * len(HARDWARE))
notes, sass_rows, pred_rows, inst_rows, worst_outside = [], [], [], [], 0.0
for label in labels:
    try:
        ours = json.load(open(f"{out_dir}/{label}.json"))["totals"]
        runs = [ncu_values(p) for p in sorted(glob.glob(f"{out_dir}/{label}.*.csv"))]
        runs = [r for r in runs if r]
        if not runs:
            raise ValueError("no ncu values")
    except Exception as e:  # reported, not fatal
        print(f"| {label} | no comparison: {e} |")
        continue
    cells = []
    for metric, short in HARDWARE:
        a = ours.get(metric)
        seen = [r[metric] for r in runs if metric in r]
        if a is None or not seen:
            cells.append("?")
            continue
        lo, hi = min(seen), max(seen)
        if lo == hi == a:
            cells.append(f"{int(a)}")
        else:
            span = f"{int(lo)}" if lo == hi else f"{int(lo)}..{int(hi)}"
            cells.append(f"{int(a)} / {span}")
            if not (lo <= a <= hi):
                # Conflicts are a difference of wavefronts: measure their gap
                # against the wavefronts of the same access kind.
                base = ours.get(metric.replace("data_bank_conflicts_pipe_lsu_mem", "data_pipe_lsu_wavefronts_mem"), a)
                gap = min(abs(a - lo), abs(a - hi))
                share = 100.0 * gap / max(base, 1)
                worst_outside = max(worst_outside, share)
                notes.append(f"{label} {short}: threadmap {int(a)}, ncu {span} over {len(seen)} runs "
                             f"({share:.2f} % of {int(base)})")
    print(f"| {label} | " + " | ".join(cells) + " |")
    sass = [(m, ours.get(h), [r[m] for r in runs if m in r]) for m, h in SASS.items()]
    if any(v for _, _, v in sass):
        sass_rows.append((label, sass))
    pred = [(m, ours.get(h), [r[m] for r in runs if m in r]) for m, h in PRED_ON.items()]
    if any(v for _, _, v in pred):
        pred_rows.append((label, pred))
    inst = [(m, ours.get(h), [r[m] for r in runs if m in r]) for m, h in SASS_INST.items()]
    if any(v for _, _, v in inst):
        inst_rows.append((label, inst))
print()
print(f"A single number: both agree in every ncu run. a / b: threadmap a, ncu b (lo..hi over the runs).")
print(f"Largest distance outside ncu's own spread: {worst_outside:.2f} %")
for n in notes:
    print(f"- {n}")


def twin_table(title, metrics, prefix, rows):
    """ncu's twin of each of our counters, a row per configuration."""
    if not rows:
        return
    print()
    print(title)
    print()
    print("| config | " + " | ".join(m.replace(prefix, "").replace(".sum", "") for m in metrics) + " |")
    print("|---|" + "---|" * len(metrics))
    for label, values in rows:
        cells = []
        for _, a, seen in values:
            if a is None or not seen:
                cells.append("?")
            elif min(seen) == max(seen) == a:
                cells.append(f"{int(a)}")
            else:
                cells.append(f"{int(a)} / {int(min(seen))}..{int(max(seen))}")
        print(f"| {label} | " + " | ".join(cells) + " |")


twin_table("SASS-level shared-memory counters (ncu's per-instruction count, no other traffic):", SASS,
           "sm__sass_l1tex_data_", sass_rows)
twin_table("Requests against instructions executed with at least one thread predicated on (pred_on_any):",
           PRED_ON, "smsp__inst_executed_op_", pred_rows)
twin_table("Requests against the same instructions counted in the machine code (SASS patching, predicated on):",
           SASS_INST, "smsp__sass_inst_executed_op_", inst_rows)
mismatches = sum(1 for _, values in inst_rows for _, a, seen in values
                 if a is not None and seen and not (min(seen) == max(seen) == a))
print()
print(f"Request counts equal to the machine code's in every run: {len(inst_rows) * len(SASS_INST) - mismatches} "
      f"of {len(inst_rows) * len(SASS_INST)} counts ({len(inst_rows)} configurations)")
