// A controller on test/fixtures/agents/elicit-agent.js (forms, URL requests, questions), for the
// elicitation tests, and polling for what it shows.
import * as path from 'node:path';
import { currentEnv } from '../../../src/agent/environment';
import type { TraceDirection } from '../../../src/agent/connection';
import { AgentSession } from '../../../src/session/agentSession';

const FIXTURES = path.resolve(__dirname, '../../../../test/fixtures/agents');
const silent = { info() {}, warn() {}, error() {} };

/** `forms`: the panel shows elicitations (both modes are advertised); `onTrace` hears every message. */
export function elicitController(forms = true, onTrace: (direction: TraceDirection, message: unknown) => void = () => undefined): AgentSession {
  return new AgentSession(
    { name: 'Elicit', identity: 'test', launch: async () => ({ command: process.execPath, args: [path.join(FIXTURES, 'elicit-agent.js')], cwd: FIXTURES, env: currentEnv() }) },
    { initializeTimeoutMs: 10000, maxLineBytes: 1 << 20, workspaceFolder: FIXTURES, clientVersion: '0.0.0-test' },
    { readTextFile: async () => 'x', log: silent, onTrace: (_name, direction, message) => onTrace(direction, message), forms },
  );
}

export async function until<T>(probe: () => T | undefined, timeoutMs = 5000): Promise<T> {
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 10))) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
  }
}

export const lastAgentText = (c: AgentSession) => c.transcript.entries.filter((e) => e.kind === 'agent').at(-1)?.text;
