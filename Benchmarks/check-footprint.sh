#!/bin/sh
# Builds FootprintBenchmarks in release mode and runs it: exits non-zero when a footprint figure
# (an object ID's size, a fetched object's heap block, the heap held per fetched object, the peak
# of iterating many rows) is over its threshold in Sources/FootprintBenchmarks/Thresholds.swift.
# Arguments are passed on: check-footprint.sh [--rows N] [--iterate-rows N] [--keep]
set -eu
cd "$(dirname "$0")"
swift build -c release --scratch-path .build --product FootprintBenchmarks
exec .build/release/FootprintBenchmarks "$@"
