import * as z from 'zod/mini';
import { emptyObject, EnvVariableSchema, meta, uint32, uint64 } from './common';
import { emptyOnNull, lenientNullable, nullAsEmpty } from './lenient';

// Client terminals, gated by `clientCapabilities.terminal` (which promises all five methods).

/** Answer at once with the id; the command keeps running. v1 leaves shell use and quoting open. */
export const CreateTerminalRequestSchema = z.object({
  sessionId: z.string(),
  command: z.string(),
  args: z.optional(emptyOnNull(z.array(z.string()), [])),
  env: z.optional(emptyOnNull(z.array(EnvVariableSchema), [])),
  /** Absolute; absent or null means the session's cwd. */
  cwd: lenientNullable(z.string()),
  /** Keep at most this many bytes, dropping from the start at a character boundary. */
  outputByteLimit: lenientNullable(uint64),
  ...meta,
});
export type CreateTerminalRequest = z.infer<typeof CreateTerminalRequestSchema>;

export const CreateTerminalResponseSchema = z.object({
  terminalId: z.string(),
  ...meta,
});
export type CreateTerminalResponse = z.infer<typeof CreateTerminalResponseSchema>;

const terminalRef = {
  sessionId: z.string(),
  terminalId: z.string(),
  ...meta,
};

export const TerminalExitStatusSchema = z.object({
  exitCode: lenientNullable(uint32),
  /** Set when a signal ended the process. */
  signal: lenientNullable(z.string()),
  ...meta,
});
export type TerminalExitStatus = z.infer<typeof TerminalExitStatusSchema>;

/** Never waits. */
export const TerminalOutputRequestSchema = z.object(terminalRef);
export type TerminalOutputRequest = z.infer<typeof TerminalOutputRequestSchema>;

export const TerminalOutputResponseSchema = z.object({
  output: z.string(),
  /** Output was dropped from the start to respect `outputByteLimit`. */
  truncated: z.boolean(),
  /** Only once the process has exited. */
  exitStatus: lenientNullable(TerminalExitStatusSchema),
  ...meta,
});
export type TerminalOutputResponse = z.infer<typeof TerminalOutputResponseSchema>;

/** Answered when the process exits. */
export const WaitForTerminalExitRequestSchema = z.object(terminalRef);
export type WaitForTerminalExitRequest = z.infer<typeof WaitForTerminalExitRequestSchema>;

export const WaitForTerminalExitResponseSchema = nullAsEmpty(TerminalExitStatusSchema);
export type WaitForTerminalExitResponse = z.infer<typeof WaitForTerminalExitResponseSchema>;

/** Stops the process; the id stays valid for output and wait_for_exit. */
export const KillTerminalRequestSchema = z.object(terminalRef);
export type KillTerminalRequest = z.infer<typeof KillTerminalRequestSchema>;

export const KillTerminalResponseSchema = emptyObject();
export type KillTerminalResponse = z.infer<typeof KillTerminalResponseSchema>;

/** Kills the process if needed and invalidates the id; embedded terminals keep showing their output. */
export const ReleaseTerminalRequestSchema = z.object(terminalRef);
export type ReleaseTerminalRequest = z.infer<typeof ReleaseTerminalRequestSchema>;

export const ReleaseTerminalResponseSchema = emptyObject();
export type ReleaseTerminalResponse = z.infer<typeof ReleaseTerminalResponseSchema>;
