import * as z from 'zod/mini';
import { int64, meta } from './common';

/** JSON-RPC request id: string, integer, or (discouraged, but allowed) null. */
export const RequestIdSchema = z.union([z.null(), int64, z.string()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

/**
 * The JSON-RPC error object (`$defs/Error`). `code` is any int32: ACP names a few (see
 * errors.ts), and peers may use others.
 */
export const JsonRpcErrorSchema = z.object({
  code: z.number().check(z.int()),
  message: z.string(),
  data: z.optional(z.unknown()),
});
export type JsonRpcError = z.infer<typeof JsonRpcErrorSchema>;

/**
 * `$/cancel_request`: either side asks the other to abort a request it sent earlier. The
 * original request must still be answered (with its result or error -32800).
 */
export const CancelRequestNotificationSchema = z.object({
  requestId: RequestIdSchema,
  ...meta,
});
export type CancelRequestNotification = z.infer<typeof CancelRequestNotificationSchema>;
