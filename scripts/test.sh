#!/usr/bin/env bash
# Every test, in the order a failure is cheapest to find: build and package the VSIX, type-check
# and compile the tests, unit + process tests, then the real VS Code extension host (the
# installed VSIX; once more with a multi-root workspace), then Playwright on the real workbench
# and webview.
set -euo pipefail
cd "$(dirname "$0")/.."
bash test/host/setup.sh
npm run package
npm run compile
node --test out/test/unit/
npm run test:webview
npm run test:integration
npm run test:integration:multiroot
npm run test:e2e
