// One cold activation of the bundled extension (dist/extension.js) in this fresh process, with
// the stub vscode API of vscodeStub.cjs: prints {"require": ms, "activate": ms} as JSON.
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
const context = stub.context(repo);
const api = extension.activate(context);
const activated = performance.now();
if (!api || stub.errors.length) throw new Error(`activation failed: ${stub.errors.join('; ') || 'no API returned'}`);
console.log(JSON.stringify({ require: loaded - start, activate: activated - loaded }));
// The host may have started timers or watchers: end them as VS Code would, then leave.
context.subscriptions.forEach((d) => d?.dispose?.());
process.exit(0);
