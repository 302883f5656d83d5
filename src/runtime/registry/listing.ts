// The rows of ACP: Browse Agents…: what the index says of each agent (name, version, license,
// authors, how it installs here) and what is installed (with "update available: x → y"). Pure:
// the host turns rows into QuickPick items. Registry text is shown as text: clipped, on one line,
// and with `$(…)` (a codicon to a QuickPick) broken up.
import { escapeHidden } from '../../base/shownText';
import { chooseDistribution } from './distribution';
import type { InstalledAgent } from './installed';
import type { PlatformKey, RegistryAgent } from './registrySchema';
import { compareVersions } from './versions';

export type RowState = 'available' | 'installed' | 'update' | 'unavailable';

export interface ListingRow {
  id: string;
  label: string;
  description: string;
  detail: string;
  state: RowState;
  /** The index's entry; absent for an installed agent the index no longer lists (or when offline without a cache). */
  latest?: RegistryAgent;
  installed?: InstalledAgent;
}

/** Registry text as plain text for a QuickPick: what cannot be seen escaped (shownText.ts), then codicons broken up. */
export function plain(text: string, max = 200): string {
  const line = escapeHidden(text.replace(/\s+/g, ' ').trim()).replace(/\$\(/g, '$\u200b(');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const HOW = { binary: 'downloads its binary', npx: 'runs with npx (Node.js)', uvx: 'runs with uvx (uv)' } as const;

function row(latest: RegistryAgent | undefined, installed: InstalledAgent | undefined, platform: PlatformKey | undefined): ListingRow {
  const id = latest?.id ?? installed?.id ?? '';
  const distribution = latest && chooseDistribution(latest, platform);
  const update = latest && installed && compareVersions(latest.version, installed.version) > 0;
  const state: RowState = update ? 'update' : installed ? 'installed' : distribution ? 'available' : 'unavailable';
  const status = {
    update: `installed · update available: ${installed?.version} → ${latest?.version}`,
    installed: `installed ${installed?.version ?? ''}`.trim(),
    available: '',
    unavailable: `not available for ${platform ?? 'this platform'}`,
  }[state];
  const description = [latest ? `v${latest.version}` : '', latest?.license ?? '', status].filter(Boolean).map((s) => plain(s, 80)).join(' · ');
  const detail = [
    latest?.description ?? 'No longer in the registry (or the registry could not be read).',
    latest?.authors.length ? `by ${latest.authors.join(', ')}` : '',
    distribution ? HOW[distribution.kind] : installed ? HOW[installed.kind] : '',
  ].filter(Boolean).join(' — ');
  return { id, label: plain(latest?.name ?? installed?.name ?? id, 100), description, detail: plain(detail, 300), state, latest, installed };
}

/** Installed agents first, then the rest, each by name. */
export function listing(agents: readonly RegistryAgent[], installed: readonly InstalledAgent[], platform: PlatformKey | undefined): ListingRow[] {
  const byId = new Map(installed.map((a) => [a.id, a]));
  const rows = agents.map((agent) => row(agent, byId.get(agent.id), platform));
  const listed = new Set(agents.map((a) => a.id));
  for (const orphan of installed.filter((a) => !listed.has(a.id))) rows.push(row(undefined, orphan, platform));
  const rank = (r: ListingRow) => (r.installed ? 0 : 1);
  return rows.sort((a, b) => rank(a) - rank(b) || a.label.localeCompare(b.label));
}
