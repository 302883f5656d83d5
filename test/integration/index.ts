// Mocha loader the VS Code extension host runs (the workbench's extensionTestsPath points at the
// compiled out/test/integration/index.js; test/host/run-integration.js starts it).
//
// Contract with the runner (all optional, so the loader also works under @vscode/test-electron):
//   ACP_TEST_MOCHA_LOG     file the reporter output is mirrored to; the runner streams it. The
//                          extension host's own console only reaches the runner mixed with
//                          workbench noise.
//   ACP_TEST_RESULTS_FILE  JSON results written when the run ends. The runner trusts this file,
//                          not the exit code: a crashed extension host also reports 0.
//   ACP_TEST_GREP          only run tests whose full title matches this regular expression.
//
// mocha 11 (not 12): 12 is ESM-only and cannot be require()d inside the extension host.
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import Mocha from 'mocha';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(p));
    else if (entry.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

interface TestResult {
  title: string;
  state: string;
  durationMs?: number;
  error?: string;
}

function appendToLog(text: string): void {
  const logFile = process.env.ACP_TEST_MOCHA_LOG;
  if (!logFile) return;
  try { fs.appendFileSync(logFile, text + '\n'); } catch { /* the runner is gone; nothing to report to */ }
}

/** console.log for tests: the line also appears in the report the runner streams. */
export function testLog(...args: unknown[]): void {
  appendToLog(util.format(...args));
  console.log(...args);
}

export function run(): Promise<void> {
  return runSuite(__dirname);
}

/** Runs every *.test.js under `dir` (another suite's loader passes its own folder). */
export function runSuite(dir: string): Promise<void> {
  const logFile = process.env.ACP_TEST_MOCHA_LOG;
  const resultsFile = process.env.ACP_TEST_RESULTS_FILE;
  const append = appendToLog;

  // Mirror the reporter (it writes through Base.consoleLog, saved before tests can patch
  // console) and console.* while the suite runs, so test and extension output show up in order.
  // The reporter writes through Base.consoleLog; mirror that to the log file. (console.* itself
  // cannot be wrapped: the extension host redefines it as getter-only properties that forward
  // to the workbench, so plain console output reaches the runner via codeAutomationLog; tests
  // that want a line in the streamed report use testLog() below.)
  const restore: Array<() => void> = [];
  if (logFile) {
    const base = Mocha.reporters.Base as unknown as { consoleLog: (...a: unknown[]) => void };
    const origReporterLog = base.consoleLog;
    base.consoleLog = (...args: unknown[]) => { append(util.format(...args)); origReporterLog(...args); };
    restore.push(() => { base.consoleLog = origReporterLog; });
  }

  const mocha = new Mocha({ ui: 'tdd', color: false, reporter: 'spec', timeout: 60000 });
  if (process.env.ACP_TEST_GREP) mocha.grep(new RegExp(process.env.ACP_TEST_GREP));
  const files = findTests(dir);
  for (const f of files) mocha.addFile(f);

  const results: TestResult[] = [];
  const errors = new Map<string, string>();
  const writeResults = (stats: Mocha.Stats | undefined, failures: number, error?: unknown): void => {
    if (!resultsFile) return;
    for (const r of results) {
      const e = errors.get(r.title);
      if (e !== undefined) { r.error = e; errors.delete(r.title); }
    }
    for (const [title, e] of errors) results.push({ title, state: 'failed', error: e });
    const body = {
      failures,
      stats: stats ?? { tests: 0, passes: 0, failures, pending: 0 },
      files: files.map((f) => path.relative(dir, f)),
      tests: results,
      ...(error ? { error: String((error as Error)?.stack ?? error) } : {}),
    };
    fs.writeFileSync(resultsFile, JSON.stringify(body, null, 2));
  };

  return new Promise<void>((resolve, reject) => {
    const finish = (stats: Mocha.Stats | undefined, failures: number, error?: unknown): void => {
      for (const r of restore.reverse()) r();
      writeResults(stats, failures, error);
      if (error) reject(error);
      else if (failures > 0) reject(new Error(`${failures} test(s) failed.`));
      else resolve();
    };
    try {
      if (files.length === 0) append(`no *.test.js files under ${dir}`);
      const runner = mocha.run((failures) => finish(runner.stats, failures));
      runner.on('test end', (t) => {
        results.push({ title: t.fullTitle(), state: t.state ?? (t.pending ? 'pending' : 'unknown'), durationMs: t.duration });
      });
      // 'fail' comes before 'test end', and failing hooks have no 'test end' at all.
      runner.on('fail', (t, err) => { errors.set(t.fullTitle(), String((err as Error)?.stack ?? err)); });
    } catch (e) {
      // A test file that throws while loading lands here (e.g. a missing module).
      append(`mocha failed to start: ${String((e as Error)?.stack ?? e)}`);
      finish(undefined, 1, e);
    }
  });
}
