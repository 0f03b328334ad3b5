#!/bin/bash
# Merges the results files of slurm/solve-array.sbatch into one, in input order, and
# replays every solution in it:
#
#   slurm/merge.sh OUTDIR MERGED.jsonl
#
# `fifteen merge` refuses (exit 2, nothing written) unless OUTDIR holds all N shards of one
# batch, each complete, with no id twice; it names what is missing and which tasks to run
# again. Then `fifteen check` replays the merged file on its own. Exit status 0 when every
# result checks. As a job after the array:
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
"$fifteen" merge "${parts[@]}" --output "$merged"
"$fifteen" check "$merged" | tail -n 1
