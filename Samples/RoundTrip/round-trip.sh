#!/usr/bin/env bash
# The Strata round trip: the sample store (school.xml, model School.xcdatamodeld) converted
# through every store format (XML → binary → SQLite → XML), inspected at each step, exported from each copy;
# the exports must be identical byte for byte.
set -euo pipefail
cd "$(dirname "$0")/../.."

swift build --product strata >&2
STRATA="$(swift build --show-bin-path)/strata"
MODEL=Samples/RoundTrip/School.xcdatamodeld
SOURCE=Samples/RoundTrip/school.xml
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

step() { printf '\n== %s\n' "$*"; }

step "strata inspect $SOURCE"
"$STRATA" inspect "$SOURCE" --model "$MODEL"
"$STRATA" export "$SOURCE" --model "$MODEL" --output "$WORK/from-xml.json"

step "strata convert-store $SOURCE school.binary"
"$STRATA" convert-store "$SOURCE" "$WORK/school.binary" --model "$MODEL"
"$STRATA" inspect "$WORK/school.binary" --model "$MODEL"
"$STRATA" export "$WORK/school.binary" --model "$MODEL" --output "$WORK/from-binary.json"

step "strata convert-store school.binary school.sqlite"
"$STRATA" convert-store "$WORK/school.binary" "$WORK/school.sqlite" --model "$MODEL"
"$STRATA" inspect "$WORK/school.sqlite" --model "$MODEL"
"$STRATA" export "$WORK/school.sqlite" --model "$MODEL" --output "$WORK/from-sqlite.json"

step "strata convert-store school.sqlite school.xml"
"$STRATA" convert-store "$WORK/school.sqlite" "$WORK/school.xml" --model "$MODEL"
"$STRATA" inspect "$WORK/school.xml" --model "$MODEL"
"$STRATA" export "$WORK/school.xml" --model "$MODEL" --output "$WORK/from-xml-again.json"

step "strata import Samples/RoundTrip/school.json school-imported.binary"
"$STRATA" import Samples/RoundTrip/school.json "$WORK/school-imported.binary" --model "$MODEL"
"$STRATA" export "$WORK/school-imported.binary" --model "$MODEL" --output "$WORK/from-import.json"

step "exports compared"
# Same format: the whole document is identical.
cmp "$WORK/from-xml.json" "$WORK/from-xml-again.json"
# Across formats only the store type differs (in "store" and its NSStoreType); the objects,
# with their refs and primary keys, are identical byte for byte.
objects() { sed -n '/"objects"/,$p' "$1"; }
cmp <(objects "$WORK/from-xml.json") <(objects "$WORK/from-binary.json")
cmp <(objects "$WORK/from-xml.json") <(objects "$WORK/from-sqlite.json")
cmp <(objects "$WORK/from-xml.json") <(objects "$WORK/from-import.json")
echo "the exports of every copy hold identical objects, primary keys and store UUID"

step "strata query $SOURCE --entity Student --predicate \"year >= 11\" --sort -year"
"$STRATA" query "$SOURCE" --model "$MODEL" --entity Student --predicate "year >= 11" --sort=-year

step "strata validate $SOURCE"
"$STRATA" validate "$SOURCE" --model "$MODEL"
