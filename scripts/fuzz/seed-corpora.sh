#!/usr/bin/env bash
# Writes the fuzz seed corpora that are copies of service fixtures, so no seed file is kept
# twice in git: fuzz/corpus/mime_email/ gets digest-web's edge-case messages
# (services/digest-web/fixtures/edge/*.eml) and three messages of its sample Maildir.
# The generated folders are git-ignored (fuzz/.gitignore); scripts/fuzz/run.sh runs this before
# fuzzing. The ingredients and ocr_image seeds stay committed under fuzz/corpus/: no service
# fixture holds the same files.
set -euo pipefail
cd "$(dirname "$0")/../.."
digest=services/digest-web

out=fuzz/corpus/mime_email
rm -rf "$out"
mkdir -p "$out"
cp "$digest"/fixtures/edge/*.eml "$out"/
for id in 1763200001 1763200002 1763200003; do
  cp "$digest"/sample-mailbox/cur/"$id".* "$out/sample-$id.eml"
done
echo "seeded $out: $(find "$out" -type f | wc -l) files" >&2
