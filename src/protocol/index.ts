// The ACP v1 protocol layer: wire types, their zod schemas (lenient where the spec asks
// receivers to be), the method table, error codes and the protocol version. Pure TypeScript.
export * from './schema';
export * from './methods';
export * from './errors';
export * from './version';
