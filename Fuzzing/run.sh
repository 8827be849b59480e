#!/usr/bin/env bash
# Builds Strata's libFuzzer targets and runs each for a set time.
#
#     Fuzzing/run.sh [SECONDS] [TARGET...]
#
# SECONDS (default 60) is the time each target fuzzes; TARGETs (default: all) are the names of
# the executable targets in Fuzzing/Package.swift. Each target's corpus is seeded, at run time,
# from the repository's and the shared fixtures' real files and from seeds the target writes
# itself (Fuzzing/corpus/seeds/TARGET, remade every run); what it learns is kept in
# Fuzzing/corpus/TARGET. A crash, a timeout (a hang: one input running 10 s) or an out-of-memory
# (2 GB) is written to Fuzzing/findings/TARGET/ and the target fuzzes on for the rest of its
# time. Logs go to Fuzzing/logs/TARGET.log. Ends with one line per target: executions, exec/s,
# coverage, corpus units added and findings. Exits 1 when a target has findings.
#
# Needs the Swift toolchain's libFuzzer (libclang_rt.fuzzer) and, to seed the compiled-model
# target, sqlite3 and python3 (skipped when absent). See docs/fuzzing.md.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
fixtures=${STRATA_FIXTURES:-$root/../shared/fixtures}
seconds=${1:-60}
shift || true
all_targets=(FuzzXMLStore FuzzBinaryStore FuzzModelFile FuzzCompiledModel FuzzPredicate FuzzJSONImport)
[[ $# -gt 0 ]] && targets=("$@") || targets=("${all_targets[@]}")

build=(swift build -c release --package-path "$here" --scratch-path "$here/.build"
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
echo "building: ${build[*]}" >&2
"${build[@]}" >&2
bin=$("${build[@]}" --show-bin-path)

mkdir -p "$here/logs"
# Leak checks are off: Swift's runtime and Foundation keep allocations for the life of the
# process (metadata, caches) that LeakSanitizer reports at exit. Set ASAN_OPTIONS to override.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
# Swift's own crash backtracer would run after a trap and trip the address sanitizer itself.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
# Copies every file under the given roots whose path matches the pattern (find -path) into a
# seed folder, named by a digest of its path so that same-named files do not collide.
copy_seeds() {
    local into=$1 pattern=$2; shift 2
    local dir file
    for dir in "$@"; do
        [[ -d $dir ]] || continue
        while IFS= read -r -d '' file; do
            cp "$file" "$into/$(printf '%s' "$file" | cksum | cut -d' ' -f1)-$(basename "$file" | tr ' ' '_')"
        done < <(find "$dir" -path "$root/.build" -prune -o -path "$here" -prune -o -type f -path "$pattern" -print0)
    done
}

# Writes the seed corpus of target $1 into folder $2.
seed() {
    local target=$1 into=$2
    case $target in
    FuzzXMLStore)
        STRATA_FUZZ_WRITE_SEEDS=$into "$bin/$target" >/dev/null
        copy_seeds "$into" "*/school.xml" "$root/Samples"
        # A mapping model's xcmapping.xml is a Core Data XML store.
        copy_seeds "$into" "*.xcmappingmodel/xcmapping.xml" "$root/Tests" "$fixtures"
        ;;
    FuzzBinaryStore)
        STRATA_FUZZ_WRITE_SEEDS=$into "$bin/$target" >/dev/null
        ;;
    FuzzModelFile)
        copy_seeds "$into" "*.xcdatamodel/contents" "$root/Samples" "$root/Tests" "$fixtures"
        copy_seeds "$into" "*/phimage__MomXML/Tests/model*.xml" "$root/Tests" "$fixtures"
        ;;
    FuzzCompiledModel)
        # Z_MODELCACHE of every SQLite store Apple's Core Data wrote, raw and inflated.
        if command -v sqlite3 >/dev/null; then
            local store n=0
            while IFS= read -r -d '' store; do
                n=$((n + 1))
                sqlite3 -readonly "file:$store?immutable=1" \
                    "SELECT writefile('$into/cache-$n.bin', Z_CONTENT) FROM Z_MODELCACHE" >/dev/null 2>&1 || true
            done < <(find "$root/Tests" "$fixtures" -name '*.sqlite' -print0 2>/dev/null)
            if command -v python3 >/dev/null; then
                python3 - "$into" <<'PY'
import glob, os, sys, zlib
for path in glob.glob(os.path.join(sys.argv[1], "cache-*.bin")):
    try:
        data = zlib.decompress(open(path, "rb").read(), -15)
    except zlib.error:
        continue
    open(path.replace("cache-", "archive-"), "wb").write(data)
PY
            fi
        fi
        ;;
    FuzzPredicate)
        # The format strings of the tests, and the stored predicates of the fixtures' models.
        local n=0 line
        while IFS= read -r line; do
            n=$((n + 1)); printf '%s' "$line" > "$into/test-$n.txt"
        done < <(grep -rhoE 'ObjectPredicate\(format: "([^"\\]|\\.)*"' "$root/Tests" "$root/Sources" \
                     | sed -E 's/^ObjectPredicate\(format: "//; s/"$//; s/\\"/"/g; s/\\\\/\\/g' | sort -u)
        while IFS= read -r line; do
            n=$((n + 1)); printf '%s' "$line" > "$into/model-$n.txt"
        done < <(grep -rhoE 'predicateString="[^"]*"' "$root/Tests" "$fixtures" 2>/dev/null \
                     | sed -E 's/^predicateString="//; s/"$//; s/&quot;/"/g; s/&lt;/</g; s/&gt;/>/g; s/&apos;/'"'"'/g; s/&amp;/\&/g' | sort -u)
        ;;
    FuzzJSONImport)
        STRATA_FUZZ_WRITE_SEEDS=$into "$bin/$target" >/dev/null
        copy_seeds "$into" "*/school.json" "$root/Samples"
        ;;
    esac
}

# The value of libFuzzer's final statistic $2 in log $1 (0 when absent).
stat() { grep -oE "^stat::$2: *[0-9]+" "$1" | tail -1 | grep -oE '[0-9]+$' || echo 0; }

summary=()
status=0
for target in "${targets[@]}"; do
    corpus=$here/corpus/$target
    seeds=$here/corpus/seeds/$target
    findings=$here/findings/$target
    log=$here/logs/$target.log
    rm -rf "$seeds"
    mkdir -p "$corpus" "$seeds" "$findings"
    seed "$target" "$seeds"
    echo "$target: $(ls "$seeds" | wc -l) seeds, fuzzing ${seconds}s" >&2
    : > "$log"
    executions=0 added=0 coverage=0 started=$(date +%s) restarts=0
    # libFuzzer stops at its first finding: start it again until the time is spent.
    while remaining=$((seconds - ($(date +%s) - started))); ((remaining > 0 && restarts < 20)); do
        part=$here/logs/$target.part
        "$bin/$target" \
            -max_total_time="$remaining" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" "$seeds" > "$part" 2>&1 || true
        cat "$part" >> "$log"
        executions=$((executions + $(stat "$part" number_of_executed_units)))
        added=$((added + $(stat "$part" new_units_added)))
        cov=$(grep -oE 'cov: [0-9]+' "$part" | tail -1 | grep -oE '[0-9]+' || echo 0)
        ((cov > coverage)) && coverage=$cov
        restarts=$((restarts + 1))
        rm -f "$part"
    done
    elapsed=$(( $(date +%s) - started ))
    found=$(find "$findings" -type f | wc -l)
    ((found > 0)) && status=1
    summary+=("$(printf '%-18s %10d execs %7d exec/s  cov %5d  +%d units  %d findings' \
        "$target" "$executions" $((executions / (elapsed > 0 ? elapsed : 1))) "$coverage" "$added" "$found")")
done
printf '%s\n' "${summary[@]}"
for target in "${targets[@]}"; do
    find "$here/findings/$target" -type f -printf "finding: %p\n"
done
exit $status
