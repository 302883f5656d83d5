// The demo agent's log. stdout is reserved for protocol messages (one JSON object per line), so
// everything human-readable goes to stderr, which the client keeps as the agent's log.

export function log(...parts: unknown[]): void {
  const text = parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
  process.stderr.write(`[demo-agent] ${text}\n`);
}
