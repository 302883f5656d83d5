// The audit log's core (src/audit): its bounds (a ring of events, each event's strings clipped),
// secrets masked before anything is kept, JSON Lines out and back in (bad lines skipped, the rest
// kept), and the readable document.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { AuditLog, clip, isRead, parseJsonLines, toJsonLines } from '../../src/audit/auditLog';
import { AuditEventSchema } from '../../src/audit/auditEvent';
import type { AuditEvent, NewAuditEvent } from '../../src/audit/auditEvent';
import { auditLine, auditText } from '../../src/audit/auditText';
import { Ring } from '../../src/audit/ring';
import { SecretScrubbers } from '../../src/runtime/secrets';

const write = (n: number, extra: Partial<NewAuditEvent> = {}): NewAuditEvent => ({
  agent: 'Claude Code',
  sessionId: 's-1',
  kind: 'write',
  target: `/w/file-${n}.ts`,
  decision: 'allowed',
  by: 'default',
  ...extra,
});

describe('Ring', () => {
  test('keeps the last `capacity` items, oldest first, however many were pushed', () => {
    const ring = new Ring<number>(3);
    assert.deepEqual(ring.toArray(), []);
    for (let i = 1; i <= 2; i++) ring.push(i);
    assert.deepEqual(ring.toArray(), [1, 2]);
    for (let i = 3; i <= 10; i++) ring.push(i);
    assert.deepEqual(ring.toArray(), [8, 9, 10]);
    assert.equal(ring.size, 3);
  });

  test('refuses a capacity under one', () => {
    assert.throws(() => new Ring(0), RangeError);
  });
});

describe('AuditLog', () => {
  test('stamps the time (ISO 8601) when none is given, keeps one given, and tells listeners what it kept', () => {
    const log = new AuditLog();
    const heard: AuditEvent[] = [];
    log.onDidRecord((e) => heard.push(e));
    const before = Date.now();
    const stamped = log.record(write(1));
    assert.ok(AuditEventSchema.safeParse(stamped).success);
    assert.ok(Date.parse(stamped.time) >= before - 1 && Date.parse(stamped.time) <= Date.now() + 1);
    const given = log.record(write(2, { time: '2024-01-02T03:04:05.000Z' }));
    assert.equal(given.time, '2024-01-02T03:04:05.000Z');
    assert.deepEqual(heard, [stamped, given]);
    assert.deepEqual(log.events(), [stamped, given]);
  });

  test('a ring: past maxChanges the oldest go, the newest stay last', () => {
    const log = new AuditLog({ limits: { maxChanges: 100 } });
    for (let i = 0; i < 1000; i++) log.record(write(i));
    const events = log.events();
    assert.equal(events.length, 100);
    assert.equal(events[0].target, '/w/file-900.ts');
    assert.equal(events.at(-1)!.target, '/w/file-999.ts');
  });

  test('the default bound is about 10,000 changes', () => {
    const log = new AuditLog();
    for (let i = 0; i < 10_050; i++) log.record(write(i));
    assert.equal(log.size, 10_000);
    assert.equal(log.events()[0].target, '/w/file-50.ts');
  });

  test('long strings are clipped (target and detail to maxText, names to maxName), saying how much was cut', () => {
    const log = new AuditLog({ limits: { maxText: 100, maxName: 20 } });
    const kept = log.record(write(0, { target: 'x'.repeat(5000), detail: 'd'.repeat(101), agent: 'a'.repeat(50), rule: 'r'.repeat(21), sessionId: 's'.repeat(20) }));
    assert.equal(kept.target, `${'x'.repeat(100)}… (4900 more characters)`);
    assert.equal(kept.detail, `${'d'.repeat(100)}… (1 more characters)`);
    assert.equal(kept.agent, `${'a'.repeat(20)}… (30 more characters)`);
    assert.equal(kept.rule, `${'r'.repeat(20)}… (1 more characters)`);
    assert.equal(kept.sessionId, 's'.repeat(20), 'not longer than the bound: kept whole');
    // A hostile agent's megabyte-long path costs a bounded line.
    assert.ok(JSON.stringify(log.record(write(1, { target: 'p'.repeat(1 << 20), detail: 'q'.repeat(1 << 20) }))).length < 500);
  });

  test('clip never cuts a surrogate pair in half', () => {
    assert.equal(clip('ab😀cd', 3), 'ab… (4 more characters)');
    assert.equal(clip('ab😀cd', 4), 'ab😀… (2 more characters)');
    assert.equal(clip('short', 10), 'short');
  });

  test('a secret given to the agent never appears in the events, their JSON Lines, or what listeners hear', () => {
    const secrets = new SecretScrubbers();
    secrets.for('Claude Code').add('sk-ant-very-secret-1');
    secrets.for('Other').add('ghp_other_agents_token');
    const heard: string[] = [];
    const log = new AuditLog({ scrub: (agent, text) => secrets.for(agent).scrub(text) });
    log.onDidRecord((e) => heard.push(JSON.stringify(e)));
    log.record(write(0, { kind: 'terminal', target: 'curl -H "x-api-key: sk-ant-very-secret-1" https://api', detail: 'env ANTHROPIC_API_KEY; sk-ant-very-secret-1' }));
    log.record(write(1, { kind: 'permission', target: 'Use key sk-ant-very-secret-1', rule: 'allow sk-ant-very-secret-1', decision: 'asked' }));
    const all = [log.toJsonLines(), JSON.stringify(log.events()), ...heard].join('\n');
    assert.ok(!all.includes('sk-ant-very-secret-1'), all);
    assert.equal(log.events()[0].target, 'curl -H "x-api-key: ***" https://api');
    assert.equal(log.events()[1].rule, 'allow ***');
    // Another agent's secret is that agent's scrubber's to mask: the host passes one that masks all (agentHost.ts).
    const all2 = new AuditLog({ scrub: (_agent, text) => secrets.scrub(text) });
    assert.equal(all2.record(write(2, { target: 'echo ghp_other_agents_token' })).target, 'echo ***');
  });

  test('JSON Lines: one event per line, each valid, oldest first; empty log, empty text', () => {
    const log = new AuditLog();
    assert.equal(log.toJsonLines(), '');
    log.record(write(1));
    log.record(write(2, { decision: 'failed', detail: 'line one\nline two' }));
    const text = log.toJsonLines();
    assert.ok(text.endsWith('\n'));
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 2, 'a line break inside a value stays escaped in its line');
    const parsed = lines.map((l) => AuditEventSchema.parse(JSON.parse(l)));
    assert.deepEqual(parsed, log.events());
    assert.deepEqual(Object.keys(parsed[1]), ['time', 'agent', 'sessionId', 'kind', 'target', 'decision', 'by', 'detail']);
  });

  test('read back: bad lines (not JSON, wrong shape, unknown kind, cut short) are skipped and the rest kept', () => {
    const good = [write(1, { time: '2024-05-01T10:00:00.000Z' }), write(2, { time: '2024-05-01T10:00:01.000Z', kind: 'terminal', target: 'npm test' })] as AuditEvent[];
    const text = [
      JSON.stringify(good[0]),
      'not json at all',
      '',
      JSON.stringify({ ...good[0], decision: 'maybe' }),
      JSON.stringify({ ...good[0], time: 'yesterday' }),
      '[1,2,3]',
      '   ',
      JSON.stringify({ ...good[1], futureField: 'ignored' }),
      JSON.stringify(good[1]).slice(0, 40), // a write cut short by a crash
    ].join('\n');
    const { events, skipped } = parseJsonLines(text);
    assert.deepEqual(events, good);
    assert.equal(skipped, 5);
    assert.deepEqual(parseJsonLines(toJsonLines(good)), { events: good, skipped: 0 });
    assert.deepEqual(parseJsonLines(''), { events: [], skipped: 0 });
  });

  test('restore puts older events first, within the bound, scrubbed and clipped like new ones', () => {
    const log = new AuditLog({ limits: { maxChanges: 4, maxText: 50 }, scrub: (_agent, text) => text.replaceAll('hunter2-secret', '***') });
    log.record(write(10));
    log.record(write(11));
    const older = [1, 2, 3].map((n) => ({ ...write(n), time: '2024-01-01T00:00:00.000Z' }) as AuditEvent);
    older[2].target = `hunter2-secret ${'y'.repeat(100)}`;
    log.restore(older);
    assert.deepEqual(
      log.events().map((e) => e.target),
      ['/w/file-2.ts', `*** ${'y'.repeat(46)}… (54 more characters)`, '/w/file-10.ts', '/w/file-11.ts'],
    );
  });
});

describe('changes and reads, kept apart', () => {
  const read = (n: number, extra: Partial<NewAuditEvent> = {}): NewAuditEvent => write(n, { kind: 'read', target: `/w/read-${n}.ts`, ...extra });
  const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();

  test('10,000 reads after a write (the default bounds) do not push the write out; 10,001 reads keep the last 10,000', () => {
    const log = new AuditLog();
    log.record(write(1, { detail: 'the change' }));
    for (let i = 0; i <= 10_000; i++) log.record(read(i));
    const events = log.events();
    assert.equal(events[0].detail, 'the change');
    assert.equal(events.length, 10_001);
    assert.equal(events[1].target, '/w/read-1.ts', 'the oldest read went, not the write');
    assert.equal(events.at(-1)!.target, '/w/read-10000.ts');
  });

  test('each kind has its own bound: past them the oldest of that kind go', () => {
    const log = new AuditLog({ limits: { maxChanges: 3, maxReads: 2 } });
    for (let i = 0; i < 5; i++) {
      log.record(write(i));
      log.record(read(i));
    }
    assert.deepEqual(log.events().map((e) => e.target), ['/w/file-2.ts', '/w/file-3.ts', '/w/read-3.ts', '/w/file-4.ts', '/w/read-4.ts']);
    assert.equal(log.size, 5);
    assert.equal(log.capacity, 5);
  });

  test('shown merged in time order; events of one time in the order recorded', () => {
    const log = new AuditLog();
    log.record(read(1, { time: at(1) }));
    log.record(write(2, { time: at(2) }));
    log.record(read(3, { time: at(2) }));
    log.record(write(4, { time: at(2) }));
    log.record(read(5, { time: at(3) }));
    log.record(write(6, { time: at(4) }));
    assert.deepEqual(log.events().map((e) => e.target), ['/w/read-1.ts', '/w/file-2.ts', '/w/read-3.ts', '/w/file-4.ts', '/w/read-5.ts', '/w/file-6.ts']);
    assert.deepEqual(parseJsonLines(log.toJsonLines()).events, log.events(), 'the file and the export hold the same order');
  });

  test('a read the user was asked about is a change; a read served, refused or failed without the user is a read', () => {
    const kinds = (extra: Partial<NewAuditEvent>) => isRead({ ...read(0, extra), time: at(0) } as AuditEvent);
    assert.equal(kinds({ decision: 'allowed', by: 'default' }), true);
    assert.equal(kinds({ decision: 'denied', by: 'default' }), true, 'refused by confinement');
    assert.equal(kinds({ decision: 'denied', by: 'rule' }), true, 'an agent can make as many as it likes: they must not push a change out');
    assert.equal(kinds({ decision: 'failed', by: 'default' }), true);
    assert.equal(kinds({ decision: 'asked', by: 'default' }), false);
    assert.equal(kinds({ decision: 'allowed', by: 'user' }), false);
    assert.equal(kinds({ decision: 'cancelled', by: 'auto' }), false);
    for (const kind of ['write', 'terminal', 'permission', 'sign-in', 'sign-out', 'consent'] as const) assert.equal(kinds({ kind }), false, kind);
  });

  test('restore sorts what the file held (one list, as an earlier version wrote it) into the two rings', () => {
    const log = new AuditLog({ limits: { maxChanges: 2, maxReads: 3 } });
    log.record(write(100, { time: at(50) }));
    const older = [write(1), ...Array.from({ length: 20 }, (_, i) => read(i)), write(2)].map((e, i) => ({ ...e, time: at(i) }) as AuditEvent);
    log.restore(older);
    assert.deepEqual(log.events().map((e) => e.target), ['/w/read-17.ts', '/w/read-18.ts', '/w/read-19.ts', '/w/file-2.ts', '/w/file-100.ts']);
  });
});

describe('the readable log', () => {
  const event: AuditEvent = {
    time: '2025-12-04T17:23:01.123Z',
    agent: 'Codex',
    sessionId: 'abc',
    kind: 'permission',
    target: 'Edit\nsrc/a.ts',
    decision: 'allowed',
    by: 'rule',
    rule: '.vscode/**',
    detail: 'chose "Allow once"',
  };

  test('one line per event: time, decision, kind, target, who decided, agent and session, detail', () => {
    assert.equal(auditLine(event), '2025-12-04 17:23:01Z  allowed    permission  Edit\\nsrc/a.ts  by rule (.vscode/**) · Codex, session abc · chose "Allow once"');
    assert.equal(auditLine({ ...event, sessionId: undefined, rule: undefined, detail: undefined, kind: 'read', target: '/w/x' }), '2025-12-04 17:23:01Z  allowed    read        /w/x  by rule · Codex');
  });

  test('the document: a header, then every event, oldest first, one line each', () => {
    const text = auditText([event, { ...event, decision: 'denied', target: '/w/b' }], { maxChanges: 10_000, maxReads: 5_000 });
    const lines = text.trimEnd().split('\n');
    assert.match(lines[0], /2 events, oldest first \(the last 10000 changes and, apart, the last 5000 reads are kept/);
    assert.equal(lines.length, 5);
    assert.match(lines[3], /allowed/);
    assert.match(lines[4], /denied .*\/w\/b/);
  });
});
