// Installing from the ACP Registry in plain Node (src/runtime/registry/), against a server on
// 127.0.0.1: downloads bounded and hashed, redirects followed, a wrong sha256 refused leaving
// nothing, archives unpacked only inside their folder (zip-slip, links), the index cached for
// when the registry cannot be read.
import test, { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tar from 'tar';
import { archiveKind, unpack } from '../../src/runtime/registry/archive';
import { checkSha256, downloadFile } from '../../src/runtime/registry/download';
import { installAgent } from '../../src/runtime/registry/install';
import { loadRegistryIndex } from '../../src/runtime/registry/registryIndex';
import type { RegistryAgent } from '../../src/runtime/registry/registrySchema';
import { zipOf } from './helpers/archives';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'registry-unit-'));
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const routes = new Map<string, Buffer | { redirect: string }>();
let server: http.Server;
let base = '';

before(async () => {
  server = http.createServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (route && 'redirect' in route) return res.writeHead(302, { location: route.redirect }).end();
    res.writeHead(route ? 200 : 404, { 'content-length': route?.length ?? 0 }).end(route);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

async function tarGz(files: Record<string, string>, options: { preservePaths?: boolean } = {}): Promise<Buffer> {
  const dir = tmp();
  const src = path.join(dir, 'src');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(src, name)), { recursive: true });
    writeFileSync(path.join(src, name), text);
  }
  const file = path.join(dir, 'a.tar.gz');
  await tar.c({ gzip: true, file, cwd: src, preservePaths: options.preservePaths }, Object.keys(files));
  return readFileSync(file);
}

const agentWith = (archive: string, sum?: string, cmd = './bin/agent'): RegistryAgent => ({
  id: 'x-agent',
  name: 'X',
  version: '1.0.0',
  description: '',
  authors: [],
  distribution: { binary: { 'linux-x86_64': { archive, cmd, args: ['--acp'], env: { A: 'b' }, sha256: sum } } },
});

describe('downloads', () => {
  test('a redirect is followed, the body hashed; over the size limit it is refused and no file is left', async () => {
    const body = Buffer.from('x'.repeat(1000));
    routes.set('/blob', body);
    routes.set('/moved', { redirect: `${base}/blob` });
    const dir = tmp();
    const got = await downloadFile(`${base}/moved`, path.join(dir, 'a'), { maxBytes: 1000 });
    assert.deepEqual(got, { bytes: 1000, sha256: sha256(body) });
    await assert.rejects(downloadFile(`${base}/blob`, path.join(dir, 'b'), { maxBytes: 999 }), /over the limit/);
    assert.ok(!existsSync(path.join(dir, 'b')));
    await assert.rejects(downloadFile(`${base}/missing`, path.join(dir, 'c'), { maxBytes: 1000 }), /HTTP 404/);
    await assert.rejects(downloadFile('http://example.com/x', path.join(dir, 'd'), { maxBytes: 1000 }), /only https/);
  });

  test('checksum: a mismatch is refused (case does not matter), none given is accepted', () => {
    assert.throws(() => checkSha256('a'.repeat(64), 'b'.repeat(64), 'The download'), /does not match its checksum/);
    assert.doesNotThrow(() => checkSha256('A'.repeat(64), 'a'.repeat(64), 'The download'));
    assert.doesNotThrow(() => checkSha256(undefined, 'a'.repeat(64), 'The download'));
  });
});

describe('archives', () => {
  test('kinds by name; a compression it cannot unpack is refused', () => {
    assert.equal(archiveKind('https://h/a.zip'), 'zip');
    assert.equal(archiveKind('https://h/a-1.0.tar.gz?x=1'), 'tar');
    assert.equal(archiveKind('https://h/a.tgz'), 'tar');
    assert.equal(archiveKind('https://h/agent-linux'), 'raw');
    assert.throws(() => archiveKind('https://h/a.tar.bz2'), /cannot unpack/);
  });

  test('a zip with an entry that climbs out is refused, and nothing is written outside', async () => {
    const dir = tmp();
    const zip = path.join(dir, 'evil.zip');
    writeFileSync(zip, zipOf([{ name: 'ok.txt', data: 'ok' }, { name: '../evil.txt', data: 'evil' }]));
    mkdirSync(path.join(dir, 'out'));
    await assert.rejects(unpack(zip, 'zip', path.join(dir, 'out'), './ok.txt', 1e6), /relative path|outside/);
    assert.ok(!existsSync(path.join(dir, 'evil.txt')));
  });

  test('a zip holding a symbolic link is refused; a plain one unpacks', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'link.zip'), zipOf([{ name: 'bin/agent', data: '/bin/sh', mode: 0o120777 }]));
    mkdirSync(path.join(dir, 'a'));
    await assert.rejects(unpack(path.join(dir, 'link.zip'), 'zip', path.join(dir, 'a'), 'bin/agent', 1e6), /symbolic link/);
    writeFileSync(path.join(dir, 'ok.zip'), zipOf([{ name: 'bin/', data: '' }, { name: 'bin/agent', data: '#!/bin/sh\n' }]));
    mkdirSync(path.join(dir, 'b'));
    await unpack(path.join(dir, 'ok.zip'), 'zip', path.join(dir, 'b'), 'bin/agent', 1e6);
    assert.equal(readFileSync(path.join(dir, 'b', 'bin', 'agent'), 'utf8'), '#!/bin/sh\n');
  });

  test('a .tar.gz with an entry that climbs out is refused before anything is written', async () => {
    const dir = tmp();
    const inner = path.join(dir, 'inner');
    mkdirSync(inner);
    writeFileSync(path.join(dir, 'evil.txt'), 'evil');
    writeFileSync(path.join(inner, 'ok.txt'), 'ok');
    const file = path.join(dir, 'evil.tar.gz');
    await tar.c({ gzip: true, file, cwd: inner, preservePaths: true }, ['ok.txt', '../evil.txt']);
    const out = path.join(dir, 'out');
    mkdirSync(out);
    await assert.rejects(unpack(file, 'tar', out, './ok.txt', 1e6), /outside/);
    assert.deepEqual(readdirSync(out), [], 'not even the good entry');
  });

  test('an archive that unpacks larger than the limit is refused', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'big.tar.gz'), await tarGz({ 'a.txt': 'x'.repeat(5000) }));
    mkdirSync(path.join(dir, 'out'));
    await assert.rejects(unpack(path.join(dir, 'big.tar.gz'), 'tar', path.join(dir, 'out'), 'a.txt', 4000), /more than 4000 bytes/);
  });
});

describe('install', () => {
  test('a binary: downloaded, checked, unpacked into agents/<id>/<version>, its cmd executable, with the index’s args and env', async () => {
    const data = await tarGz({ 'bin/agent': '#!/bin/sh\necho hi\n' });
    routes.set('/good.tar.gz', data);
    const root = tmp();
    const installed = await installAgent(agentWith(`${base}/good.tar.gz`, sha256(data)), { root, platform: 'linux-x86_64', nodePlatform: 'linux' });
    const dir = path.join(root, 'x-agent', '1.0.0');
    assert.deepEqual(installed, { id: 'x-agent', name: 'X', version: '1.0.0', kind: 'binary', command: path.join(dir, 'bin', 'agent'), args: ['--acp'], env: { A: 'b' }, dir });
    assert.equal(statSync(installed.command).mode & 0o111, 0o111);
    assert.deepEqual(readdirSync(path.join(root, 'x-agent')), ['1.0.0'], 'no staging folder left');
  });

  test('a wrong sha256 is refused and leaves nothing; a missing cmd too', async () => {
    const data = await tarGz({ 'bin/agent': '#!/bin/sh\n' });
    routes.set('/sum.tar.gz', data);
    const root = tmp();
    await assert.rejects(installAgent(agentWith(`${base}/sum.tar.gz`, 'f'.repeat(64)), { root, platform: 'linux-x86_64' }), /does not match its checksum/);
    assert.deepEqual(readdirSync(root), []);
    await assert.rejects(installAgent(agentWith(`${base}/sum.tar.gz`, undefined, './bin/other'), { root, platform: 'linux-x86_64' }), /has no file \.\/bin\/other/);
    assert.deepEqual(readdirSync(root), []);
  });

  test('npx: nothing downloaded, the pinned command line recorded', async () => {
    const root = tmp();
    const agent: RegistryAgent = { id: 'n', name: 'N', version: '2.0.0', description: '', authors: [], distribution: { npx: { package: '@s/n', args: ['--acp'], env: {} } } };
    const installed = await installAgent(agent, { root, platform: 'linux-x86_64', nodePlatform: 'linux' });
    assert.deepEqual(installed, { id: 'n', name: 'N', version: '2.0.0', kind: 'npx', command: 'npx', args: ['-y', '@s/n@2.0.0', '--acp'], env: {} });
    assert.deepEqual(readdirSync(root), []);
  });
});

describe('the index cache', () => {
  test('the last good index is kept with its fetch time; offline it is used and says since when; another URL’s is not', async () => {
    const cache = path.join(tmp(), 'registry', 'index.json');
    routes.set('/registry.json', Buffer.from(JSON.stringify({ agents: [{ id: 'a', name: 'A', version: '1.0.0', description: 'd', distribution: { npx: { package: 'a' } } }] })));
    const fresh = await loadRegistryIndex(`${base}/registry.json`, cache);
    assert.equal(fresh.offline, undefined);
    assert.deepEqual(fresh.agents.map((a) => a.id), ['a']);
    routes.set('/registry.json', Buffer.from('<html>down for maintenance</html>'));
    const cached = await loadRegistryIndex(`${base}/registry.json`, cache);
    assert.deepEqual(cached.agents.map((a) => a.id), ['a']);
    assert.ok(cached.offline?.fetchedAt && cached.offline.fetchedAt <= Date.now());
    assert.match(cached.offline.reason, /JSON/);
    const other = await loadRegistryIndex(`${base}/other.json`, cache);
    assert.deepEqual(other.agents, []);
    assert.deepEqual(other.offline && { ...other.offline, reason: /HTTP 404/.test(other.offline.reason) }, { fetchedAt: undefined, reason: true });
  });
});
