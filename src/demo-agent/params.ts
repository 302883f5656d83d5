// Checks of request params shared by the handlers: a wrong shape gets -32602 saying what is wrong.

import * as path from 'node:path';
import { ErrorCodes, RpcError } from './wire';

export function object(params: unknown, method: string): Record<string, unknown> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw invalidParams(`${method}: params must be an object`);
  }
  return params as Record<string, unknown>;
}

export function absolutePath(value: unknown, method: string, field = 'cwd'): string {
  if (typeof value !== 'string' || !path.isAbsolute(value)) {
    throw invalidParams(`${method}: ${field} must be an absolute path, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function invalidParams(message: string): RpcError {
  return new RpcError(ErrorCodes.invalidParams, message);
}
