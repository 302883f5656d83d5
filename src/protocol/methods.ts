import type * as z from 'zod/mini';
import { acpSchemas } from './lazySchemas';
import type { AcpSchemas } from './lazySchemas';

// Every ACP v1 method with its wire name and the schemas of its params and result, for
// building typed requests and handlers. Parse what arrives with these; build what is sent as
// `ParamsOf<M>` / `ResultOf<M>`. A method's schemas are built when they are first read (the
// connection's first message of that method, lazySchemas.ts): the names are all a session
// needs before an agent starts.

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

function request<P extends z.ZodMiniType, R extends z.ZodMiniType>(method: string, params: (s: AcpSchemas) => P, result: (s: AcpSchemas) => R) {
  return {
    kind: 'request' as const,
    method,
    get params(): P {
      return params(acpSchemas());
    },
    get result(): R {
      return result(acpSchemas());
    },
  };
}

function notification<P extends z.ZodMiniType>(method: string, params: (s: AcpSchemas) => P) {
  return {
    kind: 'notification' as const,
    method,
    get params(): P {
      return params(acpSchemas());
    },
  };
}

/** Methods the agent serves: the client calls these. */
export const agentMethods = {
  initialize: request('initialize', (s) => s.InitializeRequestSchema, (s) => s.InitializeResponseSchema),
  authenticate: request('authenticate', (s) => s.AuthenticateRequestSchema, (s) => s.AuthenticateResponseSchema),
  logout: request('logout', (s) => s.LogoutRequestSchema, (s) => s.LogoutResponseSchema),
  sessionNew: request('session/new', (s) => s.NewSessionRequestSchema, (s) => s.NewSessionResponseSchema),
  sessionLoad: request('session/load', (s) => s.LoadSessionRequestSchema, (s) => s.LoadSessionResponseSchema),
  sessionResume: request('session/resume', (s) => s.ResumeSessionRequestSchema, (s) => s.ResumeSessionResponseSchema),
  sessionList: request('session/list', (s) => s.ListSessionsRequestSchema, (s) => s.ListSessionsResponseSchema),
  sessionClose: request('session/close', (s) => s.CloseSessionRequestSchema, (s) => s.CloseSessionResponseSchema),
  sessionDelete: request('session/delete', (s) => s.DeleteSessionRequestSchema, (s) => s.DeleteSessionResponseSchema),
  sessionSetMode: request('session/set_mode', (s) => s.SetSessionModeRequestSchema, (s) => s.SetSessionModeResponseSchema),
  sessionSetConfigOption: request('session/set_config_option', (s) => s.SetSessionConfigOptionRequestSchema, (s) => s.SetSessionConfigOptionResponseSchema),
  sessionPrompt: request('session/prompt', (s) => s.PromptRequestSchema, (s) => s.PromptResponseSchema),
  sessionCancel: notification('session/cancel', (s) => s.CancelNotificationSchema),
} satisfies Record<string, Method>;

/**
 * UNSTABLE methods the agent serves (schema.v1.unstable.json, not the stable v1 schema): kept out
 * of `agentMethods`, which is exactly the stable set, so what is used of them is plain to see.
 * Each is called only when the agent advertises it.
 */
export const unstableAgentMethods = {
  /** Gated by `sessionCapabilities.fork`. */
  sessionFork: request('session/fork', (s) => s.ForkSessionRequestSchema, (s) => s.ForkSessionResponseSchema),
} satisfies Record<string, Method>;

/** Methods the client serves: the agent calls these. */
export const clientMethods = {
  sessionUpdate: notification('session/update', (s) => s.SessionNotificationSchema),
  sessionRequestPermission: request('session/request_permission', (s) => s.RequestPermissionRequestSchema, (s) => s.RequestPermissionResponseSchema),
  fsReadTextFile: request('fs/read_text_file', (s) => s.ReadTextFileRequestSchema, (s) => s.ReadTextFileResponseSchema),
  fsWriteTextFile: request('fs/write_text_file', (s) => s.WriteTextFileRequestSchema, (s) => s.WriteTextFileResponseSchema),
  terminalCreate: request('terminal/create', (s) => s.CreateTerminalRequestSchema, (s) => s.CreateTerminalResponseSchema),
  terminalOutput: request('terminal/output', (s) => s.TerminalOutputRequestSchema, (s) => s.TerminalOutputResponseSchema),
  terminalWaitForExit: request('terminal/wait_for_exit', (s) => s.WaitForTerminalExitRequestSchema, (s) => s.WaitForTerminalExitResponseSchema),
  terminalKill: request('terminal/kill', (s) => s.KillTerminalRequestSchema, (s) => s.KillTerminalResponseSchema),
  terminalRelease: request('terminal/release', (s) => s.ReleaseTerminalRequestSchema, (s) => s.ReleaseTerminalResponseSchema),
  elicitationCreate: request('elicitation/create', (s) => s.CreateElicitationRequestSchema, (s) => s.CreateElicitationResponseSchema),
  elicitationComplete: notification('elicitation/complete', (s) => s.CompleteElicitationNotificationSchema),
} satisfies Record<string, Method>;

/** Methods either side may send. Support is optional; an unsupported `$/…` notification is ignored. */
export const protocolMethods = {
  cancelRequest: notification('$/cancel_request', (s) => s.CancelRequestNotificationSchema),
} satisfies Record<string, Method>;
