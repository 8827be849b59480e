#!/usr/bin/env bash
# Writes Swift classes with `strata codegen --all-entities` for every model among the test
# fixtures (each .xcdatamodeld, and each .xcdatamodel outside one) and type-checks each model's
# files as a module of its own against the Strata modules `swift build` made. Fails on the first
# model whose classes cannot be written or do not compile; pre-Xcode-4 models, which Strata does
# not read, are skipped. Then checks that the classes the conformance suite compiles
# (Tests/StoreConformanceTests/GeneratedMoody) are what the command writes today. Run after `swift build` (or `swift test`).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(swift build --show-bin-path)
[ -x "$bin/strata" ] || swift build --product strata
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

models=()
while IFS= read -r -d '' model; do models+=("$model"); done < <(
  find Tests/StrataModelFilesTests/Fixtures Tests/StoreConformanceTests/Resources \
    \( -name '*.xcdatamodeld' -o \( -name '*.xcdatamodel' -not -path '*.xcdatamodeld/*' \) \) -print0 | sort -z)

checked=0 skipped=0
for model in "${models[@]}"; do
  out="$work/$checked"
  if ! "$bin/strata" codegen "$model" --output "$out" --all-entities --quiet 2>"$work/error"; then
    # Pre-Xcode-4 models (a binary `elements` file) are refused by every reader of Strata's.
    if grep -q "pre-Xcode-4 model" "$work/error"; then skipped=$((skipped + 1)); continue; fi
    cat "$work/error" >&2
    exit 1
  fi
  if ! swiftc -typecheck -swift-version 6 -module-name "Generated$checked" -I "$bin/Modules" \
      -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap \
      -Xcc -fmodule-map-file=Sources/CLibXML2/module.modulemap -Xcc -I/usr/include/libxml2 "$out"/*.swift; then
    echo "codegen-check: the classes of $model do not compile" >&2
    exit 1
  fi
  checked=$((checked + 1))
done
# The generated classes the conformance suite uses must be what the command writes today.
"$bin/strata" codegen Tests/StoreConformanceTests/Resources/Moody.xcdatamodeld --output "$work/moody" --all-entities --quiet
if ! diff -r "$work/moody" Tests/StoreConformanceTests/GeneratedMoody; then
  echo "codegen-check: Tests/StoreConformanceTests/GeneratedMoody is out of date; regenerate it with" >&2
  echo "  strata codegen Tests/StoreConformanceTests/Resources/Moody.xcdatamodeld --output Tests/StoreConformanceTests/GeneratedMoody --all-entities" >&2
  exit 1
fi
echo "codegen-check: the classes of $checked models compile ($skipped pre-Xcode-4 models skipped)"
