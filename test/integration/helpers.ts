// Shared by the extension-host suites: the extension's API, an agent configured through the
// user's settings (a scripted fake from test/fixtures/agents, or a built-in one), and polling.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AcpHostApi } from '../../src/extension';
import type { AgentSession } from '../../src/session/agentSession';
import type { EntryView } from '../../src/webview-protocol/entries';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/agents');

export async function api(): Promise<AcpHostApi> {
  const ext = vscode.extensions.getExtension<AcpHostApi>('acp-host.acp-host');
  assert.ok(ext, 'extension not installed');
  const exports = await ext.activate();
  assert.ok(exports, 'activate returned no API (activation failed)');
  return exports;
}

export async function useAgent(name: string, fixture?: string, env: Record<string, string> = {}): Promise<AgentSession> {
  const config = vscode.workspace.getConfiguration('acpHost');
  if (fixture) {
    const agent = { name, command: process.execPath, args: [path.join(FIXTURES, fixture)], env: { ELECTRON_RUN_AS_NODE: '1', ...env } };
    await config.update('agents', [agent], vscode.ConfigurationTarget.Global);
  }
  await config.update('defaultAgent', name, vscode.ConfigurationTarget.Global);
  const { host } = await api();
  await host.startAgent();
  return host.controller;
}

/** After a test: every tab closed (closing the last one opens a fresh, unstarted session) and the agents it configured gone. */
export async function closeSessionsAndAgents(): Promise<void> {
  const { host } = await api();
  for (const tab of [...host.tabs.all]) await host.closeSession(tab.key);
  const config = vscode.workspace.getConfiguration('acpHost');
  await config.update('agents', undefined, vscode.ConfigurationTarget.Global);
  await config.update('defaultAgent', undefined, vscode.ConfigurationTarget.Global);
}

export function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20000): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = probe();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 25);
    };
    tick();
  });
}

/** Sends one JSON command to a fake agent that answers with JSON (fs-agent.js, roots-agent.js) and returns its answer. */
export async function ask<T>(controller: AgentSession, command: unknown): Promise<T> {
  const before = find(controller, 'agent').length;
  await controller.prompt(JSON.stringify(command));
  const answer = await until('the agent’s answer', () => find(controller, 'agent').slice(before).at(-1)?.text);
  return JSON.parse(answer) as T;
}

export const find = <K extends EntryView['kind']>(c: AgentSession, kind: K) =>
  c.transcript.entries.filter((e): e is Extract<EntryView, { kind: K }> => e.kind === kind);

/** What fs-agent.js answers for one fs call. */
export interface CallResult {
  ok: boolean;
  code?: number;
  message?: string;
}

/** fs-agent.js writes `file`; the card the policy raises, if any, is answered with `optionId`. Returns the agent's result, the card and the last tool card. */
export async function writeAnswering(controller: AgentSession, file: string, optionId: string | undefined) {
  const before = find(controller, 'agent').length;
  const turn = controller.prompt(JSON.stringify({ write: file, content: 'agent was here\n' }));
  let card: ReturnType<typeof find<'tool'>>[number] | undefined;
  if (optionId) {
    card = await until(`the question about ${file}`, () => find(controller, 'tool').find((t) => t.permission));
    controller.choosePermission(card.toolCallId, optionId);
  }
  await turn;
  const answer = await until('the agent’s answer', () => find(controller, 'agent').slice(before).at(-1)?.text);
  return { result: JSON.parse(answer) as CallResult, card, last: find(controller, 'tool').at(-1) };
}
