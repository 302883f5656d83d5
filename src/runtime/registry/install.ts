// Installing an ACP Registry agent: a package distribution is its pinned command line (npx or
// uvx fetch it when it starts); a binary is downloaded, checked against its sha256 when the index
// has one, unpacked into agents/<id>/<version>/ and made executable. A failure leaves nothing
// behind. No `vscode`: the host gives the folder, the progress and the signal.
import { chmod, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { binaryLaunch, chooseDistribution, insideFolder, packageLaunch } from './distribution';
import type { RegistryLaunch } from './distribution';
import { checkSha256, downloadFile } from './download';
import type { FetchOptions } from './download';
import type { InstalledAgent } from './installed';
import type { PlatformKey, RegistryAgent } from './registrySchema';

/** Largest download, and largest unpacked archive: real agents' archives are tens of MB. */
export const MAX_ARCHIVE_BYTES = 512 * 1024 * 1024;
export const MAX_UNPACKED_BYTES = 2 * MAX_ARCHIVE_BYTES;

export interface InstallOptions extends Omit<FetchOptions, 'maxBytes'> {
  /** Where agents are unpacked: global storage's agents/. */
  root: string;
  platform: PlatformKey | undefined;
  nodePlatform?: NodeJS.Platform;
}

function record(agent: RegistryAgent, launch: RegistryLaunch, dir?: string): InstalledAgent {
  return { id: agent.id, name: agent.name, version: agent.version, ...launch, ...(dir ? { dir } : {}) };
}

/**
 * archive.ts with tar and yauzl, loaded when a binary is installed: the build bundles it apart
 * (dist/archive.js, beside dist/extension.js; out/…/archive.js under tsc), so the extension's own
 * bundle, loaded at every activation, does not carry them.
 */
function archives(): typeof import('./archive') {
  return require(path.join(__dirname, 'archive.js')) as typeof import('./archive');
}

export async function installAgent(agent: RegistryAgent, options: InstallOptions): Promise<InstalledAgent> {
  const distribution = chooseDistribution(agent, options.platform);
  if (!distribution) throw new Error(`${agent.name} has no distribution for ${options.platform ?? 'this platform'}.`);
  if (distribution.kind !== 'binary') return record(agent, packageLaunch(distribution.kind, distribution.pkg, agent.version, options.nodePlatform));
  const { target } = distribution;
  const { archiveKind, unpack } = archives();
  const kind = archiveKind(target.archive);
  const agentDir = path.join(options.root, agent.id);
  const final = path.join(agentDir, agent.version);
  await mkdir(agentDir, { recursive: true });
  const staging = await mkdtemp(path.join(agentDir, '.install-'));
  try {
    const download = path.join(staging, 'download');
    const { sha256 } = await downloadFile(target.archive, download, { ...options, maxBytes: MAX_ARCHIVE_BYTES });
    checkSha256(target.sha256, sha256, `The download of ${agent.name} ${agent.version}`);
    const files = path.join(staging, 'files');
    await mkdir(files);
    await unpack(download, kind, files, target.cmd, MAX_UNPACKED_BYTES);
    const command = insideFolder(files, target.cmd);
    if (!(await stat(command).catch(() => undefined))?.isFile()) throw new Error(`${agent.name}'s archive has no file ${target.cmd}`);
    if ((options.nodePlatform ?? process.platform) !== 'win32') await chmod(command, 0o755);
    await rm(final, { recursive: true, force: true });
    await rename(files, final);
    return record(agent, binaryLaunch(target, final), final);
  } finally {
    await rm(staging, { recursive: true, force: true });
    await removeIfEmpty(agentDir);
  }
}

/** Deletes an installed version's folder (and the agent's, once it holds nothing else). */
export async function removeInstalled(root: string, agent: InstalledAgent): Promise<void> {
  // Only a folder of ours: agents/<id>/<version> under `root`.
  if (agent.dir && path.dirname(path.dirname(agent.dir)) === path.resolve(root)) await rm(agent.dir, { recursive: true, force: true });
  await removeIfEmpty(path.join(root, agent.id));
}

async function removeIfEmpty(dir: string): Promise<void> {
  const left = await readdir(dir).catch(() => undefined);
  if (left && left.length === 0) await rmdir(dir).catch(() => undefined);
}
