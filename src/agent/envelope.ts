import type { Message } from 'vscode-jsonrpc/node';

/**
 * JSON-RPC 2.0 envelope rules, checked before vscode-jsonrpc sees a message: it only logs what
 * it cannot classify, but a peer that sent a broken request is owed a -32600 answer.
 * Anything with an id and no method is handed on as a response: vscode-jsonrpc settles (or
 * rejects) the matching pending request, or logs an unknown id. Answering a response is never right.
 * (ACP has no batches: the SDK, too, answers an array with a single -32600.)
 */
export type EnvelopeCheck =
  | { ok: true; message: Message }
  | { ok: false; problem: string; id: string | number | null; ignore?: true };

type Id = string | number | null;

// A number id must be finite: `1e400` parses to Infinity, which JSON cannot carry back (it is
// written as null), so the agent could never match the answer while its request still ran.
const isId = (v: unknown): v is Id => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || v === null;

export function checkEnvelope(value: unknown): EnvelopeCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: Array.isArray(value) ? 'batches are not supported' : 'a message must be a JSON object', id: null };
  }
  const m = value as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  if (!('method' in m)) {
    if ('id' in m) return { ok: true, message: m as unknown as Message };
    return { ok: false, problem: 'a message needs a method or an id', id: null };
  }
  if (m.jsonrpc !== '2.0') return { ok: false, problem: 'jsonrpc must be "2.0"', id };
  if ('id' in m && !isId(m.id)) return { ok: false, problem: 'id must be a string, a number or null', id: null };
  if (typeof m.method !== 'string') return { ok: false, problem: 'method must be a string', id };
  // vscode-jsonrpc would take a request with id null for a notification and never answer it.
  if (m.id === null) return { ok: false, problem: 'a request id must not be null', id: null };
  if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null)) {
    return { ok: false, problem: 'params must be an object or an array', id };
  }
  // LSP's cancellation is not ACP's (`$/cancel_request`, agent/cancellation.ts): it must cancel
  // nothing, and vscode-jsonrpc trips over a malformed one, so it never reaches it. Only the
  // notification is dropped: a *request* of that name is owed an answer (-32601), or the agent
  // would wait for it forever (found by fuzzing). Checked after the envelope rules, like any method.
  if (m.method === '$/cancelRequest' && !('id' in m)) return { ok: false, problem: 'LSP $/cancelRequest is not part of ACP', id: null, ignore: true };
  return { ok: true, message: m as unknown as Message };
}
