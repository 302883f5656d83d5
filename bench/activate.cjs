// One activation of the bundled extension (dist/extension.js, which loads dist/main.js through
// V8's code cache in the folder given as argv[2]) in this fresh process, with the stub vscode API
// of vscodeStub.cjs: prints {"require": ms, "activate": ms} as JSON. With `--save-cache` it waits
// until the loader has written the cache, as a first start that stays open does.
'use strict';
const Module = require('node:module');
const path = require('node:path');
const stub = require('./vscodeStub.cjs');

const repo = path.resolve(__dirname, '..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub.api };

const start = performance.now();
const extension = require(path.join(repo, 'dist', 'extension.js'));
const loaded = performance.now();
const context = stub.context(repo, process.argv[2]);
const api = extension.activate(context);
const activated = performance.now();
if (!api || stub.errors.length) throw new Error(`activation failed: ${stub.errors.join('; ') || 'no API returned'}`);
console.log(JSON.stringify({ require: loaded - start, activate: activated - loaded }));
// The host may have started timers or watchers: end them as VS Code would, then leave.
context.subscriptions.forEach((d) => d?.dispose?.());
if (process.argv.includes('--save-cache')) setTimeout(() => process.exit(0), 6000);
else process.exit(0);
