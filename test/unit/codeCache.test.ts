import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';

// src/boot/codeCache.ts: the extension's bundle loaded as `require` would, through V8's code cache.
// Each load runs in a fresh Node process, as each start of an extension host is: within one
// process V8 keeps compiled scripts in memory and would not consult the cache at all.

interface Result {
  exports: Record<string, unknown>;
  cached: boolean;
}

/** Loads `file` in a fresh process with a `require` of its folder; one that saves waits for the save. */
function load(file: string, cacheDir: string, saveAfterMs: number): Result {
  const script = `
    const { createRequire } = require('node:module');
    const { loadWithCodeCache } = require(${JSON.stringify(require.resolve('../../src/boot/codeCache'))});
    const result = loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, createRequire(${JSON.stringify(file)}), ${saveAfterMs});
    console.log(JSON.stringify(result));
    setTimeout(() => {}, ${saveAfterMs} + 200);`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Result;
}

function folder(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-code-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A bundle-like module: it sees the CommonJS wrapper's arguments and requires a neighbour relative
 * to itself (the loader passes its own `require`, which sits in the bundle's folder, dist/).
 */
function writeBundle(dir: string, answer: number): string {
  writeFileSync(path.join(dir, 'neighbour.js'), 'module.exports = { name: "neighbour" };');
  const file = path.join(dir, 'main.js');
  writeFileSync(file, `exports.answer = ${answer}; exports.where = [__filename, __dirname]; exports.neighbour = require('./neighbour.js').name; module.exports.self = module.exports === exports;`);
  return file;
}

test('loads a module as require would: its exports, __filename, __dirname and a require relative to it', (t) => {
  const dir = folder(t);
  const file = writeBundle(dir, 41);
  const { exports, cached } = load(file, path.join(dir, 'cache'), 60_000);
  assert.deepEqual(exports, { answer: 41, where: [file, dir], neighbour: 'neighbour', self: true });
  assert.equal(cached, false, 'nothing to take from a cache yet');
});

test('the first load writes the cache; the next takes its bytecode from it', (t) => {
  const dir = folder(t);
  const file = writeBundle(dir, 1);
  const cacheDir = path.join(dir, 'cache');
  assert.equal(load(file, cacheDir, 0).cached, false);
  assert.equal(readdirSync(cacheDir).filter((f) => f.endsWith('.cache')).length, 1, 'one cache file');
  const again = load(file, cacheDir, 0);
  assert.equal(again.cached, true);
  assert.equal(again.exports.answer, 1);
});

test("another build of the same length never gets this build's bytecode, and its cache replaces the old one", (t) => {
  const dir = folder(t);
  const file = writeBundle(dir, 1);
  const cacheDir = path.join(dir, 'cache');
  load(file, cacheDir, 0);
  const [first] = readdirSync(cacheDir);
  writeBundle(dir, 2); // the same length, other text
  const rebuilt = load(file, cacheDir, 0);
  assert.equal(rebuilt.cached, false);
  assert.equal(rebuilt.exports.answer, 2);
  const files = readdirSync(cacheDir);
  assert.equal(files.length, 1, 'only the current build is kept');
  assert.notEqual(files[0], first);
});

test('a damaged cache is rejected by V8, the module still loads, and the cache is written again', (t) => {
  const dir = folder(t);
  const file = writeBundle(dir, 7);
  const cacheDir = path.join(dir, 'cache');
  load(file, cacheDir, 0);
  const [name] = readdirSync(cacheDir);
  writeFileSync(path.join(cacheDir, name), Buffer.from('not bytecode at all, but long enough to look like something'));
  const damaged = load(file, cacheDir, 0);
  assert.equal(damaged.cached, false);
  assert.equal(damaged.exports.answer, 7);
  assert.equal(load(file, cacheDir, 0).cached, true, 'written again, and taken');
});

test('a cache folder that cannot be written costs nothing but the cache', (t) => {
  const dir = folder(t);
  const file = writeBundle(dir, 3);
  const blocked = path.join(dir, 'a-file');
  writeFileSync(blocked, 'not a folder');
  assert.equal(load(file, path.join(blocked, 'cache'), 0).exports.answer, 3);
  assert.equal(load(file, path.join(blocked, 'cache'), 0).cached, false);
});
