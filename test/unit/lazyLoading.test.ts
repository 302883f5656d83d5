import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

// What activation and the panel's first paint do not need is loaded at its first use, not when
// the extension loads: ACP's zod schemas (src/protocol/lazySchemas.ts) and the agent stack with
// the Node modules it brings (src/runtime/agentStack.ts). Checked in a fresh process, as an
// extension host loads the extension once.

function inFreshProcess(body: string): unknown {
  const schema = require.resolve('../../src/protocol/schema');
  const script = `
    const loaded = () => Object.keys(require.cache).includes(${JSON.stringify(schema)});
    const launchLoaded = () => Object.keys(require.cache).includes(${JSON.stringify(require.resolve('../../src/agent/launch'))});
    const childProcessLoaded = () => process.moduleLoadList.includes('NativeModule child_process');
    ${body}`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

test('the session layer and the method table load without building the schemas; reading a method\'s schema builds them', () => {
  const result = inFreshProcess(`
    require(${JSON.stringify(require.resolve('../../src/session/agentSession'))});
    const { agentMethods, clientMethods } = require(${JSON.stringify(require.resolve('../../src/protocol/methods'))});
    const before = loaded();
    const name = agentMethods.sessionPrompt.method;
    const afterName = loaded();
    const parsed = clientMethods.sessionUpdate.params.safeParse({ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } } });
    console.log(JSON.stringify({ before, name, afterName, after: loaded(), success: parsed.success }));`);
  assert.deepEqual(result, { before: false, name: 'session/prompt', afterName: false, after: true, success: true });
});

test('a method\'s getter gives the same schema object every time, the one the schemas module exports', () => {
  const result = inFreshProcess(`
    const { agentMethods } = require(${JSON.stringify(require.resolve('../../src/protocol/methods'))});
    const schemas = require(${JSON.stringify(require.resolve('../../src/protocol/schema'))});
    console.log(JSON.stringify([agentMethods.initialize.params === agentMethods.initialize.params, agentMethods.initialize.result === schemas.InitializeResponseSchema]));`);
  assert.deepEqual(result, [true, true]);
});

test('a session and its runtime load without the agent stack or child_process; the first start loads them', () => {
  const result = inFreshProcess(`
    require(${JSON.stringify(require.resolve('../../src/session/agentSession'))});
    require(${JSON.stringify(require.resolve('../../src/agent/environment'))});
    const before = [launchLoaded(), childProcessLoaded()];
    const { agentStack } = require(${JSON.stringify(require.resolve('../../src/runtime/agentStack'))});
    const { startAgent } = agentStack();
    console.log(JSON.stringify({ before, after: [launchLoaded(), childProcessLoaded()], startAgent: typeof startAgent }));`);
  assert.deepEqual(result, { before: [false, false], after: [true, true], startAgent: 'function' });
});
