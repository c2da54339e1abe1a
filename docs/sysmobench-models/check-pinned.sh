#!/bin/sh
# Checks the task's properties (tasks/<task>/invariants.cfg) on one of these models through
# the pinned-name module in <dir>/pinned/, one property per run, as the invariants stage
# checks them (the model's .cfg without invariants, deadlock off), in a scratch folder.
#   usage: docs/sysmobench-models/check-pinned.sh dqueue-claude|locksvc-claude|locksvc-gpt5
# Run from the repository root. Nothing is written outside the scratch folder.
set -e
dir=$1
case $dir in
  dqueue-*) task=dqueue ;;
  locksvc-*) task=locksvc ;;
  *) echo "usage: $0 dqueue-claude|locksvc-claude|locksvc-gpt5" >&2; exit 2 ;;
esac
here=docs/sysmobench-models/$dir
sysmo=${SYSMO:-target/debug/sysmo}
tmp=$(mktemp -d)
# The model under another module name (only its MODULE line changes), the pinned-name module,
# and the task's invariants module beside them.
sed "1s/MODULE $task /MODULE ${task}_model /" "$here/$task.tla" > "$tmp/${task}_model.tla"
cp "$here/pinned/$task.tla" "$here/pinned/$task.cfg" "tasks/$task/${task}Invariants.tla" "$tmp/"
grep -E '^(INVARIANT|PROPERTY) ' "tasks/$task/invariants.cfg" | while read -r kind name; do
  { cat "$tmp/$task.cfg"; echo "$kind $name"; } > "$tmp/$name.cfg"
  out=$("$sysmo" check "$tmp/${task}Invariants.tla" --config "$tmp/$name.cfg" 2>&1) && rc=0 || rc=$?
  verdict=$(printf '%s\n' "$out" | grep -m1 -E '^(Error: .*(violated|Deadlock|failed|error)|Model checking completed)' || true)
  states=$(printf '%s\n' "$out" | grep -m1 -E '^[0-9]+ states generated' || true)
  echo "$name ($kind): exit $rc: ${verdict:-see output} -- $states"
done
rm -rf "$tmp"
