// A path is judged in every form it has (src/workspace/policyPaths.ts, src/runtime/resolvedPath.ts)
// and the form judged is the form used (src/session/policyGate.ts): the order of a workspace's
// folders cannot switch protection off, an allow cannot open a protected target, and a path that
// cannot be resolved is refused, never served. On a real file system, through the real gate.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PolicyGate } from '../../src/session/policyGate';
import { Transcript } from '../../src/session/transcript';
import { RuleSet } from '../../src/policy/rules';
import type { Rule, SourcedRule } from '../../src/policy/rules';
import type { PolicyPort } from '../../src/runtime/ports';
import type { ResolvedPath } from '../../src/runtime/resolvedPath';
import type { ToolEntry } from '../../src/session/model';
import type { NewAuditEvent } from '../../src/audit/auditEvent';
import { ErrorCodes, RpcError } from '../../src/protocol/errors';
import { pathForms } from '../../src/workspace/policyPaths';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A fresh folder (its real path) with `files` in it, and what is left of it removed after the test. */
function tree(t: { after: (fn: () => void) => void }, files: string[]): string {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-forms-')));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
    fs.writeFileSync(path.join(base, file), '');
  }
  return base;
}

function gateOver(roots: string[], { settings = [] as SourcedRule[], port = true } = {}) {
  const transcript = new Transcript();
  const workspace: SourcedRule[] = [];
  const events: NewAuditEvent[] = [];
  const policy: PolicyPort = {
    layers: () => ({ settings: new RuleSet(settings), workspace: [...workspace], protectedPaths: [], autoApprove: 'off' }),
    rememberForWorkspace: (rule: Rule) => void workspace.push({ ...rule, source: 'workspace' }),
  };
  const gate = new PolicyGate(port ? policy : undefined, transcript, 'Fake', silent, () => roots, (e) => void events.push(e));
  const served: string[] = [];
  const serve = async (_request: unknown, target: ResolvedPath) => void served.push(target.real);
  const write = (file: string) => gate.writeTextFile({ sessionId: 's', path: file, content: 'x' }, serve);
  const read = (file: string) => gate.readTextFile({ sessionId: 's', path: file }, async (r, target) => (await serve(r, target), 'text'));
  return { gate, transcript, served, write, read, events, workspace };
}

async function card(transcript: Transcript): Promise<ToolEntry | undefined> {
  for (let i = 0; i < 400; i++) {
    const found = transcript.entries.findLast((e): e is ToolEntry => e.kind === 'tool' && e.permission !== undefined);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return undefined;
}

/** Writes `file`; a card that asks is denied. Returns the card's text, or undefined when the write went through unasked. */
async function asked(over: ReturnType<typeof gateOver>, file: string): Promise<string | undefined> {
  const pending = over.write(file);
  const outcome = await Promise.race([pending.then(() => 'served' as const), card(over.transcript)]);
  if (outcome === 'served' || outcome === undefined) return undefined;
  over.transcript.questions.answerPermission(outcome.toolCallId, 'acp-host:deny');
  await assert.rejects(pending, /the user denied it/);
  return outcome.policyNote;
}

test('a workspace whose first folder is .git cannot make .git/hooks/pre-commit an ordinary file', async (t) => {
  const repo = tree(t, ['.git/hooks/pre-commit', 'src/a.ts']);
  const over = gateOver([path.join(repo, '.git'), repo]);
  assert.match((await asked(over, path.join(repo, '.git', 'hooks', 'pre-commit'))) ?? '', /may write \.git\/hooks\/pre-commit: it is a protected path \(\*\*\/\.git\/\*\*\)/);
  assert.deepEqual(over.served, [], 'denied: nothing written');
  await over.write(path.join(repo, 'src', 'a.ts'));
  assert.deepEqual(over.served, [path.join(repo, 'src', 'a.ts')], 'an ordinary edit still goes through');
});

test('nor can a first folder .vscode, nor the home folder listed before the repository below it', async (t) => {
  const home = tree(t, ['repo/.vscode/settings.json', 'repo/.git/hooks/pre-push', '.bashrc', 'repo/README.md']);
  const repo = path.join(home, 'repo');
  const vscodeFirst = gateOver([path.join(repo, '.vscode'), repo]);
  assert.ok(await asked(vscodeFirst, path.join(repo, '.vscode', 'settings.json')), '.vscode first');
  const homeFirst = gateOver([home, repo]);
  for (const file of ['.vscode/settings.json', '.git/hooks/pre-push']) assert.ok(await asked(homeFirst, path.join(repo, file)), file);
  assert.ok(await asked(homeFirst, path.join(home, '.bashrc')));
  await homeFirst.write(path.join(repo, 'README.md'));
  assert.deepEqual(homeFirst.served, [path.join(repo, 'README.md')]);
});

test('a workspace folder inside a protected path protects everything below it, and no allow rule about paths opens it', async (t) => {
  const repo = tree(t, ['.git/config', '.git/hooks/pre-commit']);
  const gitDir = path.join(repo, '.git');
  const allowAll: SourcedRule = { request: 'write', path: '**', decision: 'allow', source: 'settings' };
  for (const over of [gateOver([gitDir]), gateOver([gitDir], { settings: [allowAll] })]) {
    const note = await asked(over, path.join(gitDir, 'config'));
    assert.match(note ?? '', /may write config: it is a protected path \(\*\*\/\.git\/\*\* as \/.*\/\.git\/config\)/);
    assert.ok(await asked(over, path.join(gitDir, 'hooks', 'pre-commit')));
    assert.deepEqual(over.served, []);
  }
});

test('a symlink src/notes.txt → ../.git/config with an allow for src/**: the allow does not open the target, and the card names it', async (t) => {
  const repo = tree(t, ['.git/config', 'src/a.ts']);
  fs.symlinkSync(path.join('..', '.git', 'config'), path.join(repo, 'src', 'notes.txt'));
  const allowSrc: SourcedRule = { request: 'write', path: 'src/**', decision: 'allow', source: 'settings' };
  const over = gateOver([repo], { settings: [allowSrc] });
  const note = await asked(over, path.join(repo, 'src', 'notes.txt'));
  assert.match(note ?? '', /may write src\/notes\.txt → \.git\/config: it is a protected path \(\*\*\/\.git\/\*\*\)/);
  assert.deepEqual(over.served, []);
  await over.write(path.join(repo, 'src', 'a.ts'));
  assert.deepEqual(over.served, [path.join(repo, 'src', 'a.ts')], 'the allow still opens what it names');
  assert.equal(over.transcript.entries.length, 1, 'without a card');
  const audited = over.events.find((e) => e.decision === 'asked');
  assert.deepEqual([audited?.target, audited?.resolved], [path.join(repo, 'src', 'notes.txt'), path.join(repo, '.git', 'config')], 'the audit keeps the named path and the resolved one');
});

test('"Allow for this session" on a symlink remembers both its names: the next write is not asked, the link alone does not open the target', async (t) => {
  const repo = tree(t, ['.git/config']);
  fs.symlinkSync(path.join(repo, '.git', 'config'), path.join(repo, 'notes.txt'));
  const over = gateOver([repo]);
  const pending = over.write(path.join(repo, 'notes.txt'));
  const first = await card(over.transcript);
  over.transcript.questions.answerPermission(first!.toolCallId, 'acp-host:allow-session');
  await pending;
  await over.write(path.join(repo, 'notes.txt'));
  assert.deepEqual(over.gate.rememberedForSession.map((r) => r.path), ['notes.txt', '.git/config']);
  assert.deepEqual(over.served, [path.join(repo, '.git', 'config'), path.join(repo, '.git', 'config')], 'written where the policy looked: the real target');
});

test('a path that cannot be resolved is refused (-32602), asked about by no card and never served, with or without a policy', async (t) => {
  const repo = tree(t, ['src/a.ts']);
  fs.symlinkSync(path.join(repo, 'nowhere'), path.join(repo, 'dangling'));
  fs.symlinkSync(path.join(repo, 'loop-b'), path.join(repo, 'loop-a'));
  fs.symlinkSync(path.join(repo, 'loop-a'), path.join(repo, 'loop-b'));
  fs.symlinkSync(os.tmpdir(), path.join(repo, 'out'));
  for (const port of [true, false]) {
    const over = gateOver([repo], { port });
    for (const file of ['dangling', 'loop-a', 'loop-a/x', 'out/escape.txt', '../elsewhere.txt']) {
      const isRefused = (error: unknown) => error instanceof RpcError && error.code === ErrorCodes.InvalidParams;
      await assert.rejects(over.write(path.join(repo, file)), isRefused, file);
      await assert.rejects(over.read(path.join(repo, file)), isRefused, file);
    }
    assert.deepEqual(over.served, []);
    assert.equal(over.transcript.entries.length, 0, 'no card');
    assert.ok(over.events.every((e) => e.decision === 'denied' && /Refused path/.test(e.detail ?? '')), 'each refusal is audited');
    assert.equal(over.events.length, 10);
  }
});

test('the forms of a path on Windows (path.win32): relative to every folder holding it, and absolute', () => {
  const forms = pathForms(['C:\\r\\.git\\hooks\\x', 'C:\\r\\.git\\hooks\\x'], ['C:\\r\\.git', 'C:\\r'], path.win32);
  assert.deepEqual(forms, { names: ['hooks/x', '.git/hooks/x'], absolute: ['r/.git/hooks/x'], shown: '.git/hooks/x' });
  const outside = pathForms(['D:\\other\\.ssh\\config'], ['C:\\r'], path.win32);
  assert.deepEqual(outside, { names: ['other/.ssh/config'], absolute: [], shown: 'D:\\other\\.ssh\\config' });
});
