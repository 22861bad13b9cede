# Sourced by the one-call device scripts (short_tiles_ab.sh, walk_periodic_ab.sh) after they set
# ST (" stage stage ... ") and S (the summary file):
#   has STAGE        whether STAGE was asked for
#   say TEXT...      a line to the summary and stdout
#   t NAME SECONDS COMMAND...   run COMMAND under a timeout, logged to $OUT/NAME.log, with one summary
#                    line: its status, seconds, and the log's last lines matching $T_GREP
#   verified NAME    a summary line: the CLI bench records in $OUT/NAME.log verified and not
#   $CS              compute-sanitizer (on the PATH or CUDA's default place)
has() { case $ST in *" $1 "*) return 0 ;; esac; return 1; }
say() { echo "$*" | tee -a "$S"; }
t() {
  local n=$1 s=$2 t0; shift 2; t0=$(date +%s)
  timeout "$s" "$@" >"$OUT/$n.log" 2>&1
  say "$n: rc=$? in $(( $(date +%s) - t0 ))s: $(grep -hE "${T_GREP:-checks passed|ERROR SUMMARY|RACECHECK SUMMARY}" "$OUT/$n.log" | tail -${T_LINES:-2} | tr '\n' ' ')"
}
verified() { say "  $1 records verified: $(grep -c ' yes$' "$OUT/$1.log"), not: $(grep -c ' no$' "$OUT/$1.log")"; }
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
