#!/usr/bin/env bash
# Keeps a series' compact records under docs/results: series.md and series.json, and of each
# round its report.md, summary.json and timeseries.csv gzipped (no plots, no databases), about
# 60 KB a round. The kept rounds are what `java -jar bench/target/cairn-bench.jar series --out DEST` and the
# generated summaries (`docs --root .`) read.
#
#   scripts/keep-series.sh OUT docs/results/issue55/slow1
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 SERIES_OUT DEST (a compare --repeat output, and where under docs/results to keep it)" >&2
  exit 2
fi
src=$1
dest=$2
[ -d "$src/round-1" ] || { echo "$src holds no round-1: not the output of compare --repeat" >&2; exit 2; }
mkdir -p "$dest"
cp "$src/series.md" "$src/series.json" "$dest/"
for round in "$src"/round-*; do
  name=$(basename "$round")
  mkdir -p "$dest/$name"
  # The plots stay in OUT: the kept report names none of them.
  grep -v '^!\[.*\.png)$' "$round/report.md" > "$dest/$name/report.md"
  cp "$round/summary.json" "$dest/$name/"
  if [ -f "$round/timeseries.csv" ]; then
    gzip -9 -n -c "$round/timeseries.csv" > "$dest/$name/timeseries.csv.gz"
  else # a round carried from another machine (carry-series.sh) is kept compressed already
    cp "$round/timeseries.csv.gz" "$dest/$name/"
  fi
done
du -sh "$dest"
