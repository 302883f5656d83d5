// Files written whole or not at all (src/base/node/replaceFile.ts): the new contents replace the old;
// a write that fails leaves the old file as it was, no temporary file behind, and the error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replaceFile, replaceFileSync } from '../../src/base/node/replaceFile';

for (const [name, replace] of [
  ['replaceFileSync', async (file: string, data: string) => replaceFileSync(file, data)],
  ['replaceFile', replaceFile],
] as const) {
  test(`${name}: replaces the contents; a failed write keeps the old file and leaves no temporary file`, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-replace-'));
    try {
      const file = path.join(dir, 'state.json');
      writeFileSync(file, 'old');
      await replace(file, 'new');
      assert.equal(readFileSync(file, 'utf8'), 'new');
      assert.deepEqual(readdirSync(dir), ['state.json']);

      // The rename cannot put a file over a folder: the write fails after its temporary file exists.
      const folder = path.join(dir, 'a-folder');
      mkdirSync(folder);
      await assert.rejects(async () => replace(folder, 'lost'), /EISDIR|EEXIST|ENOTEMPTY|EPERM/);
      assert.deepEqual(readdirSync(dir).sort(), ['a-folder', 'state.json'], 'no temporary file left');
      assert.equal(readFileSync(file, 'utf8'), 'new');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
