#!/usr/bin/env bash
# Two builds of the runner, round by round: what a change to the engine does, paired.
#
#   scripts/paired-builds.sh OUT ROUNDS BEFORE.jar AFTER.jar COMPARE-ARGS...
#
# Each round runs `compare` once with each jar (which goes first alternates round by round), with
# the same arguments (--out and --repeat are added here: give neither), the --engines list
# rotated one place a round (the same order for both jars of a round). Put an A/A twin among the
# engines (X with X-same, as cairn-default with cairn-default-same): each build's twin ratio is
# the band a difference between the builds must leave. Records go to OUT/round-N/{before,after}/; OUT/paired.md
# lists, per round, each engine's throughput in each build and the ratio after/before, then each
# ratio and each build's twin ratio as median [min-max] over the rounds.
#
#   scripts/paired-builds.sh keep OUT docs/results/...
#
# keeps a finished pairing's compact records: paired.md, throughput.txt, and of each round and
# build its report.md (without plots), summary.json and timeseries.csv gzipped.
set -euo pipefail

if [[ ${1:-} == keep ]]; then
  [[ $# -eq 3 && -f $2/paired.md ]] || { echo "usage: $0 keep OUT DEST (OUT holds paired.md)" >&2; exit 2; }
  mkdir -p "$3"
  cp "$2/paired.md" "$2/throughput.txt" "$3/"
  for dir in "$2"/round-*/*/; do
    dir=${dir%/}
    "$(dirname "$0")/keep-run.sh" "$dir" "$3/${dir#"$2"/}"
  done
  du -sh "$3"
  exit 0
fi

if [[ $# -lt 5 ]]; then
  echo "usage: $0 OUT ROUNDS BEFORE.jar AFTER.jar COMPARE-ARGS..." >&2
  exit 2
fi
out=$1 rounds=$2 before=$3 after=$4
shift 4
for jar in "$before" "$after"; do
  [[ -f $jar ]] || { echo "no such jar: $jar" >&2; exit 2; }
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive integer: $rounds" >&2; exit 2; }
mkdir -p "$out"

args=("$@")

# The arguments of round $1: the --engines list rotated $1 - 1 places.
round_args() {
  local i e k rotated=() engines order
  for ((i = 0; i < ${#args[@]}; i++)); do
    if [[ ${args[i]} == --engines && $((i + 1)) -lt ${#args[@]} ]]; then
      IFS=, read -r -a engines <<< "${args[i + 1]}"
      order=()
      for ((e = 0; e < ${#engines[@]}; e++)); do
        k=$(((e + $1 - 1) % ${#engines[@]}))
        order+=("${engines[k]}")
      done
      rotated+=(--engines "$(IFS=,; echo "${order[*]}")")
      i=$((i + 1))
    else
      rotated+=("${args[i]}")
    fi
  done
  printf '%s\n' "${rotated[@]}"
}

run() { # label jar round
  local dir=$out/round-$3/$1
  if [[ -f $dir/report.md ]]; then
    return # kept from an earlier, interrupted call
  fi
  local this=()
  mapfile -t this < <(round_args "$3")
  java -jar "$2" compare --repeat 1 --out "$dir" "${this[@]}" > "$out/round-$3-$1.log" 2>&1 \
    || echo "round $3 $1: compare exited $?" >&2
}
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2 == 1)); then
    run before "$before" "$r"; run after "$after" "$r"
  else
    run after "$after" "$r"; run before "$before" "$r"
  fi
done

# The throughput column that counts: writes/s for a load, scans/s for a scan, reads/s otherwise.
summarize() {
  for ((r = 1; r <= rounds; r++)); do
    for label in before after; do
      if [[ ! -f $out/round-$r/$label/report.md ]]; then
        echo "round $r $label: no report, left out" >&2
        continue
      fi
      awk -v r="$r" -v label="$label" -F'|' '
        /^## / { workload = $0; sub(/^## /, "", workload) }
        /^\| engine \| status \| reads\/s/ { table = 1; next }
        table && /^\| [a-z]/ && $3 ~ /ok/ {
          gsub(/[ ,]/, "", $2); gsub(/[ ,]/, "", $4); gsub(/[ ,]/, "", $5); gsub(/[ ,]/, "", $6)
          tput = (workload == "load" ? $5 : workload == "scan" ? $6 : $4)
          print r, label, workload, $2, tput
        }
        /^$/ { table = 0 }' "$out/round-$r/$label/report.md"
    done
  done
}
summarize > "$out/throughput.txt"
python3 - "$out" <<'EOF'
import sys, collections, statistics
out = sys.argv[1]
rows = [l.split() for l in open(out + "/throughput.txt")]
t = {(int(r), lab, wl, eng): float(v) for r, lab, wl, eng, v in rows}
rounds = sorted({k[0] for k in t}); workloads = sorted({k[2] for k in t}); engines = sorted({k[3] for k in t})
def band(xs):
    xs = sorted(xs)
    return f"{statistics.median(xs):.2f} [{xs[0]:.2f}-{xs[-1]:.2f}]" if xs else "n/a"
lines = ["# Two builds, paired round by round", ""]
for wl in workloads:
    lines += [f"## {wl}", "", "| round | engine | before | after | after / before |", "|---|---|---|---|---|"]
    ratios = collections.defaultdict(list); twins = collections.defaultdict(list)
    # A/A pairs by the runner's naming: X-same is the control twin of X.
    pairs = [(e[:-len("-same")], e) for e in engines if e.endswith("-same") and e[:-len("-same")] in engines]
    for r in rounds:
        for e in engines:
            b, a = t.get((r, "before", wl, e)), t.get((r, "after", wl, e))
            if b and a:
                ratios[e].append(a / b)
                lines.append(f"| {r} | {e} | {b:,.0f} | {a:,.0f} | {a / b:.2f} |")
        for lab in ("before", "after"):
            for e, twin in pairs:
                d, s = t.get((r, lab, wl, e)), t.get((r, lab, wl, twin))
                if d and s:
                    twins[lab, e, twin].append(s / d)
    lines += ["", "| ratio | median [min-max] over the rounds |", "|---|---|"]
    for e in engines:
        lines.append(f"| {e} after / before | {band(ratios[e])} |")
    for e, twin in pairs:
        for lab in ("before", "after"):
            lines.append(f"| A/A in {lab}: {twin} / {e} | {band(twins[lab, e, twin])} |")
    lines.append("")
open(out + "/paired.md", "w").write("\n".join(lines))
print("\n".join(lines))
EOF
