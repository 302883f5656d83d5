// docs/CONFORMANCE.md is checked, not trusted: every ACP method and session/update kind of the
// official schemas (stable and unstable) has exactly one row, no row names what the schemas do
// not have, and every test a row cites exists (the file, and a test whose title holds the fragment).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';

const REPO = path.resolve(__dirname, '../../..');
const page = readFileSync(path.join(REPO, 'docs/CONFORMANCE.md'), 'utf8');

interface SchemaDef {
  'x-method'?: string;
  'x-side'?: string;
  oneOf?: { properties?: { sessionUpdate?: { const?: string } } }[];
}
function schemaFacts(file: string): { methods: Set<string>; kinds: Set<string> } {
  const defs = (JSON.parse(readFileSync(require.resolve(`@agentclientprotocol/sdk/schema/v1/${file}`), 'utf8')) as { $defs: Record<string, SchemaDef> }).$defs;
  const methods = new Set(Object.values(defs).flatMap((d) => (d['x-method'] ? [d['x-method']] : [])));
  const kinds = new Set((defs.SessionUpdate.oneOf ?? []).flatMap((alt) => (alt.properties?.sessionUpdate?.const ? [alt.properties.sessionUpdate.const] : [])));
  return { methods, kinds };
}
const stable = schemaFacts('schema.json');
const unstable = schemaFacts('schema.unstable.json');

interface Row {
  name: string;
  stability: string;
  status: string;
  shownBy: string;
}
/** The rows of the table under `heading`: `| \`name\` | … |`, cells by header name. */
function rows(heading: string): Row[] {
  const section = page.split(/^## /m).find((s) => s.startsWith(heading));
  assert.ok(section, `docs/CONFORMANCE.md has a "## ${heading}" section`);
  const lines = section.split('\n').filter((l) => l.startsWith('|'));
  const header = lines[0].split('|').map((c) => c.trim());
  const cell = (cells: string[], name: string) => cells[header.indexOf(name)] ?? '';
  return lines.slice(2).map((line) => {
    const cells = line.split('|').map((c) => c.trim());
    return { name: cell(cells, header[1]).replace(/`/g, ''), stability: cell(cells, 'Stability'), status: cell(cells, 'Status'), shownBy: cell(cells, 'Shown by') };
  });
}

const titlesByFile = new Map<string, string>();
/** The test titles of a test file, joined (titles are string literals: `test('…'`, `test("…"`, test(`…`). */
function titles(file: string): string {
  let text = titlesByFile.get(file);
  if (text === undefined) {
    const source = readFileSync(path.join(REPO, file), 'utf8');
    text = [...source.matchAll(/\btest\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)].map((m) => m[2].replace(/\\(.)/g, '$1')).join('\n');
    titlesByFile.set(file, text);
  }
  return text;
}

function checkTable(heading: string, stableNames: Set<string>, unstableNames: Set<string>): void {
  const table = rows(heading);
  const named = table.map((r) => r.name);
  const all = new Set([...stableNames, ...unstableNames]);
  for (const name of all) assert.equal(named.filter((n) => n === name).length, 1, `${heading}: one row for ${name}`);
  for (const name of named) assert.ok(all.has(name), `${heading}: ${name} is in neither official schema`);
  for (const row of table) {
    const expected = stableNames.has(row.name) ? 'stable' : 'unstable';
    assert.equal(row.stability, expected, `${row.name} is ${expected} in the SDK's schemas`);
    assert.match(row.status, /^(\*\*yes\*\*|\*\*no\*\*)/, `${row.name}: status is yes or no`);
    const cited = [...row.shownBy.matchAll(/`([^`]+)` › ([^;]+)/g)];
    assert.ok(cited.length > 0, `${row.name}: cites at least one test`);
    for (const [, file, fragment] of cited) {
      assert.ok(existsSync(path.join(REPO, file)), `${row.name}: ${file} exists`);
      assert.ok(titles(file).includes(fragment.trim()), `${row.name}: ${file} has a test titled with "${fragment.trim()}"`);
    }
  }
}

test('the conformance table has one row per ACP method of the official schemas, stable and unstable, each with a test that exists', () => {
  checkTable('Methods', stable.methods, unstable.methods);
});

test('the conformance table has one row per session/update kind of the official schemas, each with a test that exists', () => {
  checkTable('Session updates', stable.kinds, unstable.kinds);
});

test('each row says which schema it comes from; the unstable families answered -32601 have rows; the re-attach row says what a failed first prompt does', () => {
  for (const heading of ['Methods', 'Session updates']) {
    const section = page.split(/^## /m).find((s) => s.startsWith(heading)) ?? '';
    const lines = section.split('\n').filter((l) => l.startsWith('|'));
    const header = lines[0].split('|').map((c) => c.trim());
    assert.ok(header.includes('Schema'), `${heading} has a Schema column`);
    for (const line of lines.slice(2)) {
      const cells = line.split('|').map((c) => c.trim());
      const stability = cells[header.indexOf('Stability')];
      const schema = cells[header.indexOf('Schema')];
      const expected = stability === 'unstable' ? ['SDK 2.4.0 unstable'] : ['v1 1.21.0', 'SDK 2.4.0 stable'];
      assert.ok(expected.includes(schema), `${cells[1]}: schema "${schema}" is one of ${expected.join(', ')}`);
    }
  }
  const families = page.split(/^## /m).find((s) => s.startsWith('Unstable families answered -32601')) ?? '';
  for (const family of ['mcp/*', 'nes/*', 'document/*', 'providers/*', 'proxy/*']) assert.ok(families.includes(`| \`${family}\``), `a row for ${family}`);
  const prompt = page.split('\n').find((l) => l.startsWith('| `session/prompt`')) ?? '';
  assert.ok(prompt.includes('after a re-attach, any error on the first prompt (whatever its code or where the words are) opens a new session with the same agent, sends the prompt there, and says so in the transcript'));
});
