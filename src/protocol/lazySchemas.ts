// ACP's zod schemas, built at their first use rather than when the extension loads. Building
// them (a few hundred zod objects) was the largest part of loading the extension's bundle, and
// activation and the panel's first paint need none of them: they validate what an agent sends
// and what is sent to it, and no agent runs before the user starts one. They are bundled apart
// (dist/acpSchemas.js beside dist/main.js; out/…/acpSchemas.js under tsc): deferred inside main.js, they and the zod they share with it had to be
// wrapped in esbuild's lazy modules, which made main.js 10 KB bigger. Nothing compares their
// zod objects with those of main.js's own zod (errors.ts formatZodError reads `issues`).

export type AcpSchemas = typeof import('./acpSchemas');

let schemas: AcpSchemas | undefined;

export function acpSchemas(): AcpSchemas {
  return (schemas ??= require(`${__dirname}/acpSchemas.js`) as AcpSchemas);
}
