#!/bin/bash
# Merges the results files of slurm/solve-array.sbatch into one, in input order, and
# replays every solution in it:
#
#   slurm/merge.sh OUTDIR MERGED.jsonl
#
# `fifteen merge` refuses (exit 2, nothing written) unless OUTDIR holds all N shards of one
# batch, each complete, with no id twice; it names what is missing and which tasks to run
# again. Then `fifteen check` replays the merged file on its own. Exit status 0 when every
# result checks, 1 when some does not, 2 for usage errors and a set of files that does not
# merge; 130 after Ctrl-C, 143 after SIGTERM (passed on to the fifteen under way, which
# stops, writing no merged file). As a job after the array:
#   sbatch --dependency=afterok:JOBID --wrap "slurm/merge.sh OUTDIR MERGED.jsonl"
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 OUTDIR MERGED.jsonl" >&2
    exit 2
fi
outdir=$1 merged=$2
fifteen=${FIFTEEN:-fifteen}
shopt -s nullglob
parts=("$outdir"/part-*-of-*.jsonl)
if [ ${#parts[@]} -eq 0 ]; then
    echo "$0: no part-K-of-N.jsonl files in $outdir" >&2
    exit 2
fi
# Each step runs in the background and is waited for, so that SIGTERM or Ctrl-C reaches
# the trap at once, which passes it on and exits 143 or 130 when the step has stopped.
pid=""
summary=""
stop() {
    trap '' INT TERM
    [ -z "$pid" ] || kill -"$1" "$pid" 2> /dev/null || true
    wait || true
    [ -z "$summary" ] || rm -f -- "$summary"
    echo "$0: stopped by SIG$1" >&2
    exit "$2"
}
trap 'stop INT 130' INT
trap 'stop TERM 143' TERM
step() {
    local rc=0
    "$@" &
    pid=$!
    wait "$pid" || rc=$?
    pid=""
    return "$rc"
}
step "$fifteen" merge "${parts[@]}" --output "$merged"
# `fifteen check` prints a line per result and the count last; the count is all we show.
summary=$(mktemp "${TMPDIR:-/tmp}/fifteen-merge-check.XXXXXX")
rc=0
step "$fifteen" check "$merged" > "$summary" || rc=$?
tail -n 1 "$summary"
rm -f -- "$summary"
exit "$rc"
