// Entry point of the demo agent (bundled to dist/demo-agent.js, run as `node dist/demo-agent.js`
// or under Electron with ELECTRON_RUN_AS_NODE=1). A scripted ACP v1 agent with no model, no
// network and no dependencies, so the extension works out of the box.
//
// Env: ACP_DEMO_DELAY_MS — base pause between streamed steps (default 40; 0 for tests).
//      ACP_DEMO_STATE_DIR — where sessions are kept between runs (default <tmpdir>/acp-host-demo).

import * as os from 'node:os';
import * as path from 'node:path';
import { registerDemoAgent } from './agent';
import { log } from './log';
import { Wire } from './wire';

function delayFromEnv(): number {
  const value = Number(process.env.ACP_DEMO_DELAY_MS);
  return Number.isFinite(value) && value >= 0 ? value : 40;
}

function stateDirFromEnv(): string {
  return process.env.ACP_DEMO_STATE_DIR || path.join(os.tmpdir(), 'acp-host-demo');
}

function exitAfterFlush(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

const wire = new Wire(process.stdin, process.stdout);
registerDemoAgent(wire, { delayMs: delayFromEnv(), stateDir: stateDirFromEnv() });

// The client went away (EPIPE): nothing left to talk to.
process.stdout.on('error', (err) => {
  log('stdout closed:', err.message);
  process.exit(0);
});

wire.start(() => {
  log('stdin closed, exiting');
  exitAfterFlush(0);
});
log(`started (pid ${process.pid}, node ${process.version})`);
