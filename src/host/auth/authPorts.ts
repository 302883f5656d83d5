import * as vscode from 'vscode';
import type { LoginTerminalResult, LoginTerminalSpec } from '../../runtime/ports';

/** globalState key of the names (never the values) of the secrets stored per agent. */
const INDEX_KEY = 'acpHost.agentSecretNames';
type SecretIndex = Record<string, string[]>;

/** The SecretStorage key of one agent's variable. */
function secretKey(agentName: string, varName: string): string {
  return `acpHost.agentSecret:${JSON.stringify([agentName, varName])}`;
}

/** Asks for one secret value; undefined = cancelled. */
export type SecretPrompter = (agentName: string, varName: string, prompt: string) => Promise<string | undefined>;

const inputBoxPrompter: SecretPrompter = async (agentName, varName, prompt) =>
  vscode.window.showInputBox({
    title: `Sign in to ${agentName}`,
    prompt: `${prompt}. Stored in VS Code's secret storage and passed to ${agentName} as ${varName}.`,
    placeHolder: varName,
    password: true,
    ignoreFocusOut: true,
  });

/**
 * The values of `env_var` sign-ins: in VS Code's SecretStorage (the OS keychain), one entry per
 * agent and variable, laid over that agent's environment on every start. Only the variable names
 * are kept elsewhere (globalState), so they can be listed and forgotten. Values are never logged.
 */
export class AgentSecrets {
  /** How a value is asked for: the password InputBox; integration tests replace it. */
  prompter: SecretPrompter = inputBoxPrompter;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: (message: string) => void,
  ) {}

  /** Asks for the value of `varName` and stores it; undefined (nothing stored) when cancelled or empty. */
  async ask(agentName: string, varName: string, prompt: string): Promise<string | undefined> {
    const value = await this.prompter(agentName, varName, prompt);
    if (!value) return undefined;
    await this.store(agentName, varName, value);
    return value;
  }

  async store(agentName: string, varName: string, value: string): Promise<void> {
    await this.context.secrets.store(secretKey(agentName, varName), value);
    const index = this.index();
    const names = new Set(index[agentName] ?? []).add(varName);
    await this.context.globalState.update(INDEX_KEY, { ...index, [agentName]: [...names] });
  }

  /** The stored values of this agent, by variable name. */
  async stored(agentName: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const varName of this.index()[agentName] ?? []) {
      const value = await this.context.secrets.get(secretKey(agentName, varName));
      if (value !== undefined) out[varName] = value;
    }
    return out;
  }

  /** Moves the secrets stored for `from` to `to` (a preset renamed); a variable `to` has already keeps its value. */
  async renameAgent(from: string, to: string): Promise<void> {
    if (!this.index()[from]) return;
    const kept = await this.stored(to);
    for (const [varName, value] of Object.entries(await this.stored(from))) if (!(varName in kept)) await this.store(to, varName, value);
    this.log(`Stored secrets of ${from} now belong to ${to}, its new name`);
    await this.forget(from);
  }

  /** Forgets every stored secret (of one agent, or of all); returns how many were dropped. */
  async forget(agentName?: string): Promise<number> {
    const index = this.index();
    let count = 0;
    for (const [agent, names] of Object.entries(index)) {
      if (agentName !== undefined && agent !== agentName) continue;
      for (const varName of names) {
        await this.context.secrets.delete(secretKey(agent, varName));
        count++;
      }
      delete index[agent];
    }
    await this.context.globalState.update(INDEX_KEY, index);
    this.log(`Forgot ${count} stored agent secret${count === 1 ? '' : 's'}${agentName ? ` of ${agentName}` : ''}`);
    return count;
  }

  private index(): SecretIndex {
    const raw = this.context.globalState.get<unknown>(INDEX_KEY);
    if (typeof raw !== 'object' || raw === null) return {};
    const index: SecretIndex = {};
    for (const [agent, names] of Object.entries(raw)) {
      if (Array.isArray(names)) index[agent] = names.filter((n): n is string => typeof n === 'string');
    }
    return index;
  }
}

/**
 * A `terminal` sign-in: the agent's own command with the method's args, in a real VS Code
 * terminal the user can type into, shown with focus. Resolves when the terminal closes, with the
 * process's exit code (undefined when the user closed it first). The env is passed to the
 * terminal only, never logged.
 */
export function runLoginTerminal(spec: LoginTerminalSpec): Promise<LoginTerminalResult> {
  const terminal = vscode.window.createTerminal({
    name: `Sign in: ${spec.agentName}`,
    shellPath: spec.command,
    shellArgs: spec.args,
    env: spec.env,
    cwd: spec.cwd,
    isTransient: true,
  });
  return new Promise((resolve) => {
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      closed.dispose();
      const status = t.exitStatus;
      // A user who closed the terminal cancelled the sign-in, whatever the code.
      resolve({ exitCode: status && status.reason !== vscode.TerminalExitReason.User ? status.code : undefined });
    });
    terminal.show(false);
  });
}
