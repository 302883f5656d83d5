// ACP's zod schemas, built at their first use rather than when the extension loads. Building
// them (a few hundred zod objects) was the largest part of loading the extension's bundle, and
// activation and the panel's first paint need none of them: they validate what an agent sends
// and what is sent to it, and no agent runs before the user starts one. A `require` here is a
// deferred module in esbuild's bundle (evaluated at the first call) and a plain one under tsc.

export type AcpSchemas = typeof import('./schema');

let schemas: AcpSchemas | undefined;

export function acpSchemas(): AcpSchemas {
  return (schemas ??= require('./schema') as AcpSchemas);
}
