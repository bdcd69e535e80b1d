#!/usr/bin/env bash
# Usage (repo root, on a machine with an sm_90 GPU and Nsight Compute):
#   OUT=dir [METRICS=core] bash bench/gpu/atomics_probe.sh
#   (METRICS=core: skip the ~500 L2 breakdowns, keep L2 totals and srcunit_tex; ~45 s instead of ~130 s)
# Builds bench/gpu/atomics_probe.cu, dumps its SASS and PTX, finds every
# atom/red metric ncu knows for gh100, keeps the names ncu accepts, profiles
# every kernel of the probe once and writes $OUT/atomics.md: one row per
# kernel (access pattern) with its per-warp address statistics, PTX and SASS
# atomic instructions and each metric that is nonzero somewhere.
# Files in $OUT: atomics.md, atomics_ncu.csv, atomics_probe.sass,
# atomics_probe.ptx, metrics_atom_red.txt, patterns.csv, log.txt
# (the binary and the .ncu-rep stay in $BUILD).
set -u
OUT=${OUT:-/tmp/atomics_probe_out}
BUILD=${BUILD:-/tmp/atomics_probe_build}
mkdir -p "$OUT" "$BUILD"
export OUT BUILD METRICS=${METRICS:-all} PATH=/usr/local/cuda/bin:$PATH
exec > >(tee -a "$OUT/log.txt") 2>&1
src=bench/gpu/atomics_probe.cu
bin=$BUILD/atomics_probe
t0=$(date +%s)
el() { echo "[+$(( $(date +%s) - t0 ))s] $*"; }

el "build"
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
nvcc --version | tail -2
ncu --version | tail -1
nvcc -arch=sm_90 -lineinfo -O3 -o "$bin" "$src" || { echo "build failed"; exit 1; }
nvcc -arch=sm_90 -lineinfo -ptx -o "$OUT/atomics_probe.ptx" "$src"
cuobjdump -sass "$bin" > "$OUT/atomics_probe.sass"

el "plain run (results checked on the host)"
"$bin" --stats "$OUT/patterns.csv"; echo "probe rc=$?"

el "metric names"
ncu --query-metrics --chip gh100 > "$BUILD/query.txt" 2>&1
echo "query-metrics rc=$? lines=$(wc -l < "$BUILD/query.txt")"

# Candidates: every counter whose name has atom or _red (.sum), plus the
# context metrics the table wants; then drop what ncu rejects on one launch.
python3 - <<'EOF'
import os, re, subprocess, time
B, O = os.environ["BUILD"], os.environ["OUT"]
q = open(f"{B}/query.txt", errors="replace").read().splitlines()
found, skipped = [], []
for line in q:
    tok = line.split()
    if not tok or not re.fullmatch(r"[a-z0-9]+__[a-z0-9_]+", tok[0]):
        continue
    name = tok[0]
    if "atom" not in name and "_red" not in name:
        continue
    kind = tok[1] if len(tok) > 1 and tok[1] in ("Counter", "Ratio", "Throughput") else "?"
    if kind in ("Ratio", "Throughput"):
        skipped.append((name, kind, line.strip()))
    else:
        found.append((name, kind, line.strip()))
context = """smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_pipe_lsu_wavefronts_mem_shared l1tex__data_bank_conflicts_pipe_lsu_mem_shared
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom
smsp__sass_inst_executed_op_shared_atom smsp__sass_inst_executed_op_global_atom smsp__sass_inst_executed_op_global_red
smsp__inst_executed_op_shared_atom smsp__inst_executed_op_global_atom smsp__inst_executed_op_global_red
l1tex__t_requests_pipe_lsu_mem_global_op_atom l1tex__t_requests_pipe_lsu_mem_global_op_red
l1tex__t_sectors_pipe_lsu_mem_global_op_atom l1tex__t_sectors_pipe_lsu_mem_global_op_red
l1tex__t_requests_pipe_lsu_mem_global_op_st l1tex__t_sectors_pipe_lsu_mem_global_op_st
smsp__inst_executed""".split()
names = []
for n in [f[0] for f in found] + context:
    if n not in names:
        names.append(n)
cands = [n + ".sum" for n in names]
print(f"{len(found)} atom/_red counters in the query, {len(skipped)} ratios/throughputs skipped, "
      f"{len(cands)} candidates with the context metrics")

binp = f"{B}/atomics_probe"
calls = [0]
def attempt(ms):
    calls[0] += 1
    cmd = ["ncu", "--clock-control", "none", "--metrics", ",".join(ms), "--csv", binp, "--only", "s01_word_lane"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        text, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        text, rc = "timeout", 124
    errs = "\n".join(l for l in text.splitlines() if "==ERROR==" in l or "rror" in l)
    ok = rc == 0 and "==ERROR==" not in text and "s01_word_lane" in text
    return ok, errs, text

def mentioned(m, errs):
    return re.search(r"(?<![a-z0-9_])" + re.escape(m.split(".")[0]) + r"(?![a-z0-9_])", errs) is not None

rejected = []
def accept(ms, depth=0):
    if not ms or calls[0] > 25:
        rejected.extend(ms); return []
    ok, errs, _ = attempt(ms)
    if ok:
        return ms
    named = [m for m in ms if mentioned(m, errs)]
    if named and len(named) < len(ms):
        rejected.extend(named)
        return accept([m for m in ms if m not in named], depth + 1)
    if len(ms) == 1:
        rejected.extend(ms); return []
    h = len(ms) // 2
    return accept(ms[:h], depth + 1) + accept(ms[h:], depth + 1)

t = time.time()
ok, errs, text = attempt(["smsp__inst_executed.sum"])
if not ok:
    print("ncu cannot profile here (one known-good metric failed):\n" + text[-3000:])
    accepted = []
    open(f"{B}/ncu_broken", "w").write(text)
else:
    if os.environ.get("METRICS", "all") == "core":  # validate only what will be profiled
        cands = [m for m in cands if not m.startswith("lts__") or any(m == f"lts__t_{a}{b}_op_{c}{d}.sum"
                 for a in ("requests", "sectors") for b in ("", "_srcunit_tex") for c in ("atom", "red")
                 for d in ("", "_dot_alu", "_dot_cas", "_lookup_hit", "_lookup_miss"))]
    accepted = accept(cands)
print(f"accepted {len(accepted)}, rejected {len(rejected)} in {calls[0]} ncu calls, {time.time()-t:.0f}s")
open(f"{B}/accepted.txt", "w").write(",".join(accepted))
# core: everything but the L2 (lts) breakdowns, plus the L2 totals and the
# srcunit_tex ones (the requests the SMs' L1s sent)
lts_keep = {f"lts__t_{a}{b}_op_{c}{d}.sum" for a in ("requests", "sectors") for b in ("", "_srcunit_tex")
            for c in ("atom", "red") for d in ("", "_dot_alu", "_dot_cas", "_lookup_hit", "_lookup_miss")}
core = [m for m in accepted if not m.startswith("lts__") or m in lts_keep]
open(f"{B}/core.txt", "w").write(",".join(core))
with open(f"{O}/metrics_atom_red.txt", "w") as f:
    f.write(f"# ncu --query-metrics --chip gh100: names containing 'atom' or '_red'\n")
    f.write(f"# ACCEPTED (collected with .sum on this GPU): {len(accepted)}\n")
    for m in accepted: f.write(m + "\n")
    f.write(f"\n# REJECTED by ncu on this GPU: {len(rejected)}\n")
    for m in rejected: f.write(m + "\n")
    f.write(f"\n# query lines (counters) with descriptions\n")
    for n, k, l in found: f.write(l + "\n")
    f.write(f"\n# query lines skipped (ratio/throughput)\n")
    for n, k, l in skipped: f.write(l + "\n")
EOF

prof() {  # $1 = comma list of metrics; profiles every launch
  rm -f "$BUILD/atomics.ncu-rep"
  timeout "$2" ncu --clock-control none --metrics "$1" -f -o "$BUILD/atomics" "$bin" > "$BUILD/prof_stdout.txt" 2>&1
  local rc=$?
  echo "ncu profile rc=$rc ($(echo "$1" | tr ',' '\n' | wc -l) metrics)"; grep -E '==(ERROR|WARNING)==' "$BUILD/prof_stdout.txt" | head -20
  [ -f "$BUILD/atomics.ncu-rep" ] && [ $rc -eq 0 ]
}
# METRICS=core skips the ~500 L2 (lts) breakdowns: several times faster.
if [ "${METRICS:-all}" = core ] && [ -s "$BUILD/core.txt" ]; then cp "$BUILD/core.txt" "$BUILD/accepted.txt"; fi
if [ -s "$BUILD/accepted.txt" ]; then
  el "profile, ${METRICS:-all} accepted metrics"
  if ! prof "$(cat "$BUILD/accepted.txt")" 240; then
    el "profile, l1tex/smsp metrics only"
    prof "$(cat "$BUILD/core.txt")" 150 || echo "profile failed"
  fi
  if [ -f "$BUILD/atomics.ncu-rep" ]; then
    ncu -i "$BUILD/atomics.ncu-rep" --csv --page details --print-units base > "$OUT/atomics_ncu.csv" 2> "$BUILD/import_err.txt"
    echo "import rc=$? rows=$(wc -l < "$OUT/atomics_ncu.csv")"; head -5 "$BUILD/import_err.txt"
  fi
else
  echo "no metrics accepted: no profile"
fi

el "table"
python3 - <<'EOF'
import csv, os, re, collections
O = os.environ["OUT"]
pats = list(csv.DictReader(open(f"{O}/patterns.csv"))) if os.path.exists(f"{O}/patterns.csv") else []
P = {p["kernel"]: p for p in pats}

# PTX: atom/red per .entry
ptx = collections.defaultdict(list)
cur = None
for line in open(f"{O}/atomics_probe.ptx", errors="replace"):
    m = re.search(r"\.entry\s+([A-Za-z0-9_]+)", line)
    if m: cur = m.group(1); continue
    m = re.match(r"\s*(@!?%p\d+\s+)?((atom|red)\.[a-z0-9_.]+)", line)
    if m and cur: ptx[cur].append(m.group(2))

# SASS: atomic opcodes and warp-aggregation helpers per function; loops
sass = collections.defaultdict(list)
insts = collections.defaultdict(list)
cur = None
for line in open(f"{O}/atomics_probe.sass", errors="replace"):
    m = re.search(r"Function\s*:\s*([A-Za-z0-9_]+)", line)
    if m: cur = m.group(1); continue
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);", line)
    if m and cur: insts[cur].append((int(m.group(1), 16), (m.group(2) or "").strip(), m.group(3), m.group(4).strip()))
def interesting(op):
    return op.startswith(("ATOM", "RED", "VOTE", "POPC", "FLO", "MATCH", "UFLO", "UPOPC", "UREDUX", "CCTL", "MEMBAR", "FENCE"))
for f, ins in insts.items():
    atom_addrs = [a for a, p, op, rest in ins if op.startswith(("ATOM", "RED"))]
    loop = False
    for a, p, op, rest in ins:
        mt = re.search(r"0x([0-9a-f]+)", rest) if op.startswith("BRA") else None
        if mt and any(int(mt.group(1), 16) <= x < a for x in atom_addrs): loop = True
    seen = []
    for a, p, op, rest in ins:
        if interesting(op):
            s = (p + " " if p else "") + op
            if s not in seen: seen.append(s)
    sass[f] = seen + (["(atomic inside a loop)"] if loop else [])

# ncu CSV, long ("details") or wide ("raw") format
vals = collections.defaultdict(dict)
na = set()
launch_order = []
path = f"{O}/atomics_ncu.csv"
rows = []
if os.path.exists(path):
    rows = list(csv.reader(l for l in open(path, errors="replace") if l.startswith('"')))
def num(s):
    s = s.replace(",", "").strip()
    try: return float(s)
    except ValueError: return None
if rows:
    hdr = rows[0]
    kn = hdr.index("Kernel Name")
    if "Metric Name" in hdr:
        mn, mv = hdr.index("Metric Name"), hdr.index("Metric Value")
        body = [(r[kn], r[mn], r[mv]) for r in rows[1:] if len(r) > mv]
    else:
        body = [(r[kn], h, r[i]) for r in rows[2:] for i, h in enumerate(hdr) if "__" in h and i < len(r)]
    for k, m, v in body:
        k = k.split("(")[0]
        if k not in launch_order: launch_order.append(k)
        x = num(v)
        if x is None: na.add(m)
        else: vals[k][m] = x
kernels = [p["kernel"] for p in pats] or launch_order
metrics = sorted({m for k in vals for m in vals[k]})
nonzero = [m for m in metrics if any(vals[k].get(m, 0) for k in vals)]

# Columns: metrics with identical values for every kernel are one column,
# headed by the name the brief asked for where there is one.
prefer = """l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
smsp__inst_executed_op_shared_atom.sum smsp__sass_inst_executed_op_shared_atom.sum
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
smsp__inst_executed_op_global_red.sum smsp__sass_inst_executed_op_global_atom.sum""".split()
def rank(m):
    return (prefer.index(m) if m in prefer else len(prefer), 0 if m.startswith("smsp__") else 1 if m.startswith("l1tex") else 2, len(m), m)
groups = collections.defaultdict(list)
for m in nonzero:
    groups[tuple(vals[k].get(m) for k in kernels)].append(m)
cols = []  # (representative, others)
for g in groups.values():
    g.sort(key=rank)
    cols.append((g[0], g[1:]))
def ckey(c):
    m = c[0]
    grp = 0 if m.startswith(("smsp__inst", "sm__inst")) else 1 if "sass" in m else 2 if "shared" in m else 3 if m.startswith("l1tex") else 4 if m.startswith("lts") else 5
    return (grp, m)
cols.sort(key=ckey)

def fmt(v):
    if v is None: return "-"
    return str(int(v)) if float(v).is_integer() else f"{v:g}"
def short(m):
    return m[:-4] if m.endswith(".sum") else m

out = ["# ncu atomic / reduction counters per access pattern (H100/H200, sm_90)", ""]
out.append("One launch per kernel, one block of 32 threads (one warp) except m1/m2 (128 threads, 4 warps: divide "
           "by 4 for per warp). Each active lane does one atomic. Shared kernels also do 16 STS.128 (zeroing 8 KiB: "
           "64 st wavefronts) and one LDS (lane 0 reads its word back) that are plain st/ld; float/u64 shared atomics "
           "are CAS loops whose LDS count as ld too. Every metric name is `.sum`. Metrics with identical values for "
           "every kernel share one column (the others are listed under the tables). Address statistics of warp 0: "
           "act = active lanes, words = distinct element addresses, L/w = max lanes on one word, banks = distinct "
           "4-byte banks touched, W/b = max distinct 4-byte words in one bank, L/b = max lanes in one bank, "
           "sect = distinct 32-byte sectors, lines = distinct 128-byte lines. `-` = not collected/n/a.")
out.append("")
def table(title, sel, stat_cols, col_filter):
    ks = [k for k in kernels if sel(k)]
    cs = [c for c in cols if any(vals[k].get(c[0], 0) for k in ks) and col_filter(c[0])]
    out.append(f"## {title}\n")
    hdr = ["kernel", "thr"] + [c for c, _ in stat_cols] + [short(c[0]) for c in cs]
    out.append("| " + " | ".join(hdr) + " |")
    out.append("|" + "---|" * len(hdr))
    for k in ks:
        p = P.get(k, {})
        row = [k, p.get("threads", "")] + [p.get(f, "") for _, f in stat_cols] + [fmt(vals[k].get(c[0])) for c in cs]
        out.append("| " + " | ".join(map(str, row)) + " |")
    out.append("")
    return cs
shared_stats = [("B", "elem_bytes"), ("act", "active"), ("words", "words"), ("L/w", "max_lanes_per_word"),
                ("banks", "banks"), ("W/b", "max_words_per_bank"), ("L/b", "max_lanes_per_bank")]
global_stats = [("B", "elem_bytes"), ("act", "active"), ("words", "words"), ("L/w", "max_lanes_per_word"),
                ("sect", "sectors32"), ("lines", "lines128")]
is_shared = lambda k: P.get(k, {}).get("space", "shared" if k[0] in "sm" else "global") == "shared"
c1 = table("Shared-memory kernels", is_shared, shared_stats, lambda m: True)
c2 = table("Global-memory kernels", lambda k: not is_shared(k), global_stats, lambda m: True)
out.append("## Columns that stand for several metrics (same value in every kernel)\n")
for rep, others in cols:
    if others:
        out.append(f"- `{short(rep)}` = " + ", ".join(f"`{short(o)}`" for o in others))
out.append("\n## Instructions per kernel\n")
out.append("| kernel | pattern | PTX | SASS (atomics and warp-aggregation helpers) |")
out.append("|---|---|---|---|")
for k in kernels:
    out.append(f"| {k} | {P.get(k, {}).get('desc', '')} | {' '.join(dict.fromkeys(ptx.get(k, [])))} | {' '.join(sass.get(k, []))} |")
zero = [m for m in metrics if m not in nonzero]
out.append(f"\n## Metrics collected and zero for every kernel ({len(zero)})\n")
out.append(", ".join(f"`{short(m)}`" for m in zero) if zero else "(none)")
nas = sorted(na - set(metrics))
out.append(f"\n## Metrics accepted but n/a on this GPU ({len(nas)})\n")
out.append(", ".join(f"`{short(m)}`" for m in nas) if nas else "(none)")
if not rows:
    out.append("\n**No ncu data** (see log.txt).")
open(f"{O}/atomics.md", "w").write("\n".join(out) + "\n")
print(f"atomics.md: {len(kernels)} kernels, {len(nonzero)} nonzero metrics in {len(cols)} columns "
      f"(shared table {len(c1)}, global table {len(c2)}), {len(zero)} all-zero, {len(nas)} n/a")
EOF
el "done"; ls -la "$OUT"
