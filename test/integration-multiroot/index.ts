// Mocha loader of the multi-root suite: the integration suites' loader (test/integration/index.ts,
// same contract with test/host/run-integration.js), over this folder's tests. It runs on its own,
// with test/fixtures/multi-root/roots.code-workspace open (npm run test:integration:multiroot),
// so the other suites keep their single folder.
import { runSuite } from '../integration/index';

export function run(): Promise<void> {
  return runSuite(__dirname);
}
