import * as z from 'zod/mini';
import { EnvVariableSchema, meta } from './common';
import { emptyOnNull } from './lenient';

// MCP servers the client asks the agent to connect to (`mcpServers` of session/new|load|resume).
// Every field the schema requires is required here too, so what we send is always complete
// (an empty `args`, `env` or `headers` is sent as `[]`).

export const HttpHeaderSchema = z.object({
  name: z.string(),
  value: z.string(),
  ...meta,
});
export type HttpHeader = z.infer<typeof HttpHeaderSchema>;

/** Needs `mcpCapabilities.http`. */
export const McpServerHttpSchema = z.object({
  type: z.literal('http'),
  name: z.string(),
  url: z.string(),
  headers: emptyOnNull(z.array(HttpHeaderSchema), []),
  ...meta,
});
export type McpServerHttp = z.infer<typeof McpServerHttpSchema>;

/** Needs `mcpCapabilities.sse`; deprecated by MCP. */
export const McpServerSseSchema = z.object({
  type: z.literal('sse'),
  name: z.string(),
  url: z.string(),
  headers: emptyOnNull(z.array(HttpHeaderSchema), []),
  ...meta,
});
export type McpServerSse = z.infer<typeof McpServerSseSchema>;

/** Has no `type` on the wire. Every agent supports it. */
export const McpServerStdioSchema = z.object({
  name: z.string(),
  /** An absolute path. */
  command: z.string(),
  args: emptyOnNull(z.array(z.string()), []),
  env: emptyOnNull(z.array(EnvVariableSchema), []),
  ...meta,
});
export type McpServerStdio = z.infer<typeof McpServerStdioSchema>;

export const McpServerSchema = z.union([McpServerHttpSchema, McpServerSseSchema, McpServerStdioSchema]);
export type McpServer = z.infer<typeof McpServerSchema>;
