import vscode = require('vscode');
import { COMMAND_CHARS, shown } from '../../base/shownText';
import { launchIdentity } from '../../runtime/agentIdentity';
import type { SecretOwner } from '../../runtime/agentIdentity';
import { agentPresets } from '../../runtime/presets';
import type { LoginTerminalResult, LoginTerminalSpec } from '../../runtime/ports';
import { legacySecretKey, owns, planMigration, readIndex, readLegacyIndex, secretKey, varsOf, withVar } from './secretIndex';
import type { SecretIndex } from './secretIndex';

/** globalState keys of the index of stored secrets (secretIndex.ts), and of the older one by agent name alone. */
const INDEX_KEY = 'acpHost.agentSecretIndex';
const LEGACY_INDEX_KEY = 'acpHost.agentSecretNames';

/** Asks for one secret value; undefined = cancelled. */
export type SecretPrompter = (agentName: string, varName: string, prompt: string) => Promise<string | undefined>;

const inputBoxPrompter: SecretPrompter = async (agentName, varName, prompt) =>
  vscode.window.showInputBox({
    // The agent wrote the prompt and the variable's name: escaped, capped (shownText.ts).
    title: `Sign in to ${shown(agentName)}`,
    prompt: `${shown(prompt, COMMAND_CHARS)}. Stored in VS Code's secret storage and passed to ${shown(agentName)} as ${shown(varName)}.`,
    placeHolder: varName,
    password: true,
    ignoreFocusOut: true,
  });

/**
 * The values of `env_var` sign-ins: in VS Code's SecretStorage (the OS keychain), one entry per
 * agent and variable, laid over that agent's environment on every start. An agent is its name
 * and its launch identity: a value entered for one command never reaches another command that
 * took the same name (a workspace's "Claude Code"). Only the variable names are kept elsewhere
 * (globalState), so they can be listed and forgotten. Values are never logged.
 */
export class AgentSecrets {
  /** How a value is asked for: the password InputBox; integration tests replace it. */
  prompter: SecretPrompter = inputBoxPrompter;
  private migrated: Promise<void> | undefined;

  /** `ownIdentity(name)`: the identity of the user's own agent of that name (see `migrate`). */
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: (message: string) => void,
    private readonly ownIdentity: (agentName: string) => string | undefined,
  ) {}

  /** Asks for the value of `varName` and stores it; undefined (nothing stored) when cancelled or empty. */
  async ask(owner: SecretOwner, varName: string, prompt: string): Promise<string | undefined> {
    const value = await this.prompter(owner.name, varName, prompt);
    if (!value) return undefined;
    await this.store(owner, varName, value);
    return value;
  }

  async store(owner: SecretOwner, varName: string, value: string): Promise<void> {
    await this.migrate();
    await this.context.secrets.store(secretKey(owner, varName), value);
    await this.context.globalState.update(INDEX_KEY, withVar(this.index(), owner, varName));
  }

  /** The stored values of exactly this agent (name and identity), by variable name. */
  async stored(owner: SecretOwner): Promise<Record<string, string>> {
    await this.migrate();
    const out: Record<string, string> = {};
    for (const varName of varsOf(this.index(), owner)) {
      const value = await this.context.secrets.get(secretKey(owner, varName));
      if (value !== undefined) out[varName] = value;
    }
    return out;
  }

  /** Forgets every stored secret (of the agents of one name, or of all); returns how many were dropped. */
  async forget(agentName?: string): Promise<number> {
    const count = await this.drop((entry) => agentName === undefined || entry.name === agentName);
    this.log(`Forgot ${count} stored agent secret${count === 1 ? '' : 's'}${agentName ? ` of ${agentName}` : ''}`);
    return count;
  }

  /** Forgets what is stored for exactly this agent (its name and identity: not a namesake's), when it signs out. */
  async forgetOwner(owner: SecretOwner): Promise<number> {
    const count = await this.drop((entry) => owns(entry, owner));
    this.log(`Forgot ${count} stored secret${count === 1 ? '' : 's'} of ${owner.name}, which signed out`);
    return count;
  }

  /** Deletes the values of the index entries that match, and those entries; returns how many values went. */
  private async drop(matches: (entry: SecretOwner) => boolean): Promise<number> {
    await this.migrate();
    let count = 0;
    const index = this.index();
    for (const entry of index.filter(matches)) {
      for (const varName of entry.vars) {
        await this.context.secrets.delete(secretKey(entry, varName));
        count++;
      }
    }
    await this.context.globalState.update(INDEX_KEY, index.filter((entry) => !matches(entry)));
    return count;
  }

  private index(): SecretIndex {
    return readIndex(this.context.globalState.get<unknown>(INDEX_KEY));
  }

  /**
   * Once: secrets stored by earlier versions under an agent's name alone go to the user's own
   * agent of that name (their settings' entry, else the built-in one); those of a name the user
   * has no agent of are deleted (asked again when needed), never handed to a workspace's agent.
   * A failure is logged: the old entries then stay unread, which gives no agent anything.
   */
  private migrate(): Promise<void> {
    this.migrated ??= this.moveLegacy().then(() => this.moveRenamedPresets()).catch((error: Error) => this.log(`Could not move the stored agent secrets to their agents: ${error.message}`));
    return this.migrated;
  }

  /**
   * Secrets of a preset stored under a name it had before (the built-in "Claude Code", now
   * "Claude Agent") go to its current name; a variable the new name has already keeps its value.
   * A user's own agent that still goes by the former name has an identity of its own: untouched.
   * Public for the integration tests; runs once with `migrate`, before any secret is read.
   */
  async moveRenamedPresets(): Promise<void> {
    const builtin = launchIdentity({ kind: 'builtin' }, '', []);
    let index = this.index();
    for (const { name, formerNames } of agentPresets()) {
      for (const former of formerNames) {
        const from = { name: former, identity: builtin };
        const to = { name, identity: builtin };
        const vars = varsOf(index, from);
        if (vars.length === 0) continue;
        const kept = new Set(varsOf(index, to));
        for (const varName of vars) {
          const value = await this.context.secrets.get(secretKey(from, varName));
          if (value !== undefined && !kept.has(varName)) {
            await this.context.secrets.store(secretKey(to, varName), value);
            index = withVar(index, to, varName);
          }
          await this.context.secrets.delete(secretKey(from, varName));
        }
        index = index.filter((entry) => !(entry.name === former && entry.identity === builtin));
        await this.context.globalState.update(INDEX_KEY, index);
        this.log(`Stored secrets of ${former} now belong to ${name}, its new name`);
      }
    }
  }

  private async moveLegacy(): Promise<void> {
    const raw = this.context.globalState.get<unknown>(LEGACY_INDEX_KEY);
    if (raw === undefined) return;
    const { moves, dropped } = planMigration(readLegacyIndex(raw), this.ownIdentity);
    let index = this.index();
    for (const { owner, varName } of moves) {
      const value = await this.context.secrets.get(legacySecretKey(owner.name, varName));
      if (value === undefined) continue;
      await this.context.secrets.store(secretKey(owner, varName), value);
      index = withVar(index, owner, varName);
    }
    await this.context.globalState.update(INDEX_KEY, index);
    for (const { name, varName } of [...moves.map((m) => ({ name: m.owner.name, varName: m.varName })), ...dropped]) {
      await this.context.secrets.delete(legacySecretKey(name, varName));
    }
    await this.context.globalState.update(LEGACY_INDEX_KEY, undefined);
    const gone = [...new Set(dropped.map((d) => d.name))];
    this.log(`Stored agent secrets are now bound to each agent's command: ${moves.length} kept for your own agents${gone.length ? `, ${dropped.length} deleted (no agent of yours is named ${gone.join(', ')})` : ''}`);
  }
}

/**
 * A `terminal` sign-in: the login command (the agent's own, with the method's args), in a real
 * VS Code terminal the user can type into, shown with focus. Resolves when the terminal closes,
 * with the process's exit code (undefined when the user closed it first). The env is the agent's
 * launch env exactly (`strictEnv`: not the window's, with the extension host's internals), passed
 * to the terminal only, never logged.
 */
export function runLoginTerminal(spec: LoginTerminalSpec): Promise<LoginTerminalResult> {
  // Loaded with the agent stack, which a sign-in follows (an agent runs): not at activation.
  const { processMark } = require('../../agent/processMark') as typeof import('../../agent/processMark');
  const terminal = vscode.window.createTerminal({
    name: `Sign in: ${spec.agentName}`,
    shellPath: spec.command,
    shellArgs: spec.args,
    // Marked like the agent: what the sign-in leaves running ends with the window (processMark.ts).
    env: processMark.on(spec.env),
    strictEnv: true,
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

/**
 * The older terminal sign-in names a program of the agent's choosing (runtime/loginCommand.ts):
 * a modal dialog shows the exact command line, and only Run runs it.
 */
export async function confirmLoginCommand(agentName: string, commandLine: string, agentCommand: string): Promise<boolean> {
  const run = 'Run in a Terminal';
  // The command line first, and every value escaped and capped (shownText.ts): the agent chose the command, the settings the name.
  const [name, line] = [shown(agentName), shown(commandLine, COMMAND_CHARS)];
  const answer = await vscode.window.showWarningMessage(
    `${name} asks to run a command of its choosing to sign in`,
    {
      modal: true,
      detail: `${line}\n\nThis is not ${name}'s own command (${shown(agentCommand, COMMAND_CHARS)}). Run it only if you trust it: it runs as you, in a terminal you type your credentials into.`,
    },
    run,
  );
  return answer === run;
}
