#!/usr/bin/env bash
# Install everything, build the VSIX and open it in a local VS Code (code-server) with the demo agent.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci
bash test/host/setup.sh
npm run package
exec node scripts/start-demo.js
