// A minimal stand-in for the `vscode` module, enough for activate() to run outside VS Code:
// what activation reads has plain values (settings return their defaults, one workspace
// folder, trusted); everything else is an inert object that accepts any call.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** Any property, call or `new` gives another inert value; never a thenable, never throws. */
function inert() {
  return new Proxy(function () {}, {
    get(target, prop) {
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => '';
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'prototype') return target.prototype;
      return inert();
    },
    apply: () => inert(),
    construct: () => inert(),
  });
}

const inertProto = new Proxy({}, { get: (_target, prop) => (prop === 'then' ? undefined : inert()) });

/**
 * Fills the gaps of `object` with inert values. Its prototype is inert too: esbuild's ESM interop
 * copies a module's own keys onto an object inheriting from the module's prototype.
 */
function withInert(object) {
  return new Proxy(object, {
    get: (target, prop) => (prop in target ? target[prop] : prop === 'then' ? undefined : inert()),
    getPrototypeOf: () => inertProto,
  });
}

function uri(fsPath) {
  return { scheme: 'file', fsPath, path: fsPath, with: () => uri(fsPath), toString: () => `file://${fsPath}` };
}

class EventEmitter {
  listeners = new Set();
  event = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value) {
    for (const listener of this.listeners) listener(value);
  }
  dispose() {
    this.listeners.clear();
  }
}

class Disposable {
  constructor(dispose) {
    this.dispose = dispose;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d?.dispose?.()));
  }
}

// The project's own test workspace, as if VS Code had it open.
const folder = { uri: uri(path.resolve(__dirname, '..', 'test', 'fixtures', 'workspace')), name: 'workspace', index: 0 };
const errors = [];
const memento = () => withInert({ get: (_key, fallback) => fallback, update: async () => undefined, keys: () => [] });

/**
 * The names VS Code's module exports (its classes, enums, namespaces, constants), read from its
 * typings: the stub has as many own keys as the real module, so that whatever costs per key at
 * load (a bundler's copy of a module's namespace, once per importing file) costs here too.
 */
const exported = fs.readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8').matchAll(/^\texport (?:class|enum|namespace|const|function|let|var) (\w+)/gm);

const api = withInert({
  ...Object.fromEntries([...exported].map(([, name]) => [name, inert()])),
  EventEmitter,
  Disposable,
  Uri: withInert({ file: uri, parse: (s) => uri(s.replace(/^file:\/\//, '')), joinPath: (base, ...parts) => uri(path.join(base.fsPath, ...parts)) }),
  workspace: withInert({
    workspaceFolders: [folder],
    getWorkspaceFolder: () => folder,
    isTrusted: true,
    textDocuments: [],
    getConfiguration: () => withInert({ get: (_key, fallback) => fallback, has: () => false, inspect: () => undefined, update: async () => undefined }),
  }),
  window: withInert({
    visibleTextEditors: [],
    activeTextEditor: undefined,
    showErrorMessage: async (message) => void errors.push(message),
  }),
});

function context(extensionPath, globalStoragePath) {
  return withInert({
    subscriptions: [],
    extensionPath,
    extensionUri: uri(extensionPath),
    // A workspace is open: it has storage of its own (the checkpoints are kept there).
    ...(globalStoragePath ? { globalStorageUri: uri(globalStoragePath), storageUri: uri(path.join(globalStoragePath, 'workspace')) } : {}),
    globalState: memento(),
    workspaceState: memento(),
    extensionMode: 1,
  });
}

module.exports = { api, context, errors };
