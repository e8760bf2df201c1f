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
  "$(dirname "$0")/keep-run.sh" "$round" "$dest/$(basename "$round")"
done
du -sh "$dest"
