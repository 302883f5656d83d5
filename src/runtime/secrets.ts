// Secrets an agent is given, and what must never show them. One SecretScrubber per agent: every
// source of a secret feeds it (stored sign-in values, the env configured for the agent, MCP
// server env, headers and URL credentials, a terminal sign-in's env) and every place an agent's
// words end up passes through it (log lines, stderr, error text, the protocol trace, saved
// sessions). The structural rules (what is hidden by where it sits) are here too. No `vscode`.
import type { ConnectionLog } from '../agent/connection';
import type { McpServer } from '../protocol';

/** What a hidden value becomes in text shown in the log and the panel. */
export const MASK = '***';
/** What a hidden value becomes in the protocol trace document: unmistakable among JSON values. */
export const REDACTED = '«redacted»';

/** Keys whose values are credentials wherever they appear (numbers and booleans are kept: token counts). */
export const SECRET_KEY = /token|secret|password|api[-_]?key|authorization|cookie/i;

/** Keys whose every value is hidden, names kept: `env` (terminal/create, MCP servers, auth), `headers` (MCP http/sse). */
const CONTAINER_KEY = /^(env|headers)$/i;

/** Query parameters of an MCP server URL that carry credentials (`?access_token=`, `?key=`, `?sig=`). */
const SECRET_QUERY = /token|secret|password|key|auth|sig/i;

/** Known secret values shorter than this are not searched for in free text (too many false hits). */
const MIN_SECRET_LENGTH = 6;

const MAX_DEPTH = 64;

export interface Redaction {
  /** What hidden values become; REDACTED unless said. */
  mask?: string;
  /** Hide values under `env`/`headers` and secret-looking keys (default); false masks known values only. */
  fields?: boolean;
  /** What a secret-looking key is: SECRET_KEY unless said (a tool's raw input hides more, the trace must keep `sessionId`). */
  keys?: RegExp;
  /** Applied to every string after masking (the trace clips long ones). */
  leaf?: (text: string) => string;
}

/**
 * `value` with values under `env`/`headers` and under secret-looking keys hidden, and `secrets`
 * masked inside any string. Copy on write: what has nothing to hide comes back as it is (the
 * same object), and the original is never changed.
 */
export function redact(value: unknown, secrets: readonly string[] = [], how: Redaction = {}): unknown {
  return redactKnown(value, longestFirst(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH)), how);
}

/**
 * What leaves an agent's runtime for the trace: values under `env`/`headers` and secret-looking
 * keys as MASK, the rest as it is (the same object when nothing is hidden). Known values are the
 * trace's to mask, under its own marker.
 */
export function redactFields(value: unknown): unknown {
  return redactKnown(value, [], { mask: MASK });
}

/** Longest first, so a secret containing another is masked whole. */
function longestFirst(secrets: string[]): string[] {
  return secrets.sort((a, b) => b.length - a.length);
}

function redactKnown(value: unknown, known: readonly string[], how: Redaction): unknown {
  return walk(value, { mask: how.mask ?? REDACTED, fields: how.fields ?? true, keys: how.keys ?? SECRET_KEY, leaf: how.leaf, secrets: known }, 0);
}

interface Walk {
  mask: string;
  fields: boolean;
  keys: RegExp;
  leaf: ((text: string) => string) | undefined;
  secrets: readonly string[];
}

function walk(value: unknown, w: Walk, depth: number): unknown {
  if (typeof value === 'string') {
    const masked = maskIn(value, w.secrets, w.mask);
    return w.leaf ? w.leaf(masked) : masked;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return '«too deep»';
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const out = walk(item, w, depth + 1);
      if (out !== item) (copy ??= [...value])[i] = out;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  // Keys, then each value: Object.entries made an array per key, on every tool card's raw JSON.
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    let out: unknown;
    if (w.fields && CONTAINER_KEY.test(key)) out = hideContainer(child, w.mask);
    else if (w.fields && w.keys.test(key) && !isHarmless(child)) out = w.mask;
    else out = walk(child, w, depth + 1);
    if (out !== child) (copy ??= { ...value })[key] = out;
  }
  return copy ?? value;
}

function isHarmless(value: unknown): boolean {
  return value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean';
}

/** `[{name, value}]` keeps the names; `{NAME: value}` keeps the keys; anything else goes entirely. */
function hideContainer(value: unknown, mask: string): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) {
    return value.map((item) => {
      const name = (item as { name?: unknown } | null)?.name;
      return typeof name === 'string' ? { name, value: mask } : mask;
    });
  }
  if (typeof value === 'object') return Object.fromEntries(Object.keys(value).map((k) => [k, mask]));
  return mask;
}

/** `secrets` sorted longest first, each at least MIN_SECRET_LENGTH long. */
function maskIn(text: string, secrets: readonly string[], mask: string): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(mask);
  return out;
}

/** A value as written, and percent-decoded when that differs (an agent may print either). */
function bothForms(raw: string): string[] {
  try {
    const decoded = decodeURIComponent(raw);
    return decoded === raw ? [raw] : [raw, decoded];
  } catch {
    return [raw];
  }
}

/**
 * The credentials in a URL: the password of `user:password@` (or the user, when it is all there
 * is: `https://TOKEN@host`), and the values of token-looking query parameters.
 */
export function urlCredentials(url: string): string[] {
  const found: string[] = [];
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#@]*)@/i.exec(url)?.[1];
  if (userinfo) {
    const colon = userinfo.indexOf(':');
    found.push(...bothForms(colon === -1 ? userinfo : userinfo.slice(colon + 1)));
  }
  const query = /\?([^#]*)/.exec(url)?.[1] ?? '';
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && SECRET_QUERY.test(pair.slice(0, eq))) found.push(...bothForms(pair.slice(eq + 1)));
  }
  return found;
}

/** The secrets one agent was given, and the masking of them wherever its words go. */
export class SecretScrubber {
  private readonly values = new Set<string>();
  /** `values` longest first, rebuilt after an addition. */
  private sorted: string[] | undefined;

  /** Values shorter than MIN_SECRET_LENGTH are not kept (masking them would hit everywhere). */
  add(...values: string[]): void {
    for (const value of values) {
      if (value.length < MIN_SECRET_LENGTH || this.values.has(value)) continue;
      this.values.add(value);
      this.sorted = undefined;
    }
  }

  /** Env and header values (and the token of an `Authorization: Bearer …`), and credentials in URLs. */
  addMcpServers(servers: readonly McpServer[]): void {
    for (const server of servers) {
      if ('env' in server) this.add(...server.env.map((v) => v.value));
      if ('headers' in server) {
        for (const { value } of server.headers) this.add(value, ...(/^\w+\s+(\S+)$/.exec(value)?.slice(1) ?? []));
      }
      if ('url' in server) this.add(...urlCredentials(server.url));
    }
  }

  /** Free text (a log line, stderr, an error message) with every known secret replaced by MASK. */
  scrub(text: string): string {
    return maskIn(text, this.known(), MASK);
  }

  /** Data that must keep its shape (a saved transcript): known secrets masked in every string, nothing else touched. */
  scrubDeep<T>(value: T): T {
    const known = this.known();
    // Nothing to find: the walk (over a whole saved transcript) would only hand `value` back.
    if (known.length === 0) return value;
    return redactKnown(value, known, { mask: MASK, fields: false }) as T;
  }

  /** A message or any data: `redact` with this agent's secrets. */
  redact(value: unknown, how: Redaction = {}): unknown {
    return redactKnown(value, this.known(), how);
  }

  /** Every value it masks, longest first. */
  knownValues(): readonly string[] {
    return this.known();
  }

  private known(): string[] {
    this.sorted ??= longestFirst([...this.values]);
    return this.sorted;
  }
}

/** `log` with every line through `scrubber` first. */
export function scrubbingLog(log: ConnectionLog, scrubber: Pick<SecretScrubber, 'scrub'>): ConnectionLog {
  return {
    info: (m) => log.info(scrubber.scrub(m)),
    warn: (m) => log.warn(scrubber.scrub(m)),
    error: (m) => log.error(scrubber.scrub(m)),
  };
}

/** The scrubber of every agent, by name, shared by the host's sinks and the agents' runtimes. */
export class SecretScrubbers {
  private readonly byAgent = new Map<string, SecretScrubber>();

  for(agent: string): SecretScrubber {
    let scrubber = this.byAgent.get(agent);
    if (!scrubber) this.byAgent.set(agent, (scrubber = new SecretScrubber()));
    return scrubber;
  }

  /**
   * For what all agents share (the log, the audit log): no agent's secret shows. All agents'
   * secrets are masked in one pass, longest first: one agent's short secret inside another's
   * longer one must not be masked first, leaving the rest of the longer one in the clear.
   */
  scrub(text: string): string {
    return maskIn(text, longestFirst([...this.byAgent.values()].flatMap((s) => s.knownValues())), MASK);
  }
}
