#!/usr/bin/env bash
# Long-running crash test: SIGKILLs the multi-threaded stress process at random moments for the
# given number of minutes per compaction style, verifying the database after every kill
# (docs/testing.md, "Crash test").
#
#   scripts/crash-test.sh [minutes] [seed]      default: 120 minutes, a fresh seed
#
# A failure prints the seed (replay with the same seed) and keeps the database and the stress
# processes' stderr in the temporary directory it names.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-120}"
seed_arg=()
if [[ $# -ge 2 ]]; then
  seed_arg=("-Dcairn.seed=$2")
fi
exec mvn -B -ntp -pl tests -am test \
  -Dtest=CrashTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dcairn.crash.minutes="$minutes" "${seed_arg[@]}"
