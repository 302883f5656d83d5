import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { linkTarget } from '../../src/workspace/linkTarget';

test('web and mail links open outside; file links open at their line; everything else is refused', () => {
  assert.deepEqual(linkTarget('https://example.com/a?b#c'), { kind: 'external', href: 'https://example.com/a?b#c' });
  assert.deepEqual(linkTarget('MAILTO:me@example.com'), { kind: 'external', href: 'MAILTO:me@example.com' });
  assert.deepEqual(linkTarget('/w/src/a.ts#L12'), { kind: 'file', path: '/w/src/a.ts', line: 12, isUri: false });
  assert.deepEqual(linkTarget('/w/src/a.ts#7'), { kind: 'file', path: '/w/src/a.ts', line: 7, isUri: false });
  assert.deepEqual(linkTarget('file:///w/a.ts'), { kind: 'file', path: 'file:///w/a.ts', line: null, isUri: true });
  assert.deepEqual(linkTarget('C:\\w\\a.ts'), { kind: 'file', path: 'C:\\w\\a.ts', line: null, isUri: false });
  for (const refused of ['javascript:alert(1)', 'JaVaScRiPt:x', 'command:workbench.action.quit', 'vscode://x', 'data:text/html,x', 'src/a.ts', '../etc/passwd', '']) {
    assert.equal(linkTarget(refused), undefined, refused);
  }
});

test('absolute paths are files, never web URLs: POSIX, Windows drives (as markdown-it encodes them), file: URLs', () => {
  const file = (path: string, line: number | null = null, isUri = false) => ({ kind: 'file', path, line, isUri });
  const cases: Array<[string, ReturnType<typeof file>]> = [
    ['/w/a.ts', file('/w/a.ts')],
    ['/w/a%20b.ts#L3', file('/w/a b.ts', 3)],
    ['/w/%C3%A9t%C3%A9.md', file('/w/été.md')],
    ['/w/100%.txt', file('/w/100%.txt')],
    ['C:\\w\\a.ts', file('C:\\w\\a.ts')],
    ['c:/w/a.ts#12', file('c:/w/a.ts', 12)],
    // markdown-it hands `C:\w\a.ts` over as `C:%5Cw%5Ca.ts`.
    ['C:%5Cw%5Ca.ts#L7', file('C:\\w\\a.ts', 7)],
    ['file:///w/a.ts', file('file:///w/a.ts', null, true)],
    ['FILE:///C:/w/a.ts#L2', file('FILE:///C:/w/a.ts', 2, true)],
    ['file:///w/a%20b.ts', file('file:///w/a%20b.ts', null, true)],
  ];
  for (const [href, expected] of cases) assert.deepEqual(linkTarget(href), expected, href);
  // Network paths and what a browser takes for a host are neither files nor web links.
  for (const refused of ['//evil.example/x', '/\\evil.example/x', '%2F%2Fevil.example', '\\\\server\\share\\a.ts', 'C:a.ts', 'w/a.ts']) {
    assert.equal(linkTarget(refused), undefined, refused);
  }
});

test('property: nothing that starts as an absolute path is ever opened as a web or mail link', () => {
  const tail = fc.string({ unit: fc.constantFrom(...'abc/\\:.#%20L5é?&=@'.split('')), maxLength: 30 });
  const absolute = fc.oneof(
    tail.map((t) => `/${t}`),
    fc.tuple(fc.constantFrom('C', 'c', 'Z'), fc.constantFrom(':/', ':\\', ':%5C', ':%5c'), tail).map(([d, s, t]) => `${d}${s}${t}`),
    tail.map((t) => `file:///${t}`),
  );
  fc.assert(
    fc.property(absolute, (href) => {
      const target = linkTarget(href);
      return target === undefined || target.kind === 'file';
    }),
    { numRuns: 2000 },
  );
});
