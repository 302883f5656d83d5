// The ACP Registry's index, fetched, with the last good copy kept beside the agents (its URL and
// when it was fetched): offline, or when the registry fails, that copy is what is shown, and the
// caller says so. No `vscode`.
import { mkdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { replaceFile } from '../../base/node/replaceFile';
import { fetchText } from './download';
import { parseRegistryIndex } from './registrySchema';
import type { ParsedIndex } from './registrySchema';

/** The index is a few tens of KB; this bounds a broken or hostile one. */
const MAX_INDEX_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

const CacheSchema = z.object({ url: z.string(), fetchedAt: z.number(), index: z.unknown() });

export interface LoadedIndex extends ParsedIndex {
  /** Set when this is the cached copy: since when, and why the registry was not read. */
  offline?: { fetchedAt: number | undefined; reason: string };
}

export async function loadRegistryIndex(url: string, cacheFile: string, signal?: AbortSignal): Promise<LoadedIndex> {
  try {
    const raw: unknown = JSON.parse(await fetchText(url, { maxBytes: MAX_INDEX_BYTES, signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS) }));
    const parsed = parseRegistryIndex(raw);
    await mkdir(path.dirname(cacheFile), { recursive: true });
    // Written whole: a crash mid-write never leaves half an index as the last good one.
    await replaceFile(cacheFile, JSON.stringify({ url, fetchedAt: Date.now(), index: raw }));
    return parsed;
  } catch (error) {
    if (signal?.aborted) throw error;
    const reason = (error as Error).message;
    const cached = await readCache(cacheFile, url);
    return cached ? { ...parseRegistryIndex(cached.index), offline: { fetchedAt: cached.fetchedAt, reason } } : { agents: [], skipped: [], offline: { fetchedAt: undefined, reason } };
  }
}

/** The last good copy of the index at `url` (one of another URL is not it). */
async function readCache(cacheFile: string, url: string): Promise<z.infer<typeof CacheSchema> | undefined> {
  try {
    const parsed = CacheSchema.safeParse(JSON.parse(await readFile(cacheFile, 'utf8')));
    return parsed.success && parsed.data.url === url ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
