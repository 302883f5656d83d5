// Version order for updates: the registry's versions are semantic versions (agent.schema.json:
// "^[0-9]+\.[0-9]+\.[0-9]+"), pre-releases before their release, build metadata ignored.

interface Parsed {
  core: number[];
  pre: string[];
}

function parse(version: string): Parsed {
  const [withoutBuild] = version.split('+', 1);
  const dash = withoutBuild.indexOf('-');
  const core = (dash === -1 ? withoutBuild : withoutBuild.slice(0, dash)).split('.').map((n) => Number.parseInt(n, 10) || 0);
  return { core, pre: dash === -1 ? [] : withoutBuild.slice(dash + 1).split('.') };
}

function compareIdentifiers(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return Math.sign(Number(a) - Number(b));
  if (numeric.test(a) !== numeric.test(b)) return numeric.test(a) ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative when `a` comes before `b`, 0 when they are the same version, positive after. */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < Math.max(pa.core.length, pb.core.length, 3); i++) {
    const diff = (pa.core[i] ?? 0) - (pb.core[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  // A release comes after its pre-releases.
  if (pa.pre.length === 0 || pb.pre.length === 0) return pa.pre.length === pb.pre.length ? 0 : pa.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(pa.pre.length, pb.pre.length); i++) {
    const diff = compareIdentifiers(pa.pre[i], pb.pre[i]);
    if (diff !== 0) return diff;
  }
  return Math.sign(pa.pre.length - pb.pre.length);
}
