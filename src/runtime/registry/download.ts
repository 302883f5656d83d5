// Downloads for the ACP Registry: its index and agents' archives, over HTTPS (plain HTTP only to
// this machine: a local mirror, the tests' server), redirects followed, bounded in size, hashed
// (sha256) as they stream. Node's own `fetch`. No `vscode`.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why `url` is not fetched (not https, nor http to this machine), or undefined when it may be. */
export function refusedUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname))) return undefined;
  return `${parsed.protocol}//${parsed.host} is refused: only https (or http to this machine)`;
}

function checkUrl(url: string): void {
  const refused = refusedUrl(url);
  if (refused) throw new Error(refused);
}

export interface FetchOptions {
  maxBytes: number;
  signal?: AbortSignal;
  /** Bytes so far, and the whole when the server said it. */
  onProgress?: (received: number, total: number | undefined) => void;
}

async function open(url: string, options: FetchOptions): Promise<{ body: Readable; total: number | undefined }> {
  checkUrl(url);
  const response = await fetch(url, { redirect: 'follow', signal: options.signal });
  // Where a redirect led must pass the same rule.
  if (response.url) checkUrl(response.url);
  if (!response.ok || !response.body) throw new Error(`${url} answered HTTP ${response.status}`);
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  if (total !== undefined && total > options.maxBytes) throw new Error(`${url} is ${total} bytes, over the limit of ${options.maxBytes}`);
  return { body: Readable.fromWeb(response.body as ReadableStream<Uint8Array>), total };
}

/** Counts, hashes and bounds what passes through. */
function meter(url: string, total: number | undefined, options: FetchOptions) {
  const hash = createHash('sha256');
  let received = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > options.maxBytes) return done(new Error(`${url} is over the limit of ${options.maxBytes} bytes`));
      hash.update(chunk);
      options.onProgress?.(received, total);
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ bytes: received, sha256: hash.digest('hex') }) };
}

export interface Downloaded {
  bytes: number;
  sha256: string;
}

/** `url` into a new file `file` (removed again on any failure). */
export async function downloadFile(url: string, file: string, options: FetchOptions): Promise<Downloaded> {
  const { body, total } = await open(url, options);
  const counted = meter(url, total, options);
  try {
    await pipeline(body, counted.stream, createWriteStream(file, { flags: 'wx', mode: 0o600 }), { signal: options.signal });
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return counted.result();
}

/** `url`'s body as text. */
export async function fetchText(url: string, options: FetchOptions): Promise<string> {
  const { body, total } = await open(url, options);
  const counted = meter(url, total, options);
  const chunks: Buffer[] = [];
  await pipeline(body, counted.stream, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) chunks.push(chunk);
  }, { signal: options.signal });
  return Buffer.concat(chunks).toString('utf8');
}

/** Refuses a download whose sha256 is not the one the index gave (when it gave one). */
export function checkSha256(expected: string | undefined, actual: string, what: string): void {
  if (expected !== undefined && expected.toLowerCase() !== actual.toLowerCase()) {
    throw new Error(`${what} does not match its checksum (sha256 ${actual}, the registry says ${expected.toLowerCase()}): refused`);
  }
}
