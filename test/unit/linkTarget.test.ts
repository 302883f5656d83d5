import test from 'node:test';
import assert from 'node:assert/strict';
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
