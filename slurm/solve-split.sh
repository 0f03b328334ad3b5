#!/usr/bin/env bash
# One hard instance on many machines: IDA* split by iteration.
#
#   slurm/solve-split.sh [--local] [--parts N] [--depth D] [--dir DIR] [--goal G]
#                        [--tables DIR] [--heuristic H] [--partition P] [--size RxC]
#                        [--fifteen BIN] [--sbatch-args "ARGS"] BOARD
#
# Writes the frontier once (`fifteen split frontier`), then for each iteration runs N parts
# (`fifteen split search --part K/N`) and adds them up (`fifteen split reduce`), until a
# part finds the solution. With --local the parts are plain processes on this machine;
# otherwise each iteration is one Slurm job array, `sbatch --wait --array=...` (extra
# sbatch options in --sbatch-args, e.g. "--partition=long --time=2:00:00").
#
# Everything is kept in DIR (default: split-work/JOB, JOB a checksum of the board and the
# options that decide the search): job.txt, frontier.json, and per iteration
# t<THRESHOLD>/part-K.json and t<THRESHOLD>/reduced.txt, each written whole or not at all.
# Running the same command again skips what is done: the frontier, finished parts (only
# the missing ones are submitted); each iteration's parts are added up again (`split
# reduce`, which checks them whole), and reduced.txt, a record for people, is never read
# back. A DIR is for one job: job.txt
# names it, and a DIR that holds another job's work is refused (exit status 2). The
# solution is replayed from the board (`fifteen check`) before it is printed.
#
# Prints a row per iteration (threshold, nodes), then the solution and the total nodes.
# Exit status: 0 solved; 1 a part or the reducer failed (what failed is said on stderr);
# 2 usage errors; 130 after Ctrl-C (SIGINT), 143 after SIGTERM: the parts under way are
# stopped first (with --local, the signal is passed on to them; under Slurm the job array
# is cancelled), and a rerun resumes.
set -euo pipefail

parts=4
depth=12
dir=""
local=0
fifteen=${FIFTEEN:-fifteen}
sbatch_args=""
frontier_opts=()
check_opts=()
common_opts=()
board=""

usage() { sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
need() { [ "$#" -ge 2 ] || { echo "error: $1 needs a value" >&2; exit 2; }; }

# Every fifteen (or sbatch) this script starts runs in the background, its pid in $pids,
# and is waited for: so SIGTERM or Ctrl-C reaches the trap below at once (bash runs a trap
# only once the command in the foreground is over), which passes the signal on to them,
# cancels the job array under way, waits for them to stop and exits 143 or 130.
pids=()
jobid_file=""
stop() {
  trap '' INT TERM
  local p jobid=""
  for p in "${pids[@]}"; do kill -"$1" "$p" 2> /dev/null || true; done
  if [ -n "$jobid_file" ] && [ -s "$jobid_file" ]; then
    jobid=$(cut -d';' -f1 "$jobid_file")
    scancel "$jobid" 2> /dev/null || true
  fi
  wait || true
  [ -z "$jobid_file" ] || rm -f -- "$jobid_file"
  echo "solve-split.sh: stopped by SIG$1${jobid:+ (job array $jobid cancelled)}; run the same command again to resume (what is done is kept)" >&2
  exit "$2"
}
trap 'stop INT 130' INT
trap 'stop TERM 143' TERM
# run CMD...: CMD in the background, waited for; its exit status. A part stopped by a
# signal (exit status 130 or 143) stops this script with the same status.
run() {
  local rc=0
  "$@" &
  pids=($!)
  wait "$!" || rc=$?
  pids=()
  stopped "$rc"
  return "$rc"
}
stopped() {
  case "$1" in
    130) echo "solve-split.sh: a step was stopped by Ctrl-C (SIGINT); run the same command again to resume" >&2; exit 130 ;;
    143) echo "solve-split.sh: a step was stopped by SIGTERM; run the same command again to resume" >&2; exit 143 ;;
  esac
}

while [ "$#" -gt 0 ]; do
  case "$1" in
    --local) local=1; shift ;;
    --parts) need "$@"; parts=$2; shift 2 ;;
    --depth) need "$@"; depth=$2; shift 2 ;;
    --dir) need "$@"; dir=$2; shift 2 ;;
    --fifteen) need "$@"; fifteen=$2; shift 2 ;;
    --sbatch-args) need "$@"; sbatch_args=$2; shift 2 ;;
    --tables) need "$@"; common_opts+=(--tables "$2"); shift 2 ;;
    --goal|--size) need "$@"; frontier_opts+=("$1" "$2"); check_opts+=("$1" "$2"); shift 2 ;;
    --heuristic|--partition) need "$@"; frontier_opts+=("$1" "$2"); shift 2 ;;
    -h|--help) usage ;;
    -*) echo "error: unknown option $1" >&2; exit 2 ;;
    *) [ -z "$board" ] || { echo "error: one board only" >&2; exit 2; }; board=$1; shift ;;
  esac
done
[ -n "$board" ] || usage
case "$parts" in ''|*[!0-9]*|0) echo "error: --parts needs a whole number from 1" >&2; exit 2 ;; esac

case "$depth" in ''|*[!0-9]*) echo "error: --depth needs a whole number" >&2; exit 2 ;; esac

# What the directory's files depend on: the board (its numbers, however separated), the
# options that decide the search, the depth and the part count. Not the tables'
# directory or the fifteen binary, which decide only where and how fast.
job="board $(printf '%s' "$board" | tr -s ', \t\n' ' ' | sed 's/^ //; s/ $//')
depth $depth
parts $parts
options ${frontier_opts[*]}"
if [ -z "$dir" ]; then
  dir=split-work/$(printf '%s\n' "$job" | cksum | cut -d' ' -f1)
fi
if [ -e "$dir" ] && [ ! -d "$dir" ]; then
  echo "error: --dir $dir: it is not a directory; give a directory (it is made if missing)" >&2
  exit 2
fi
mkdir -p -- "$dir" 2> /dev/null && dir=$(cd -- "$dir" && pwd) || {
  echo "error: --dir $dir: cannot make or enter this directory (see its parents' permissions)" >&2
  exit 2
}
if [ -e "$dir/job.txt" ]; then
  if [ "$(cat "$dir/job.txt")" != "$job" ]; then
    {
      echo "error: $dir holds the work of another job; give another --dir, or delete it"
      echo "  its job:"; sed 's/^/    /' "$dir/job.txt"
      echo "  this job:"; printf '%s\n' "$job" | sed 's/^/    /'
    } >&2
    exit 2
  fi
elif [ -n "$(ls -A -- "$dir")" ]; then
  echo "error: $dir is not empty and was not made by this script (no job.txt); give another --dir" >&2
  exit 2
else
  printf '%s\n' "$job" > "$dir/job.txt.tmp"
  mv "$dir/job.txt.tmp" "$dir/job.txt"
fi
frontier=$dir/frontier.json

# The frontier, once. frontier.txt (its first threshold) is written after it, by rename;
# a frontier.json deleted (one of another version, say) is written again.
if [ ! -s "$dir/frontier.txt" ] || [ ! -s "$frontier" ]; then
  # Its exit status is this script's: 2 for a board or an option it refuses.
  rc=0
  run "$fifteen" --quiet split frontier "$board" --depth "$depth" "${frontier_opts[@]}" \
    "${common_opts[@]}" -o "$frontier" > "$dir/frontier.txt.tmp" || rc=$?
  if [ "$rc" != 0 ]; then
    rm -f -- "$dir/frontier.txt.tmp"
    exit "$rc"
  fi
  mv "$dir/frontier.txt.tmp" "$dir/frontier.txt"
fi
# The first threshold is read from the frontier file itself, which every part's search
# checks whole (checksum) before it starts; frontier.txt only marks the step done. A
# threshold taken from a damaged text file would skip iterations and pass off a longer
# solution as optimal.
threshold=$(sed -n 's/.*"first_threshold":\([0-9][0-9]*\),.*/\1/p' "$frontier" 2>/dev/null || true)
if [ -z "$threshold" ]; then
  echo "error: $frontier is not a frontier file (no first_threshold): delete it and run the same command again, which writes the frontier again" >&2
  exit 2
fi

# The job array's script, for Slurm: part SLURM_ARRAY_TASK_ID of the iteration given.
# Every value is pasted in quoted by printf %q, so that any path works. The task logs'
# name is given to sbatch as an argument (--output), not on an #SBATCH line, which is not
# shell; in a Slurm file name pattern % is written %% and a backslash turns the %A_%a of
# each task's own log off, so such a directory is refused.
if [ "$local" = 0 ]; then
  command -v sbatch > /dev/null || { echo "error: sbatch not found (use --local to run the parts here)" >&2; exit 2; }
  case "$dir" in
    *\\*) echo "error: --dir $dir: Slurm cannot name the task logs in a directory whose path has a backslash; give another --dir (or use --local)" >&2; exit 2 ;;
  esac
  read -r -a sbatch_argv <<< "$sbatch_args"
  line_buffered=()
  if command -v stdbuf > /dev/null; then line_buffered=(stdbuf -oL); fi
  cat > "$dir/part.sbatch.tmp" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=fifteen-split
set -eu
fifteen=$(printf %q "$fifteen")
frontier=$(printf %q "$frontier")
dir=$(printf %q "$dir")
t=\$1
exec "\$fifteen" --quiet split search "\$frontier" --threshold "\$t" --part "\$SLURM_ARRAY_TASK_ID/$parts" ${common_opts[*]:+$(printf '%q ' "${common_opts[@]}")}-o "\$dir/t\$t/part-\$SLURM_ARRAY_TASK_ID.json"
EOF
  mv "$dir/part.sbatch.tmp" "$dir/part.sbatch"
fi

total=0
printf '%10s %16s\n' threshold nodes
while :; do
  it=$dir/t$threshold
  mkdir -p "$it"
  # Every iteration's parts are added up again on every run: the part files are checked
  # whole (checksum, frontier, threshold), reduced.txt is for people and never read back.
  {
    missing=()
    for ((k = 1; k <= parts; k++)); do
      [ -s "$it/part-$k.json" ] || missing+=("$k")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
      if [ "$local" = 1 ]; then
        pids=()
        for k in "${missing[@]}"; do
          "$fifteen" --quiet split search "$frontier" --threshold "$threshold" \
            --part "$k/$parts" "${common_opts[@]}" -o "$it/part-$k.json" &
          pids+=($!)
        done
        # A part stopped by a signal sent to it alone (one sent to this script goes to the
        # trap) stops the script as that signal does, once the other parts are over;
        # any other failure is a failed part.
        failed=0 signalled=0
        for p in "${pids[@]}"; do
          rc=0
          wait "$p" || rc=$?
          case "$rc" in 0) ;; 130|143) signalled=$rc ;; *) failed=1 ;; esac
        done
        pids=()
        stopped "$signalled"
        [ "$failed" = 0 ] || { echo "error: a part of the iteration under threshold $threshold failed" >&2; exit 1; }
      else
        array=$(IFS=,; echo "${missing[*]}")
        jobid_file=$it/jobid.tmp
        rc=0
        # The job id (printed at submission, before the wait) is for the trap's scancel.
        run "${line_buffered[@]}" sbatch --parsable --wait --array="$array" \
          --output="${dir//%/%%}/slurm-%A_%a.out" "${sbatch_argv[@]}" \
          "$dir/part.sbatch" "$threshold" > "$jobid_file" || rc=$?
        rm -f -- "$jobid_file"
        jobid_file=""
        [ "$rc" = 0 ] \
          || { echo "error: the job array of the iteration under threshold $threshold failed (see $dir/slurm-*.out)" >&2; exit 1; }
      fi
    fi
    rc=0
    run "$fifteen" --quiet split reduce --threshold "$threshold" --frontier "$frontier" \
      "$it"/part-*.json > "$it/reduced.txt.tmp" || rc=$?
    if [ "$rc" != 0 ]; then
      rm -f -- "$it/reduced.txt.tmp"
      echo "error: the reducer of the iteration under threshold $threshold failed (its message is above): where it names a part file as damaged or not of this search, delete that file and run the same command again, which searches that part again; otherwise mend what it names (a full disk, say) and run the same command again" >&2
      exit 1
    fi
    read -r _ t _ nodes rest < "$it/reduced.txt.tmp"
    mv "$it/reduced.txt.tmp" "$it/reduced.txt"
  }
  if [ "$t" != "$threshold" ]; then
    echo "error: the parts in $it are of the iteration under threshold $t, not $threshold; delete $it and run the same command again" >&2
    exit 1
  fi
  total=$((total + nodes))
  printf '%10s %16s\n' "$t" "$nodes"
  set -- $rest
  if [ "$1" = solved ]; then
    moves=$5
    [ "$moves" = - ] && moves=""
    # The answer comes from files: replayed from this board to this goal, and as long as
    # the threshold every shorter one was exhausted under, before it is printed.
    rc=0
    [ "$3" = "$t" ] && run "$fifteen" --quiet check "$board" --moves "$moves" "${check_opts[@]}" > /dev/null || rc=1
    if [ "$rc" != 0 ]; then
      echo "error: the solution in $it does not check against this board (length $3, threshold $t); delete $dir and run again" >&2
      exit 1
    fi
    echo "solution: length $3"
    echo "moves $moves"
    echo "total nodes $total"
    exit 0
  fi
  threshold=$2
done
