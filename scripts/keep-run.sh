#!/usr/bin/env bash
# Keeps one run's compact record (a compare output or one round of a series): its report.md
# without the plot lines (the plots stay behind), summary.json, and timeseries.csv gzipped (or
# the gzipped one a round carried from another machine already holds). Called by
# keep-series.sh and paired-builds.sh.
#
#   scripts/keep-run.sh RUN_DIR DEST_DIR
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 RUN_DIR DEST_DIR" >&2
  exit 2
fi
src=$1
dest=$2
mkdir -p "$dest"
grep -v '^!\[.*\.png)$' "$src/report.md" > "$dest/report.md"
cp "$src/summary.json" "$dest/"
if [ -f "$src/timeseries.csv" ]; then
  gzip -9 -n -c "$src/timeseries.csv" > "$dest/timeseries.csv.gz"
else
  cp "$src/timeseries.csv.gz" "$dest/"
fi
