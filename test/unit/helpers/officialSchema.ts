// Validation against the official ACP v1 JSON schema shipped in @agentclientprotocol/sdk, for
// tests that want to prove a message is what the spec says (e.g. what a connection really writes).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';

interface SchemaDef {
  'x-method'?: string;
  'x-side'?: 'agent' | 'client' | 'protocol';
}

interface OfficialSchema {
  $defs: Record<string, SchemaDef>;
}

export const officialSchemaPath = require.resolve('@agentclientprotocol/sdk/schema/v1/schema.json');
export const officialSchema = JSON.parse(readFileSync(officialSchemaPath, 'utf8')) as OfficialSchema;

const SCHEMA_ID = 'https://agentclientprotocol.com/schema/v1/schema.json';
// Formats like `uint32` are not JSON Schema formats (their bounds are spelled out with
// `minimum`/`maximum`), and the `x-*` keywords are annotations, hence not strict.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(officialSchema, SCHEMA_ID);

const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

function ref(defName: string): { $ref: string } {
  if (!(defName in officialSchema.$defs)) throw new Error(`No $defs/${defName} in the official schema`);
  return { $ref: `${SCHEMA_ID}#/$defs/${defName}` };
}

function formatAjvErrors(errors: readonly ErrorObject[] | null | undefined, at = ''): string[] {
  return (errors ?? []).map((e) => `${at + e.instancePath || '/'} ${e.message ?? e.keyword}`);
}

/**
 * Validates like the wire would see it: the value goes through JSON first, so `undefined`
 * fields vanish exactly as they do when a message is serialized.
 */
function errorsAgainst(schema: object, value: unknown, at = ''): string[] {
  const validate = validatorFor(schema);
  return validate(JSON.parse(JSON.stringify(value) ?? 'null')) ? [] : formatAjvErrors(validate.errors, at);
}

/** A validator for one `$defs` type (e.g. `SessionNotification`); it returns `[]` when valid. */
export function specValidator(defName: string): (value: unknown) => string[] {
  const schema = ref(defName);
  return (value) => errorsAgainst(schema, value);
}

export function assertSpecValid(defName: string, value: unknown): void {
  const errors = specValidator(defName)(value);
  assert.deepEqual(errors, [], `not a valid ${defName}: ${JSON.stringify(value)}`);
}

export interface SpecMethod {
  method: string;
  /** Who serves the method: `agent` methods are called by the client, and the reverse. */
  side: 'agent' | 'client' | 'protocol';
  kind: 'request' | 'notification';
  paramsDef: string;
  resultDef?: string;
}

/** Every stable method, read from the schema's `x-method`/`x-side` markers. */
export const specMethods: readonly SpecMethod[] = (() => {
  const byMethod = new Map<string, Partial<SpecMethod>>();
  for (const [defName, def] of Object.entries(officialSchema.$defs)) {
    const method = def['x-method'];
    if (!method || !def['x-side']) continue;
    const entry = byMethod.get(method) ?? { method, side: def['x-side'], kind: 'notification' };
    if (defName.endsWith('Response')) Object.assign(entry, { kind: 'request', resultDef: defName });
    else entry.paramsDef = defName;
    byMethod.set(method, entry);
  }
  return [...byMethod.values()] as SpecMethod[];
})();

export type Sender = 'client' | 'agent';

export interface MessageCheck {
  /** Who writes the message. */
  from: Sender;
  /** For a response: the method of the request it answers, so its `result` is checked too. */
  requestMethod?: string;
}

function envelopeDef(from: Sender, message: Record<string, unknown>): string {
  const side = from === 'client' ? 'Client' : 'Agent';
  if (!('method' in message)) return `${side}Response`;
  return 'id' in message ? `${side}Request` : `${side}Notification`;
}

function methodErrors(message: Record<string, unknown>, from: Sender, requestMethod?: string): string[] {
  const isResponse = !('method' in message);
  const method = isResponse ? requestMethod : message.method;
  if (typeof method !== 'string' || method.startsWith('_')) return [];
  const spec = specMethods.find((m) => m.method === method);
  // The sender calls methods the other side serves; `$/` methods go both ways.
  const callee = isResponse ? from : from === 'client' ? 'agent' : 'client';
  if (!spec || (spec.side !== callee && spec.side !== 'protocol')) {
    return [`/method ${method} is not a method the ${from} may ${isResponse ? 'answer' : 'send'}`];
  }
  if (isResponse) {
    return spec.resultDef && 'result' in message ? errorsAgainst(ref(spec.resultDef), message.result, '/result') : [];
  }
  if (spec.kind !== ('id' in message ? 'request' : 'notification')) {
    return [`/ ${method} is a ${spec.kind}`];
  }
  return errorsAgainst(ref(spec.paramsDef), message.params, '/params');
}

/**
 * Checks a whole JSON-RPC message: the `jsonrpc` version, the envelope (the schema's
 * ClientRequest/AgentResponse/… defs), and the params (or result) against the method's own
 * type, which the envelope defs alone do not tie to the method. `[]` means valid.
 */
export function specMessageErrors(message: unknown, check: MessageCheck): string[] {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return ['/ must be an object'];
  const record = message as Record<string, unknown>;
  const jsonrpc = { type: 'object', properties: { jsonrpc: { const: '2.0' } }, required: ['jsonrpc'] };
  // `$/…` messages have no envelope def of their own; their params are checked by method below.
  const isProtocolLevel = typeof record.method === 'string' && record.method.startsWith('$/');
  const envelope = isProtocolLevel ? jsonrpc : { ...jsonrpc, allOf: [ref(envelopeDef(check.from, record))] };
  return [...errorsAgainst(envelope, message), ...methodErrors(record, check.from, check.requestMethod)];
}

export function assertSpecMessage(message: unknown, check: MessageCheck): void {
  const errors = specMessageErrors(message, check);
  assert.deepEqual(errors, [], `not a valid message from the ${check.from}: ${JSON.stringify(message)}`);
}

// The SDK's unstable schema: the stable one plus what is not in the spec yet (PromptResponse.usage,
// clientCapabilities.plan, plan_update, session/fork…), for what we send or read of those.
export const unstableSchemaPath = require.resolve('@agentclientprotocol/sdk/schema/v1/schema.unstable.json');
const unstableSchema = JSON.parse(readFileSync(unstableSchemaPath, 'utf8')) as OfficialSchema;
const UNSTABLE_SCHEMA_ID = 'https://agentclientprotocol.com/schema/v1/schema.unstable.json';
ajv.addSchema(unstableSchema, UNSTABLE_SCHEMA_ID);

/** A validator for one `$defs` type of the unstable schema (e.g. `ForkSessionRequest`); it returns `[]` when valid. */
export function unstableSpecValidator(defName: string): (value: unknown) => string[] {
  if (!(defName in unstableSchema.$defs)) throw new Error(`No $defs/${defName} in the unstable schema`);
  const schema = { $ref: `${UNSTABLE_SCHEMA_ID}#/$defs/${defName}` };
  return (value) => errorsAgainst(schema, value);
}

/** assertSpecValid against the unstable schema's `$defs/<defName>`. */
export function assertUnstableSpecValid(defName: string, value: unknown): void {
  assert.deepEqual(unstableSpecValidator(defName)(value), [], `not a valid (unstable) ${defName}: ${JSON.stringify(value)}`);
}
