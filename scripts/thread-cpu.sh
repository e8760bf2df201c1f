#!/usr/bin/env bash
# One runner `run` with the CPU seconds each thread of its engine process spent, read from
# /proc/PID/task/*/stat every two seconds (the last reading of each thread counts): where a
# write-heavy run's two cores go (the writer, the engine's background threads, the JIT, the GC).
# A diagnosis of one run, not a figure: claims come from series (compare --repeat).
#
#   scripts/thread-cpu.sh OUT ENGINE [runner flags]
#   scripts/thread-cpu.sh /tmp/tc-cairn cairn-table --workload load --records 1000000 --memtable-mb 32 \
#       --cache-mb 128 --engine-defaults --compression-ratio 0.5 --compression lz4
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUT ENGINE [runner flags] (needs bench/target/cairn-bench.jar, or CAIRN_BENCH_JAR)" >&2
  exit 2
fi
out=$1
engine=$2
shift 2
jar=${CAIRN_BENCH_JAR:-bench/target/cairn-bench.jar}
samples=$(mktemp)
trap 'rm -f "$samples"' EXIT
rm -rf "$out"
java -jar "$jar" run --engine "$engine" "$@" --out "$out" > "$out.log" 2>&1 &
runner=$!
while kill -0 "$runner" 2>/dev/null; do
  for pid in $(pgrep -f "dev.cairn.bench.BenchMain" || true); do
    for task in /proc/"$pid"/task/*; do
      # comm, then utime + stime in clock ticks (fields 14 and 15 of stat)
      echo "${task##*/}|$(cat "$task/comm" 2>/dev/null)|$(awk '{print $14 + $15}' "$task/stat" 2>/dev/null)"
    done
  done >> "$samples" 2>/dev/null
  sleep 2
done
wait "$runner" || { echo "the run failed: $out.log" >&2; exit 1; }
ticks=$(getconf CLK_TCK)
# A thread's name loses its number (cairn-bg-...-1 and -2 are one pool), threads of one name add up.
awk -F'|' -v hz="$ticks" '$3 != "" { if ($3 > last[$1]) { last[$1] = $3; name[$1] = $2 } }
  END { for (t in last) { n = name[t]; sub(/[-#][0-9]+$/, "", n); cpu[n] += last[t] }
        for (n in cpu) if (cpu[n] / hz >= 0.2) printf "%8.2f s  %s\n", cpu[n] / hz, n }' "$samples" | sort -rn
grep "| $engine | ok" "$out/report.md" || true
