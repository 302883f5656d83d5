/**
 * Editors started from a GUI lack the PATH that nvm, asdf, fnm or direnv set up in the user's
 * shell, so `npx` or `claude-code-acp` are "not found". Like VS Code itself, ask the login
 * shell once for its environment, and fall back to our own if that fails or is slow.
 */
export type Env = Record<string, string>;

const MARK = '__ACP_HOST_ENV__';
const TIMEOUT_MS = 10_000;

/**
 * What the extension host sets for itself and its own helpers, never for the programs of the
 * user: ELECTRON_RUN_AS_NODE (a `node` or an Electron app started with it would run as the
 * extension host's Node), the other ELECTRON_* switches, the VSCODE_* handles (the IPC sockets
 * to the window and the CLI, which would let an agent drive VS Code; its pid, cwd, NLS config,
 * entry point, log settings) and those of a snap package (SNAP*, GDK_PIXBUF_*) and of
 * code-server (CODE_SERVER_*). It is VS Code's own rule for the terminals it starts
 * (sanitizeProcessEnvironment), which keeps the few VSCODE_* that belong to the user's shell.
 */
const HOST_INTERNALS = [/^ELECTRON_./, /^VSCODE_(?!(PORTABLE|SHELL_LOGIN|ENV_REPLACE|ENV_APPEND|ENV_PREPEND)$)./, /^SNAP(_.*)?$/, /^GDK_PIXBUF_./, /^CODE_SERVER_./];

export function isHostInternal(name: string): boolean {
  return HOST_INTERNALS.some((pattern) => pattern.test(name));
}

/** `env` without the extension host's internals: what agents, their terminals and MCP servers start from. */
export function withoutHostInternals(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isHostInternal(name)));
}

/** The extension host's environment, less its internals. */
export function currentEnv(): Env {
  const env: Env = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !isHostInternal(k)) env[k] = v;
  return env;
}

/** Parses `env -0` output framed by markers (an interactive shell may print a banner around it). */
export function parseEnvOutput(output: string): Env | undefined {
  const start = output.indexOf(MARK);
  const end = output.lastIndexOf(MARK);
  if (start === -1 || end <= start) return undefined;
  const env: Env = {};
  for (const entry of output.slice(start + MARK.length, end).split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return Object.keys(env).length > 0 ? env : undefined;
}

export function resolveLoginShellEnv(base: Env = currentEnv(), platform = process.platform): Promise<Env> {
  if (platform === 'win32') return Promise.resolve(base);
  const shell = base.SHELL || '/bin/sh';
  // -i as well as -l: nvm and friends are usually set up in the rc file, not the profile.
  const interactive = /(bash|zsh|fish)$/.test(shell) ? ['-i'] : [];
  const script = `printf '${MARK}'; env -0; printf '${MARK}'`;
  // Required here, at an agent's first start: the settings read this module at activation, when nothing runs yet.
  const { execFile } = require('node:child_process') as typeof import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      shell,
      [...interactive, '-l', '-c', script],
      { env: { ...base, ACP_HOST_RESOLVING_ENVIRONMENT: '1' }, timeout: TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (_error, stdout) => {
        const env = parseEnvOutput(stdout ?? '');
        if (!env) return resolve(base);
        delete env.ACP_HOST_RESOLVING_ENVIRONMENT;
        // The shell's PWD/SHLVL/_ describe that throwaway shell, not the agent.
        for (const k of ['PWD', 'OLDPWD', 'SHLVL', '_']) delete env[k];
        // A shell run from the extension host may hand its internals back (an rc file that
        // exports what it found, VS Code's shell integration): they stay out all the same.
        resolve({ ...base, ...withoutHostInternals(env) });
      },
    );
  });
}
