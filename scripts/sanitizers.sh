#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer, then under ThreadSanitizer, each in a build folder of
# its own (.build-asan, .build-tsan), and prints how long each took. Exits non-zero when a test
# fails or when a sanitizer reports anything, in the test process or in a process a test starts
# (the `strata` tool, StoreSaveLoop): ThreadSanitizer only warns, so its reports are looked for.
#
#   scripts/sanitizers.sh                      # both sanitizers, the whole suite
#   scripts/sanitizers.sh thread               # one sanitizer
#   scripts/sanitizers.sh address -- --filter StoreConformanceTests   # swift test's arguments after --
#
# Every report goes to a file of its own under the log folder the script names (the sanitizers'
# `log_path`), so that a report printed by a child process is counted too; the script prints them
# at the end.
set -uo pipefail
cd "$(dirname "$0")/.."

sanitizers=()
while [ $# -gt 0 ]; do
  case "$1" in
    address | thread) sanitizers+=("$1"); shift ;;
    --) shift; break ;;
    *) echo "usage: $0 [address] [thread] [-- swift test arguments]" >&2; exit 64 ;;
  esac
done
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address thread)

asanOptions=${ASAN_OPTIONS:-}
tsanOptions=${TSAN_OPTIONS:-}
lsanOptions=${LSAN_OPTIONS:-}
logs=$(mktemp -d "${TMPDIR:-/tmp}/strata-sanitizers.XXXXXX")
failed=0
summary=()

for sanitizer in "${sanitizers[@]}"; do
  case "$sanitizer" in
    address) scratch=.build-asan; reportPattern='ERROR: (AddressSanitizer|LeakSanitizer)' ;;
    thread) scratch=.build-tsan; reportPattern='WARNING: ThreadSanitizer|ERROR: ThreadSanitizer' ;;
  esac
  reports="$logs/$sanitizer-reports"
  output="$logs/$sanitizer.log"
  mkdir -p "$reports"
  # log_path: one file per process that reports (report.<pid>). Leak checking stays on (the
  # default on Linux): a test process or child that exits normally must free what it allocated
  # or keep it reachable; scripts/lsan.supp names the toolchain libraries whose leaks are not ours.
  export ASAN_OPTIONS="log_path=$reports/report:$asanOptions"
  export TSAN_OPTIONS="log_path=$reports/report:$tsanOptions"
  export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:$lsanOptions"

  echo "== $sanitizer sanitizer: building into $scratch"
  start=$(date +%s)
  swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 | tee "$output"
  buildStatus=${PIPESTATUS[0]}
  built=$(date +%s)
  testStatus=1
  if [ "$buildStatus" -eq 0 ]; then
    echo "== $sanitizer sanitizer: testing"
    swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "$@" 2>&1 | tee -a "$output"
    testStatus=${PIPESTATUS[0]}
  fi
  end=$(date +%s)

  count=$(cat "$output" "$reports"/* 2>/dev/null | grep -cE "$reportPattern")
  line="$sanitizer: build $((built - start)) s, tests $((end - built)) s, build status $buildStatus, test status $testStatus, $count report(s)"
  summary+=("$line")
  if [ "$buildStatus" -ne 0 ] || [ "$testStatus" -ne 0 ] || [ "$count" -ne 0 ]; then failed=1; fi
  if [ "$count" -ne 0 ]; then
    echo "== $sanitizer sanitizer reports (first 400 lines; all in $reports):"
    cat "$reports"/* 2>/dev/null | head -400
  fi
done

echo "== sanitizers (logs in $logs)"
printf '%s\n' "${summary[@]}"
exit "$failed"
