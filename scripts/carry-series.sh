#!/usr/bin/env bash
# Carries an unfinished long series (`compare --repeat`, `blockdb`, `matrix`) from one machine to
# the next through the repository, so that a series of more hours than a machine keeps resumes
# where it stopped instead of starting over.
#
#   scripts/carry-series.sh save OUT docs/results/issue62/leveldb20g-partial
#   scripts/carry-series.sh restore docs/results/issue62/leveldb20g-partial OUT
#
# save: for each series under OUT (a folder holding round-1), its finished rounds in the compact
# form keep-series.sh keeps (report.md without plots, summary.json, timeseries.csv.gz), and of the
# round it was in, the runs that ended (runs/ENGINE-WORKLOAD.result, gzipped); the statistics of
# the runs so far (data/*-stats.txt: the last round's of each engine and workload, into stats/);
# a finished series' series.md and series.json too. No database, plot or log.
# restore: the reverse into OUT; the runner then reads the finished rounds back and resumes the
# round it was in at its first run not kept (KeptRuns, FinishedRound). Run the series' command
# with the same flags and --out OUT after restoring.
set -euo pipefail
usage() {
  echo "usage: $0 save SERIES_OUT DEST | restore DEST SERIES_OUT" >&2
  exit 2
}
[ $# -eq 3 ] || usage
mode=$1
src=$2
dest=$3
[ -d "$src" ] || { echo "$src is not a folder" >&2; exit 2; }

save_series() { # $1: a series folder under src, $2: where it goes
  local series=$1 to=$2
  mkdir -p "$to"
  for f in series.md series.json; do
    [ -f "$series/$f" ] && cp "$series/$f" "$to/"
  done
  if compgen -G "$series/data/*-stats.txt" > /dev/null; then
    mkdir -p "$to/stats"
    cp "$series"/data/*-stats.txt "$to/stats/"
  fi
  for round in "$series"/round-*; do
    [ -d "$round" ] || continue
    local name
    name=$(basename "$round")
    if [ -f "$round/report.md" ] && [ -f "$round/summary.json" ]; then
      mkdir -p "$to/$name"
      grep -v '^!\[.*\.png)$' "$round/report.md" > "$to/$name/report.md"
      cp "$round/summary.json" "$to/$name/"
      if [ -f "$round/timeseries.csv" ]; then
        gzip -9 -n -c "$round/timeseries.csv" > "$to/$name/timeseries.csv.gz"
      else
        cp "$round/timeseries.csv.gz" "$to/$name/"
      fi
    elif compgen -G "$round/runs/*.result" > /dev/null; then
      mkdir -p "$to/$name/runs"
      for r in "$round"/runs/*.result; do
        gzip -9 -n -c "$r" > "$to/$name/runs/$(basename "$r").gz"
      done
    fi
  done
}

restore_series() { # $1: a carried series, $2: the series folder it resumes in
  local carried=$1 to=$2
  mkdir -p "$to"
  for f in series.md series.json; do
    [ -f "$carried/$f" ] && cp "$carried/$f" "$to/"
  done
  if [ -d "$carried/stats" ]; then
    mkdir -p "$to/data"
    cp "$carried"/stats/*-stats.txt "$to/data/"
  fi
  for round in "$carried"/round-*; do
    [ -d "$round" ] || continue
    local name
    name=$(basename "$round")
    mkdir -p "$to/$name"
    if [ -f "$round/report.md" ]; then
      cp "$round/report.md" "$round/summary.json" "$round/timeseries.csv.gz" "$to/$name/"
    fi
    if [ -d "$round/runs" ]; then
      mkdir -p "$to/$name/runs"
      for r in "$round"/runs/*.result.gz; do
        gzip -d -c "$r" > "$to/$name/runs/$(basename "$r" .gz)"
      done
    fi
  done
}

case $mode in
  save)
    found=0
    while IFS= read -r first; do
      series=$(dirname "$first")
      rel=${series#"$src"}
      save_series "$series" "$dest$rel"
      found=1
    done < <(find "$src" -type d -name round-1 -not -path '*/data/*' | sort)
    [ $found -eq 1 ] || { echo "$src holds no series (no round-1 folder)" >&2; exit 2; }
    du -sh "$dest"
    ;;
  restore)
    found=0
    while IFS= read -r first; do
      series=$(dirname "$first")
      rel=${series#"$src"}
      restore_series "$series" "$dest$rel"
      found=1
    done < <(find "$src" -type d -name round-1 | sort)
    [ $found -eq 1 ] || { echo "$src holds no carried series (no round-1 folder)" >&2; exit 2; }
    ;;
  *) usage ;;
esac
