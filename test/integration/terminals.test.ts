// Client terminals in the real extension host: a fake agent (terminal-agent.js) runs commands
// through terminal/*; the tool card embedding a terminal streams its output, each command also
// shows as an "Agent: …" VS Code terminal, and nothing it started outlives kill, release, the
// user closing that terminal, or the agent stopping.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { AgentSession } from '../../src/session/agentSession';
import type { ToolContentView } from '../../src/webview-protocol/entries';
import { api, find, until, useAgent } from './helpers';
import { alive } from '../unit/helpers/processes';

type TerminalContent = Extract<ToolContentView, { type: 'terminal' }>;


function terminalOf(controller: AgentSession, toolCallId: string): TerminalContent | undefined {
  const tool = find(controller, 'tool').find((t) => t.toolCallId === toolCallId);
  return tool?.content.find((c): c is TerminalContent => c.type === 'terminal');
}

async function report<T>(controller: AgentSession, text: string): Promise<T> {
  await controller.prompt(text);
  const message = find(controller, 'agent').at(-1)?.text ?? '';
  try {
    return JSON.parse(message) as T;
  } catch {
    throw new Error(`the agent did not report JSON: ${message}`);
  }
}

const agentTerminals = () => vscode.window.terminals.filter((t) => t.name.startsWith('Agent: '));

suite('client terminals', function () {
  this.timeout(90000);

  teardown(async () => {
    await (await api()).host.controller.stop();
  });

  test('terminal agent: the card streams output; truncation, kill, release and a refused cwd; VS Code terminals; nothing left running', async () => {
    const controller = await useAgent('Terminals', 'terminal-agent.js');
    const terminalsBefore = agentTerminals().length;
    const seen: string[] = [];
    const off = controller.transcript.onChange(() => {
      const card = terminalOf(controller, 't-stream');
      if (card && seen.at(-1) !== card.output) seen.push(card.output);
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const r = await report<any>(controller, 'run');
    off.dispose();
    assert.ok(!r.error, JSON.stringify(r));

    // 1. Streaming: both streams in one output; the card saw it grow.
    const lines = [1, 2, 3, 4, 5, 6].map((i) => `line ${i} é😀\n`).join('');
    assert.deepStrictEqual(r.stream.output, { output: lines, truncated: false, exitStatus: { exitCode: 0, signal: null } });
    assert.deepStrictEqual(r.stream.exit, { exitCode: 0, signal: null });
    assert.ok(r.stream.early.exitStatus === null || r.stream.early.exitStatus === undefined, 'no exit status while running');
    assert.ok(seen.length >= 3, `the card showed the output as it came: ${JSON.stringify(seen)}`);
    assert.ok(seen.every((s) => lines.startsWith(s)), 'each state is a prefix of the output');
    const card = terminalOf(controller, 't-stream');
    assert.deepStrictEqual({ ...card }, { type: 'terminal', terminalId: r.stream.terminalId, output: lines, truncated: false, exitStatus: { exitCode: 0, signal: null } });

    // 2. outputByteLimit 10 of "é"×20 + "😀😀": the end, cut between characters.
    assert.deepStrictEqual(r.limited.output, { output: 'é😀😀', truncated: true, exitStatus: { exitCode: 0, signal: null } });

    // 3. Kill: the shell and its SIGTERM-ignoring child; the id stays valid.
    assert.deepStrictEqual(r.kill.killResult, {});
    assert.deepStrictEqual(r.kill.exit, { exitCode: null, signal: 'SIGTERM' });
    assert.deepStrictEqual(r.kill.after.exitStatus, { exitCode: null, signal: 'SIGTERM' });
    assert.match(r.kill.after.output, /child \d+/);
    const [shellPid, childPid] = r.kill.pids as number[];
    assert.ok(shellPid > 0 && childPid > 0, JSON.stringify(r.kill));
    await until('the killed tree to be gone', () => (!alive(shellPid) && !alive(childPid) ? true : undefined), 5000);
    const killedCard = await until('the killed card', () => (terminalOf(controller, 't-kill')?.exitStatus ? terminalOf(controller, 't-kill') : undefined));
    assert.deepStrictEqual(killedCard.exitStatus, { exitCode: null, signal: 'SIGTERM' });

    // 4. Released: unknown from then on, but the card keeps the output.
    assert.strictEqual(r.afterRelease.code, -32002, JSON.stringify(r.afterRelease));
    assert.match(r.afterRelease.message, /Unknown terminal/);
    assert.strictEqual(terminalOf(controller, 't-stream')?.output, lines, 'released, still shown');

    // 5. A cwd outside the workspace is refused and nothing runs.
    assert.strictEqual(r.outside.code, -32602, JSON.stringify(r.outside));

    // Each command is also a VS Code terminal.
    const created = agentTerminals().slice(terminalsBefore);
    assert.strictEqual(created.length, 3, created.map((t) => t.name).join(', '));
    assert.ok(created[0].name.startsWith('Agent: node -e let i=0;'), created[0].name);
  });

  test('closing the VS Code terminal kills the command; stopping the agent kills what it never released', async () => {
    const controller = await useAgent('Terminals', 'terminal-agent.js');
    const first = await report<{ terminalId: string; pid: number }>(controller, 'leak');
    assert.ok(alive(first.pid));
    const vsTerminal = agentTerminals().at(-1);
    assert.ok(vsTerminal && /leaked/.test(vsTerminal.name), vsTerminal?.name);
    vsTerminal.dispose();
    await until('the command to be killed by closing its terminal', () => (!alive(first.pid) ? true : undefined), 5000);
    await until('the card to show it', () => terminalOf(controller, 't-leak')?.exitStatus ?? undefined);

    const second = await report<{ terminalId: string; pid: number }>(controller, 'leak');
    assert.ok(alive(second.pid));
    await controller.stop();
    await until('the unreleased command to be killed with the agent', () => (!alive(second.pid) ? true : undefined), 5000);
  });
});
