// What an ACP Registry agent runs on this machine: its platform key, which of its distributions
// to use, and the command line that distribution makes. No `vscode`: unit-tested in plain Node.
import * as path from 'node:path';
import { npx } from '../presets';
import type { BinaryTarget, PackageDistribution, PlatformKey, RegistryAgent } from './registrySchema';
import { PLATFORM_KEYS } from './registrySchema';

const OS: Partial<Record<NodeJS.Platform, string>> = { darwin: 'darwin', linux: 'linux', win32: 'windows' };
const CPU: Partial<Record<string, string>> = { arm64: 'aarch64', x64: 'x86_64' };

/** This machine's key in an agent's `binary` map, or undefined where the format names none. */
export function platformKey(platform: NodeJS.Platform = process.platform, arch: string = process.arch): PlatformKey | undefined {
  const key = `${OS[platform]}-${CPU[arch]}`;
  return PLATFORM_KEYS.find((k) => k === key);
}

export type Distribution =
  | { kind: 'binary'; target: BinaryTarget }
  | { kind: 'npx'; pkg: PackageDistribution }
  | { kind: 'uvx'; pkg: PackageDistribution };

/**
 * The distribution to install: this platform's binary first (it needs nothing else on the
 * machine), else npx (Node.js), else uvx (uv); undefined when none runs here.
 */
export function chooseDistribution(agent: RegistryAgent, platform: PlatformKey | undefined): Distribution | undefined {
  const { binary, npx: npxPkg, uvx } = agent.distribution;
  const target = platform && binary && Object.hasOwn(binary, platform) ? binary[platform] : undefined;
  if (target) return { kind: 'binary', target };
  if (npxPkg) return { kind: 'npx', pkg: npxPkg };
  if (uvx) return { kind: 'uvx', pkg: uvx };
  return undefined;
}

/**
 * `name@version`, pinned to the index's version unless the package already names one
 * ("@google/gemini-cli@0.27.3", "pkg==1.0"): never whatever `latest` is the day it starts.
 */
export function pinnedPackage(pkg: string, version: string): string {
  const bare = pkg.startsWith('@') ? pkg.slice(1) : pkg;
  return /[@=<>~]/.test(bare) ? pkg : `${pkg}@${version}`;
}

export interface RegistryLaunch {
  kind: Distribution['kind'];
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The command line of a package distribution (`npx -y pkg@v …`, `uvx pkg@v …`). */
export function packageLaunch(kind: 'npx' | 'uvx', pkg: PackageDistribution, version: string, platform: NodeJS.Platform = process.platform): RegistryLaunch {
  const spec = pinnedPackage(pkg.package, version);
  // -y: npx would otherwise ask on the agent's stdin whether to install.
  if (kind === 'npx') return { kind, command: npx(platform), args: ['-y', spec, ...pkg.args], env: { ...pkg.env } };
  return { kind, command: 'uvx', args: [spec, ...pkg.args], env: { ...pkg.env } };
}

/** The command line of an unpacked binary: `cmd` inside `dir`, refused if it names a path outside it. */
export function binaryLaunch(target: BinaryTarget, dir: string): RegistryLaunch {
  return { kind: 'binary', command: insideFolder(dir, target.cmd), args: [...target.args], env: { ...target.env } };
}

/**
 * `name` (an archive entry, a `cmd`) resolved inside `root`; throws when it is absolute or climbs
 * out ("../x", "a/../../x", "C:\\x", "\\\\server\\x"): the zip-slip check every entry passes.
 */
export function insideFolder(root: string, name: string): string {
  const normalized = name.replace(/\\/g, '/');
  if (normalized === '' || normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized) || normalized.includes('\0')) {
    throw new Error(`"${name}" is not a relative path inside the archive`);
  }
  const resolved = path.resolve(root, normalized);
  const relative = path.relative(path.resolve(root), resolved);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`"${name}" points outside the agent's folder`);
  return resolved;
}
