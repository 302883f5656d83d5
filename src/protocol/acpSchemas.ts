// ACP's zod schemas as a bundle of their own (dist/acpSchemas.js, with its own copy of zod),
// which lazySchemas.ts loads at the first use: see there.
export * from './schema';
