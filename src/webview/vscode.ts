import type { ViewToHost } from './protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called only once per page load: every module goes through this one.
const api = acquireVsCodeApi();

export function post(message: ViewToHost): void {
  api.postMessage(message);
}

/** What survives a reload of the webview (VS Code keeps it while the view lives). */
export function loadState(): unknown {
  return api.getState();
}

export function saveState(state: unknown): void {
  api.setState(state);
}
