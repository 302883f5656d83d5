// The restore plan of a checkpoint or an Undo: which files are written, re-created, removed,
// skipped as unknown, refused as leading outside the workspace, and flagged as protected; and the
// placement of each file (symlinks followed once, on a temp folder) and the seed listing that
// decides whether a file reported created was absent before.
import test, { afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { placeForRestore, protectedGlobOf } from '../../src/host/checkpoints/restorePlacement';
import { SeedListing } from '../../src/host/editor/review/seedListing';
import { ABSENT, UNKNOWN, chosenChanges, describeRestore, earlierOf, planRestore, restoreChoices } from '../../src/session/restorePlan';
import type { Placement, RestoreCandidate } from '../../src/session/restorePlan';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'acp-restore-')));
  dirs.push(dir);
  return dir;
}

const inside = (real: string, protectedBy?: string): Placement => ({ ok: true, real, protectedBy });
const name = (p: string) => p.replace('/w/', '');

test('a plan writes, re-creates and removes only files with a known earlier state; unknown ones are skipped, never removed', () => {
  const candidates: RestoreCandidate[] = [
    { path: '/w/modified.ts', earlier: { kind: 'text', text: 'old' }, placement: inside('/w/modified.ts'), now: 'new' },
    { path: '/w/deleted.ts', earlier: { kind: 'text', text: 'keep me' }, placement: inside('/w/deleted.ts'), now: null },
    { path: '/w/created.ts', earlier: ABSENT, placement: inside('/w/created.ts'), now: 'by the agent' },
    { path: '/w/unseen.ts', earlier: UNKNOWN, placement: inside('/w/unseen.ts'), now: 'existed before the review saw it' },
    { path: '/w/same.ts', earlier: { kind: 'text', text: 'same' }, placement: inside('/w/same.ts'), now: 'same' },
    { path: '/w/gone.ts', earlier: ABSENT, placement: inside('/w/gone.ts'), now: null },
  ];
  const plan = planRestore(candidates);
  assert.deepEqual(
    plan.changes.map((c) => [c.path, c.action, c.text]),
    [
      ['/w/modified.ts', 'restored', 'old'],
      ['/w/deleted.ts', 're-created', 'keep me'],
      ['/w/created.ts', 'removed', null],
    ],
  );
  assert.deepEqual(plan.unknown, ['/w/unseen.ts']);
  assert.deepEqual(plan.refused, []);
  assert.match(describeRestore(plan, name), /Earlier state unknown.*left as it is:\nunseen\.ts/s);
});

test('a file that leads outside the workspace is refused, and a change goes to the real path it was placed at', () => {
  const plan = planRestore([
    { path: '/w/a.ts', earlier: { kind: 'text', text: 'a' }, placement: { ok: false, reason: 'not restored: it leads outside the workspace folders (to /home/u/.bashrc)' }, now: 'x' },
    { path: '/w/link.ts', earlier: { kind: 'text', text: 'b' }, placement: inside('/w/real.ts'), now: 'x' },
  ]);
  assert.deepEqual(plan.refused, [{ path: '/w/a.ts', reason: 'not restored: it leads outside the workspace folders (to /home/u/.bashrc)' }]);
  assert.deepEqual(plan.changes.map((c) => [c.path, c.real]), [['/w/link.ts', '/w/real.ts']]);
  assert.match(describeRestore(plan, name), /Not touched:\na\.ts: not restored: it leads outside/);
});

test('protected files are flagged and named in their own choice; the other choice leaves them out', () => {
  const plan = planRestore([
    { path: '/w/.git/hooks/pre-commit', earlier: { kind: 'text', text: 'hook' }, placement: inside('/w/.git/hooks/pre-commit', '**/.git/**'), now: 'evil' },
    { path: '/w/src/a.ts', earlier: { kind: 'text', text: 'a' }, placement: inside('/w/src/a.ts'), now: 'b' },
  ]);
  const choices = restoreChoices(plan, 'Restore', name);
  assert.deepEqual(choices, [
    { label: 'Restore, including .git/hooks/pre-commit', includeProtected: true },
    { label: 'Restore all but protected files', includeProtected: false },
  ]);
  assert.deepEqual(chosenChanges(plan, false).map((c) => c.path), ['/w/src/a.ts']);
  assert.deepEqual(chosenChanges(plan, true).map((c) => c.path), ['/w/.git/hooks/pre-commit', '/w/src/a.ts']);
  assert.match(describeRestore(plan, name), /Protected, changed only if you choose so:\n\.git\/hooks\/pre-commit: restored \(protected: \*\*\/\.git\/\*\*\)/);
  // Nothing else to restore: only the choice that names them.
  const onlyProtected = planRestore([{ path: '/w/.env', earlier: { kind: 'text', text: 'A=1' }, placement: inside('/w/.env', '**/.env*'), now: 'A=2' }]);
  assert.deepEqual(restoreChoices(onlyProtected, 'Undo', name).map((c) => c.label), ['Undo, including .env']);
  assert.deepEqual(restoreChoices(planRestore([]), 'Restore', name), [{ label: 'Restore', includeProtected: false }]);
});

test('a state read from disk becomes an earlier state: unreadable is unknown, missing is absent', () => {
  assert.deepEqual(earlierOf(undefined), UNKNOWN);
  assert.deepEqual(earlierOf(null), ABSENT);
  assert.deepEqual(earlierOf(''), { kind: 'text', text: '' });
});

test('placement: a symlink planted after the change, or a parent folder swapped for one, that leads outside is refused', async () => {
  const root = tempDir();
  const outside = tempDir();
  writeFileSync(path.join(outside, '.bashrc'), 'user’s own\n');
  mkdirSync(path.join(root, 'src'));
  symlinkSync(path.join(outside, '.bashrc'), path.join(root, 'src', 'a.ts'));
  symlinkSync(outside, path.join(root, 'swapped'));
  symlinkSync(path.join(outside, 'nothing-here'), path.join(root, 'dangling.ts'));
  const none = protectedGlobOf(() => []);

  const link = await placeForRestore(path.join(root, 'src', 'a.ts'), [root], none);
  assert.equal(link.ok, false);
  assert.match(!link.ok ? link.reason : '', /outside the workspace folders/);
  // A file to re-create under a parent that is now a link out.
  const recreate = await placeForRestore(path.join(root, 'swapped', 'deleted.ts'), [root], none);
  assert.equal(recreate.ok, false);
  // A dangling link would create its target, wherever it is.
  const dangling = await placeForRestore(path.join(root, 'dangling.ts'), [root], none);
  assert.match(!dangling.ok ? dangling.reason : '', /symlink whose target does not exist/);
  // Inside, as named or through a link that stays inside: placed at the real path.
  writeFileSync(path.join(root, 'src', 'real.ts'), 'x');
  symlinkSync(path.join(root, 'src', 'real.ts'), path.join(root, 'src', 'alias.ts'));
  assert.deepEqual(await placeForRestore(path.join(root, 'src', 'alias.ts'), [root], none), { ok: true, real: path.join(root, 'src', 'real.ts'), protectedBy: undefined });
  assert.deepEqual(await placeForRestore(path.join(root, 'src', 'new', 'b.ts'), [root], none), { ok: true, real: path.join(root, 'src', 'new', 'b.ts'), protectedBy: undefined });
  // A workspace opened through a link keeps its name (VS Code's documents are named so).
  const opened = path.join(tempDir(), 'opened');
  symlinkSync(root, opened);
  assert.deepEqual(await placeForRestore(path.join(opened, 'src', 'alias.ts'), [opened], none), { ok: true, real: path.join(opened, 'src', 'real.ts'), protectedBy: undefined });
});

test('placement: protected as named, as resolved, or by the user’s own protected paths', async () => {
  const root = tempDir();
  mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
  mkdirSync(path.join(root, 'src'));
  symlinkSync(path.join(root, '.git', 'hooks', 'pre-commit'), path.join(root, 'src', 'notes.txt'));
  const glob = protectedGlobOf(() => ['secrets/**']);
  const protectedBy = async (rel: string) => {
    const placed = await placeForRestore(path.join(root, rel), [root], glob);
    return placed.ok ? placed.protectedBy : placed.reason;
  };
  assert.equal(await protectedBy('.git/hooks/pre-commit'), '**/.git/**');
  assert.equal(await protectedBy('src/notes.txt'), '**/.git/**', 'a link inside the workspace to a hook is the hook');
  assert.equal(await protectedBy('secrets/key.txt'), 'secrets/**');
  assert.equal(await protectedBy('src/plain.ts'), undefined);
});

test('seed listing: a file reported created was absent only if a complete listing would have found it', () => {
  const listing = new SeedListing(['/w'], new Set(['/w/listed.ts']), true, ['**/node_modules/**', '**/dist', '**/Thumbs.db']);
  assert.equal(listing.absent('/w/new.ts'), true);
  assert.equal(listing.absent('/w/listed.ts'), false, 'it existed');
  assert.equal(listing.absent('/w/dist/bundle.js'), false, 'an excluded folder was not searched');
  assert.equal(listing.absent('/w/pics/Thumbs.db'), false, 'an excluded file was not listed');
  assert.equal(listing.absent('/elsewhere/x.ts'), false, 'outside the folders searched');
  const truncated = new SeedListing(['/w'], new Set(['/w/listed.ts']), false, []);
  assert.equal(truncated.absent('/w/new.ts'), false, 'a listing cut short proves nothing');
});
