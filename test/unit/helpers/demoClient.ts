// A bare ACP client for the bundled demo agent (dist/demo-agent.js, made by `npm run build`),
// driven over its real stdio. It keeps every line, both ways, so that a test can check all of
// them against the official ACP v1 schema.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { specMessageErrors } from './officialSchema';

export const DEMO = path.resolve(__dirname, '../../../../dist/demo-agent.js');
const WAIT_MS = 10_000;

export type Message = Record<string, any>;

export interface DemoClientOptions {
  /** The agent's working directory; this process's when left out. */
  cwd?: string;
  /** ACP_DEMO_STATE_DIR: sessions are saved in the test's temp dir, never the user's. */
  stateDir: string;
  /** Answers the agent's requests (fs, permission); undefined leaves one unanswered. */
  serve: (request: Message) => unknown;
}

/** Serves fs and permissions like a client would; `permission` picks the option kind, undefined answers none. */
export function serveFsAndPermission(permission: string | undefined): (request: Message) => unknown {
  return (request) => {
    const p = request.params;
    switch (request.method) {
      case 'fs/read_text_file':
        return { content: readFileSync(p.path, 'utf8') };
      case 'fs/write_text_file':
        writeFileSync(p.path, p.content);
        return {};
      case 'session/request_permission': {
        if (permission === undefined) return undefined;
        return { outcome: { outcome: 'selected', optionId: p.options.find((o: Message) => o.kind === permission).optionId } };
      }
      default:
        return undefined;
    }
  };
}

export class DemoClient {
  readonly fromAgent: Message[] = [];
  readonly toAgent: Message[] = [];
  /** Our request ids → method, to check the agent's responses against the right result type. */
  private readonly ourRequests = new Map<number, string>();
  /** Ids of requests a test sends wrong on purpose, left out of our own schema check. */
  private readonly wrongOnPurpose = new Set<number>();
  private readonly waiters = new Set<() => void>();
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly serve: (request: Message) => unknown;
  private nextId = 1;
  private buffered = '';
  stderr = '';

  constructor({ cwd, stateDir, serve }: DemoClientOptions) {
    this.serve = serve;
    const env = { ...process.env, ACP_DEMO_DELAY_MS: '0', ACP_DEMO_STATE_DIR: stateDir };
    this.child = spawn(process.execPath, [DEMO], { cwd, env });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.receive(chunk));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => (this.stderr += chunk));
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    for (let nl = this.buffered.indexOf('\n'); nl !== -1; nl = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      const message = JSON.parse(line) as Message;
      this.fromAgent.push(message);
      if (typeof message.method === 'string' && 'id' in message) {
        const result = this.serve(message);
        if (result !== undefined) this.answer(message, result);
      }
    }
    for (const wake of [...this.waiters]) wake();
  }

  send(message: Message): void {
    this.toAgent.push(message);
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  answer(request: Message, result: unknown): void {
    this.send({ jsonrpc: '2.0', id: request.id, result });
  }

  /** Sends a request (without params when they are undefined); resolves with the whole response message (result or error). */
  async request(method: string, params?: unknown, { wrongOnPurpose = false } = {}): Promise<Message> {
    const id = this.nextId++;
    this.ourRequests.set(id, method);
    if (wrongOnPurpose) this.wrongOnPurpose.add(id);
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return this.waitFor(`the response to ${method}`, (m) => m.id === id && !('method' in m));
  }

  async result(method: string, params?: unknown): Promise<any> {
    const response = await this.request(method, params);
    assert.ok('result' in response, `${method} failed: ${JSON.stringify(response.error)}`);
    return response.result;
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  waitFor(what: string, match: (m: Message) => boolean): Promise<Message> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.fromAgent.find(match);
        if (found) {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
        }
        return !!found;
      };
      const wake = (): void => void check();
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`timed out waiting for ${what}; stderr:\n${this.stderr}`));
      }, WAIT_MS);
      if (!check()) this.waiters.add(wake);
    });
  }

  /** The session/update payloads from index `from` on, of one kind or all, in order. */
  updates(kind?: string, from = 0): Message[] {
    return this.fromAgent
      .slice(from)
      .filter((m) => m.method === 'session/update' && (kind === undefined || m.params.update.sessionUpdate === kind))
      .map((m) => m.params.update);
  }

  /** Every schema problem in what the agent wrote, one line each. */
  schemaErrors(): string[] {
    return this.fromAgent.flatMap((m) => {
      const requestMethod = 'method' in m ? undefined : this.ourRequests.get(m.id);
      return specMessageErrors(m, { from: 'agent', requestMethod }).map((e) => `${JSON.stringify(m).slice(0, 160)}: ${e}`);
    });
  }

  /** The same for what we wrote, so that a mistake in a test cannot pass for a fault of the demo. */
  ownSchemaErrors(): string[] {
    return this.toAgent
      .filter((m) => !this.wrongOnPurpose.has(m.id))
      .flatMap((m) => {
        const requestMethod = 'method' in m ? undefined : this.fromAgent.find((r) => r.id === m.id && 'method' in r)?.method;
        return specMessageErrors(m, { from: 'client', requestMethod }).map((e) => `${JSON.stringify(m).slice(0, 160)}: ${e}`);
      });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin.end(); // the demo exits on EOF
    });
  }
}
