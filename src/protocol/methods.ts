import type * as z from 'zod/mini';
import * as s from './schema';

// Every ACP v1 method with its wire name and the schemas of its params and result, for
// building typed requests and handlers. Parse what arrives with these; build what is sent as
// `ParamsOf<M>` / `ResultOf<M>`.

export interface RequestMethod {
  readonly kind: 'request';
  readonly method: string;
  readonly params: z.ZodMiniType;
  readonly result: z.ZodMiniType;
}

/** Gets no response. */
export interface NotificationMethod {
  readonly kind: 'notification';
  readonly method: string;
  readonly params: z.ZodMiniType;
}

export type Method = RequestMethod | NotificationMethod;

export type ParamsOf<M extends Method> = z.output<M['params']>;
export type ResultOf<M extends RequestMethod> = z.output<M['result']>;

/** Methods the agent serves: the client calls these. */
export const agentMethods = {
  initialize: {
    kind: 'request',
    method: 'initialize',
    params: s.InitializeRequestSchema,
    result: s.InitializeResponseSchema,
  },
  authenticate: {
    kind: 'request',
    method: 'authenticate',
    params: s.AuthenticateRequestSchema,
    result: s.AuthenticateResponseSchema,
  },
  logout: {
    kind: 'request',
    method: 'logout',
    params: s.LogoutRequestSchema,
    result: s.LogoutResponseSchema,
  },
  sessionNew: {
    kind: 'request',
    method: 'session/new',
    params: s.NewSessionRequestSchema,
    result: s.NewSessionResponseSchema,
  },
  sessionLoad: {
    kind: 'request',
    method: 'session/load',
    params: s.LoadSessionRequestSchema,
    result: s.LoadSessionResponseSchema,
  },
  sessionResume: {
    kind: 'request',
    method: 'session/resume',
    params: s.ResumeSessionRequestSchema,
    result: s.ResumeSessionResponseSchema,
  },
  sessionList: {
    kind: 'request',
    method: 'session/list',
    params: s.ListSessionsRequestSchema,
    result: s.ListSessionsResponseSchema,
  },
  sessionClose: {
    kind: 'request',
    method: 'session/close',
    params: s.CloseSessionRequestSchema,
    result: s.CloseSessionResponseSchema,
  },
  sessionDelete: {
    kind: 'request',
    method: 'session/delete',
    params: s.DeleteSessionRequestSchema,
    result: s.DeleteSessionResponseSchema,
  },
  sessionSetMode: {
    kind: 'request',
    method: 'session/set_mode',
    params: s.SetSessionModeRequestSchema,
    result: s.SetSessionModeResponseSchema,
  },
  sessionSetConfigOption: {
    kind: 'request',
    method: 'session/set_config_option',
    params: s.SetSessionConfigOptionRequestSchema,
    result: s.SetSessionConfigOptionResponseSchema,
  },
  sessionPrompt: {
    kind: 'request',
    method: 'session/prompt',
    params: s.PromptRequestSchema,
    result: s.PromptResponseSchema,
  },
  sessionCancel: {
    kind: 'notification',
    method: 'session/cancel',
    params: s.CancelNotificationSchema,
  },
} as const satisfies Record<string, Method>;

/**
 * UNSTABLE methods the agent serves (schema.v1.unstable.json, not the stable v1 schema): kept out
 * of `agentMethods`, which is exactly the stable set, so what is used of them is plain to see.
 * Each is called only when the agent advertises it.
 */
export const unstableAgentMethods = {
  /** Gated by `sessionCapabilities.fork`. */
  sessionFork: {
    kind: 'request',
    method: 'session/fork',
    params: s.ForkSessionRequestSchema,
    result: s.ForkSessionResponseSchema,
  },
} as const satisfies Record<string, Method>;

/** Methods the client serves: the agent calls these. */
export const clientMethods = {
  sessionUpdate: {
    kind: 'notification',
    method: 'session/update',
    params: s.SessionNotificationSchema,
  },
  sessionRequestPermission: {
    kind: 'request',
    method: 'session/request_permission',
    params: s.RequestPermissionRequestSchema,
    result: s.RequestPermissionResponseSchema,
  },
  fsReadTextFile: {
    kind: 'request',
    method: 'fs/read_text_file',
    params: s.ReadTextFileRequestSchema,
    result: s.ReadTextFileResponseSchema,
  },
  fsWriteTextFile: {
    kind: 'request',
    method: 'fs/write_text_file',
    params: s.WriteTextFileRequestSchema,
    result: s.WriteTextFileResponseSchema,
  },
  terminalCreate: {
    kind: 'request',
    method: 'terminal/create',
    params: s.CreateTerminalRequestSchema,
    result: s.CreateTerminalResponseSchema,
  },
  terminalOutput: {
    kind: 'request',
    method: 'terminal/output',
    params: s.TerminalOutputRequestSchema,
    result: s.TerminalOutputResponseSchema,
  },
  terminalWaitForExit: {
    kind: 'request',
    method: 'terminal/wait_for_exit',
    params: s.WaitForTerminalExitRequestSchema,
    result: s.WaitForTerminalExitResponseSchema,
  },
  terminalKill: {
    kind: 'request',
    method: 'terminal/kill',
    params: s.KillTerminalRequestSchema,
    result: s.KillTerminalResponseSchema,
  },
  terminalRelease: {
    kind: 'request',
    method: 'terminal/release',
    params: s.ReleaseTerminalRequestSchema,
    result: s.ReleaseTerminalResponseSchema,
  },
  elicitationCreate: {
    kind: 'request',
    method: 'elicitation/create',
    params: s.CreateElicitationRequestSchema,
    result: s.CreateElicitationResponseSchema,
  },
  elicitationComplete: {
    kind: 'notification',
    method: 'elicitation/complete',
    params: s.CompleteElicitationNotificationSchema,
  },
} as const satisfies Record<string, Method>;

/** Methods either side may send. Support is optional; an unsupported `$/…` notification is ignored. */
export const protocolMethods = {
  cancelRequest: {
    kind: 'notification',
    method: '$/cancel_request',
    params: s.CancelRequestNotificationSchema,
  },
} as const satisfies Record<string, Method>;
