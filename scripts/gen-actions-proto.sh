#!/bin/sh
# Regenerates src/lib/actions-proto/ from proto/ (Gitea's actions-proto-def messages) with
# protoc-gen-es; the generated .ts files are committed so builds need no protobuf tooling.
set -eu
cd "$(dirname "$0")/.."
rm -rf src/lib/actions-proto
npx buf generate proto --template '{
  "version": "v2",
  "plugins": [{
    "local": "node_modules/.bin/protoc-gen-es",
    "out": "src/lib/actions-proto",
    "opt": ["target=ts"]
  }]
}'
