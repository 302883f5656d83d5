// The folders that configure VS Code and ACP Host itself on this machine (src/runtime/ownFolders.ts)
// are protected wherever the installation keeps them: a workspace opened on the home folder
// holds them, and a write there must ask like one to .vscode/.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Policy } from '../../src/policy/policy';
import { RuleSet } from '../../src/policy/rules';
import { ownFolderGlobs } from '../../src/runtime/ownFolders';
import { judgedForms } from '../../src/workspace/policyPaths';

test('a write into VS Code\'s user folder or the extensions folder asks, as named and through a symlink, even under an allow for everything', async () => {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-own-')));
  try {
    // An unusual user-data folder, so only the runtime's own paths (not the default list) can protect it.
    const user = path.join(home, 'odd data [1]', 'User');
    const extensions = path.join(home, 'exts');
    fs.mkdirSync(user, { recursive: true });
    fs.mkdirSync(extensions);
    fs.symlinkSync(user, path.join(home, 'link-to-user'));
    const allowAll = new RuleSet([{ request: 'write', path: '**', decision: 'allow', source: 'settings' }]);
    const policy = (protectedPaths: string[]) => new Policy({ settings: allowAll, remembered: new RuleSet([]), protectedPaths, autoApprove: 'off' });
    const decide = async (p: Policy, file: string) => {
      const forms = await judgedForms(file, [home]);
      return p.decide({ kind: 'write', paths: forms.names, absolutePaths: forms.absolute }).decision;
    };
    const guarded = policy(ownFolderGlobs([user, extensions]));
    for (const file of [path.join(user, 'settings.json'), path.join(extensions, 'acp-host-0.1.0', 'dist', 'main.js'), path.join(home, 'link-to-user', 'settings.json')]) {
      assert.equal(await decide(policy([]), file), 'allow', `without them, the allow rule opens ${file}`);
      assert.equal(await decide(guarded, file), 'ask', file);
    }
    assert.equal(await decide(guarded, path.join(home, 'src', 'app.ts')), 'allow', 'the rest of the home folder is as before');
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
