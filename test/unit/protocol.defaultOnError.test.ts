import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import type * as z from 'zod/mini';
import { agentMethods, clientMethods, protocolMethods, type Method } from '../../src/protocol';
import { officialSchemaPath } from './helpers/officialSchema';

// The table of `x-deserialize-default-on-error` fields, generated from the ACP v1 JSON schema:
// for every field so marked, a valid message of a method that carries the field's type, with a
// malformed value in that field (every probe value the schema rejects there), must parse with
// our zod schema of that method as if the field were absent (its default when required; for
// `x-deserialize-skip-invalid-items` arrays, without the invalid items).
//
// The schema shipped with the SDK is walked; ACP_SCHEMA_FILES (paths joined by the platform's
// delimiter) adds others, e.g. a newer schema.json of the spec repository.

type Node = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  additionalProperties?: Node | boolean;
  allOf?: Node[];
  anyOf?: Node[];
  oneOf?: Node[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
};
type Schema = { $defs: Record<string, Node & { 'x-method'?: string }> };
type Path = (string | number)[];

/** Values tried in each marked field; those the schema accepts there are not malformed, so not tried. */
const PROBES: unknown[] = [42, -1, 1.5, 'not-valid', true, null, {}, { bogus: 1 }, [], [42], ['not-valid'], [{ bogus: 1 }]];

const allMethods: readonly Method[] = [...Object.values(agentMethods), ...Object.values(clientMethods), ...Object.values(protocolMethods)];

/** Our zod schema for a method's params or result, by the schema's def name and `x-method`. */
function ourSchema(defName: string, method: string): z.ZodMiniType {
  const found = allMethods.find((m) => m.method === method);
  assert.ok(found, `no method ${method} in src/protocol/methods.ts (for ${defName})`);
  if (defName.endsWith('Response')) {
    assert.equal(found.kind, 'request', defName);
    return found.result;
  }
  return found.params;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return isObject(a) && isObject(b) ? { ...a, ...b } : b;
}

function firstType(node: Node): string | undefined {
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  return types.find((t) => t !== 'null') ?? types[0] ?? (node.properties ? 'object' : undefined);
}

/**
 * A minimal valid value of `node` (required fields only, the first variant of a union), going
 * down `route` (steps like `properties/x`, `items`, `oneOf/2`, `$ref`); `at` is where it ends.
 */
function build(schema: Schema, node: Node, route: readonly string[] = []): { value: unknown; at: Path | undefined } {
  const [step, ...rest] = route;
  if (node.$ref) return build(schema, schema.$defs[node.$ref.replace('#/$defs/', '')], rest);
  let value: unknown;
  let at: Path | undefined = route.length === 0 ? [] : undefined;
  if ('const' in node) value = node.const;
  else if (node.enum) value = node.enum[0];
  else {
    switch (firstType(node)) {
      case 'object': {
        const obj: Record<string, unknown> = {};
        for (const p of node.required ?? []) obj[p] = build(schema, node.properties![p]).value;
        if (step?.startsWith('properties/')) {
          const p = step.slice('properties/'.length);
          const r = build(schema, node.properties![p], rest);
          obj[p] = r.value;
          at = r.at && [p, ...r.at];
        }
        if (step === 'additionalProperties') {
          const r = build(schema, node.additionalProperties as Node, rest);
          obj.key = r.value;
          at = r.at && ['key', ...r.at];
        }
        value = obj;
        break;
      }
      case 'array':
        value = [];
        if (step === 'items') {
          const r = build(schema, node.items!, rest);
          value = [r.value];
          at = r.at && [0, ...r.at];
        }
        break;
      case 'string':
        value = 'x';
        break;
      case 'integer':
      case 'number':
        value = Math.max(node.minimum ?? 0, 0);
        break;
      case 'boolean':
        value = false;
        break;
      case 'null':
        value = null;
        break;
    }
  }
  for (const [i, part] of (node.allOf ?? []).entries()) {
    const r = build(schema, part, step === `allOf/${i}` ? rest : []);
    value = merge(value, r.value);
    if (step === `allOf/${i}`) at = r.at;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const variants = node[key];
    if (!variants) continue;
    const routed = step?.startsWith(`${key}/`) ? Number(step.slice(key.length + 1)) : undefined;
    const chosen = routed ?? Math.max(0, variants.findIndex((v) => v.type !== 'null'));
    const r = build(schema, variants[chosen], routed === undefined ? [] : rest);
    value = merge(value, r.value);
    if (routed !== undefined) at = r.at;
  }
  return { value: value === undefined ? null : value, at };
}

/** The steps one node offers towards others. */
function steps(node: Node): [string, Node][] {
  return [
    ...Object.entries(node.properties ?? {}).map(([p, n]): [string, Node] => [`properties/${p}`, n]),
    ...(node.items ? [['items', node.items] as [string, Node]] : []),
    ...(typeof node.additionalProperties === 'object' ? [['additionalProperties', node.additionalProperties] as [string, Node]] : []),
    // The `other` variant of an open union stands for tags of later versions (read as unknown): not a way in.
    ...(['allOf', 'anyOf', 'oneOf'] as const).flatMap((k) => (node[k] ?? []).flatMap((n, i): [string, Node][] => (n.title === 'other' ? [] : [[`${k}/${i}`, n]]))),
  ];
}

/** The shortest route from def `from` to an instance of def `to` (BFS; each def entered once). */
function routeTo(schema: Schema, from: string, to: string): string[] | undefined {
  if (from === to) return [];
  const queue: { node: Node; route: string[] }[] = [{ node: schema.$defs[from], route: [] }];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const { node, route } = queue.shift()!;
    for (const [step, next] of steps(node)) {
      if (next.$ref) {
        const name = next.$ref.replace('#/$defs/', '');
        if (name === to) return [...route, step, '$ref'];
        if (seen.has(name)) continue;
        seen.add(name);
        queue.push({ node: schema.$defs[name], route: [...route, step, '$ref'] });
      } else queue.push({ node: next, route: [...route, step] });
    }
  }
  return undefined;
}

function setAt(root: unknown, path: Path, key: string, value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let target = copy;
  for (const p of path) target = target[p] as Record<string | number, unknown>;
  if (value === undefined) delete target[key];
  else target[key] = value;
  return copy;
}

interface Row {
  def: string;
  field: string;
  /** The method's def the field is reached from, and where its value sits in that message. */
  message: string;
  valid: unknown;
  at: Path;
  malformed: unknown[];
  /** What the field reads as for a probe value. */
  expected: (probe: unknown) => unknown;
}

function table(path: string): Row[] {
  const schema = JSON.parse(readFileSync(path, 'utf8')) as Schema;
  const id = `file://${path}`;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(schema, id);
  const validator = (pointer: string) => ajv.compile({ $ref: `${id}#${pointer}` });
  const messages = Object.keys(schema.$defs).filter((name) => schema.$defs[name]['x-method']);
  const rows: Row[] = [];
  for (const [def, node] of Object.entries(schema.$defs)) {
    for (const [field, prop] of Object.entries(node.properties ?? {})) {
      if (!prop['x-deserialize-default-on-error']) continue;
      // `rawInput`, an error's `data`: any JSON value is valid there, so none is malformed.
      if (Object.keys(prop).every((k) => k === 'description' || k.startsWith('x-'))) continue;
      const message = messages.map((m) => ({ m, route: routeTo(schema, m, def) })).filter((r) => r.route).sort((a, b) => a.route!.length - b.route!.length)[0];
      assert.ok(message, `${def}.${field}: no message of the schema carries ${def}`);
      const { value: valid, at } = build(schema, schema.$defs[message.m], message.route);
      assert.ok(at, `${def}.${field}: the route from ${message.m} was not followed`);
      const validMessage = validator(`/$defs/${message.m}`);
      assert.ok(validMessage(valid), `${message.m} built for ${def}.${field} is not valid: ${ajv.errorsText(validMessage.errors)}`);
      const required = (node.required ?? []).includes(field);
      const fallback = required ? (prop.default ?? (firstType(prop) === 'array' ? [] : undefined)) : undefined;
      const validItem = prop.items && prop['x-deserialize-skip-invalid-items'] ? validator(`/$defs/${def}/properties/${field.replace(/~/g, '~0').replace(/\//g, '~1')}/items`) : undefined;
      rows.push({
        def,
        field,
        message: message.m,
        valid,
        at,
        malformed: PROBES.filter((probe) => !validMessage(setAt(valid, at, field, probe))),
        // Items are dropped one by one where the schema says so; anything else wrong is the default.
        expected: (probe) => (validItem && Array.isArray(probe) ? probe.filter((item) => validItem(item)) : fallback),
      });
    }
  }
  return rows;
}

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const schemaFiles = [officialSchemaPath, ...(process.env.ACP_SCHEMA_FILES?.split(require('node:path').delimiter).filter(Boolean) ?? [])];

for (const file of schemaFiles) {
  const rows = table(file);

  test(`${file}: the table has the fields the schema marks (${rows.length})`, () => {
    assert.ok(rows.length > 100, 'the walk found the marked fields');
    assert.ok(rows.some((r) => r.malformed.length > 0));
  });

  for (const row of rows) {
    test(`${row.def}.${row.field} (in ${row.message}) reads a malformed value as its default`, () => {
      const zod = ourSchema(row.message, (JSON.parse(readFileSync(file, 'utf8')) as Schema).$defs[row.message]['x-method']!);
      const baseline = zod.safeParse(row.valid);
      assert.ok(baseline.success, `a valid ${row.message} fails our schema: ${JSON.stringify(row.valid)}`);
      for (const probe of row.malformed) {
        const parsed = zod.safeParse(setAt(row.valid, row.at, row.field, probe));
        const wanted = zod.safeParse(setAt(row.valid, row.at, row.field, row.expected(probe)));
        assert.ok(wanted.success, `${row.message} with ${row.field} = ${JSON.stringify(row.expected(probe))} fails our schema`);
        assert.ok(parsed.success, `${row.field} = ${JSON.stringify(probe)} failed the whole ${row.message}: ${parsed.success ? '' : parsed.error.message}`);
        // A field caught as absent is kept as an `undefined` key: the same thing once serialized.
        assert.deepEqual(json(parsed.data), json(wanted.data), `${row.field} = ${JSON.stringify(probe)}`);
      }
    });
  }
}
