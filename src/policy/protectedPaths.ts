/**
 * Paths an agent must not write without the user saying so: what makes a tool run code or
 * reach further (an editor, git, an agent, CI, a shell, a package manager, a container), and
 * what holds credentials. Globs over workspace-relative paths with `/`, matched
 * case-insensitively (on a case-insensitive file system `.VSCode/Settings.json` is the same
 * file) and anywhere in the tree (a nested repository has hooks too; a workspace folder that
 * is the home folder has its shell files below it). Each with why it is here.
 */
export const PROTECTED_PATHS: readonly { glob: string; why: string }[] = [
  // Editors and IDEs
  { glob: '**/.vscode/**', why: 'VS Code settings, tasks and launch configurations run commands (and configure this extension)' },
  { glob: '**/*.code-workspace', why: 'a workspace file carries settings, tasks and launch configurations like .vscode' },
  { glob: '**/.idea/**', why: 'JetBrains IDE run configurations, external tools and startup tasks run commands' },
  { glob: '**/.devcontainer/**', why: 'a dev container definition runs commands (postCreateCommand…) and mounts host folders' },
  { glob: '**/.devcontainer.json', why: 'the single-file form of a dev container definition' },
  { glob: '**/.vscode-server*/**', why: "VS Code Server's extensions and user data (Remote-SSH, WSL, tunnels)" },
  { glob: '**/.vscode-insiders/**', why: 'VS Code Insiders extensions: code VS Code runs' },
  { glob: '**/.vscode-oss/**', why: 'VSCodium and Code - OSS extensions: code they run' },
  { glob: '**/.config/Code*/**', why: "VS Code's user settings, keybindings and extensions' storage (Linux), ACP Host's own included" },
  { glob: '**/.config/VSCodium/**', why: "VSCodium's user settings (Linux)" },
  { glob: '**/Library/Application Support/Code*/**', why: "VS Code's user settings (macOS)" },
  { glob: '**/AppData/Roaming/Code*/**', why: "VS Code's user settings (Windows)" },
  { glob: '**/.local/share/code-server/**', why: "code-server's user settings and extensions" },
  { glob: '**/.config/code-server/**', why: "code-server's config: its password and bind address" },
  { glob: '**/.zed/**', why: 'Zed settings and tasks run commands' },
  { glob: '**/.exrc', why: "vim's exrc: run by vim in this folder when exrc is on" },
  { glob: '**/.nvim.lua', why: "Neovim's exrc: run by Neovim in this folder when exrc is on" },
  { glob: '**/.nvimrc', why: "Neovim's exrc (vimscript form)" },
  // git
  { glob: '**/.git', why: 'a .git file points git at another repository (gitdir:)' },
  { glob: '**/.git/**', why: 'hooks run on commit, checkout and push; config sets filters, aliases and core.fsmonitor that run commands' },
  { glob: '**/.gitmodules', why: 'submodule URLs and update commands (update = !command)' },
  { glob: '**/.gitattributes', why: 'filter and diff drivers configured elsewhere run on the files it names' },
  { glob: '**/.gitconfig', why: "git's user config: aliases, hooksPath, credential helpers, core.sshCommand" },
  { glob: '**/.config/git/**', why: "git's XDG user config (config, attributes): the same as .gitconfig" },
  { glob: '**/.hg/hgrc', why: "Mercurial's repository config: hooks and extensions run code" },
  // Hooks that run on git events
  { glob: '**/.husky/**', why: 'husky git hooks, run on commit and push' },
  { glob: '**/.pre-commit-config.yaml', why: 'pre-commit hooks: repositories and commands run on commit' },
  { glob: '**/lefthook.y*ml', why: 'lefthook git hooks: commands run on commit and push' },
  { glob: '**/.lefthook.y*ml', why: 'lefthook config under its dotted name' },
  { glob: '**/lefthook-local.y*ml', why: "lefthook's local overrides: the same commands" },
  { glob: '**/.lefthook-local.y*ml', why: "lefthook's local overrides under the dotted name" },
  { glob: '**/.lefthook/**', why: "lefthook's hook scripts" },
  // Coding agents and their tools
  { glob: '**/.claude/**', why: 'Claude Code settings: hooks and allowed commands, MCP servers' },
  { glob: '**/.mcp.json', why: 'project MCP servers: commands an agent starts' },
  { glob: '**/.gemini/**', why: 'Gemini CLI settings: MCP servers, tool commands' },
  { glob: '**/.codex/**', why: 'Codex settings: MCP servers, sandbox and approval policy' },
  { glob: '**/opencode.json*', why: 'opencode config: MCP servers, commands, permissions' },
  { glob: '**/.opencode/**', why: 'opencode agents, commands and plugins' },
  { glob: '**/.cursor/**', why: 'Cursor rules and MCP servers' },
  { glob: '**/.continue/**', why: 'Continue config: MCP servers, commands' },
  { glob: '**/.qwen/**', why: 'Qwen Code settings: MCP servers, tool commands' },
  { glob: '**/.kilocode/**', why: 'Kilo Code rules, MCP servers and workflows' },
  { glob: '**/.roo/**', why: 'Roo Code rules and MCP servers' },
  { glob: '**/.windsurf/**', why: 'Windsurf rules and workflows' },
  { glob: '**/.amazonq/**', why: 'Amazon Q rules and MCP servers' },
  { glob: '**/.kiro/**', why: 'Kiro hooks, steering and MCP servers' },
  { glob: '**/.aider.conf.y*ml', why: 'aider config: lint and test commands it runs' },
  // CI: runs with the repository's secrets once pushed
  { glob: '**/.github/workflows/**', why: 'GitHub Actions workflows run with the repository secrets' },
  { glob: '**/.gitlab-ci.yml', why: 'GitLab CI pipeline, run with the project secrets' },
  { glob: '**/.circleci/**', why: 'CircleCI pipeline, run with the project secrets' },
  { glob: '**/.travis.yml', why: 'Travis CI pipeline, run with the project secrets' },
  { glob: '**/azure-pipelines.y*ml', why: 'Azure Pipelines, run with the project secrets' },
  { glob: '**/bitbucket-pipelines.yml', why: 'Bitbucket Pipelines, run with the repository secrets' },
  { glob: '**/Jenkinsfile', why: 'Jenkins pipeline, run on the build agents with their credentials' },
  { glob: '**/.buildkite/**', why: 'Buildkite pipeline and hooks, run on the build agents' },
  { glob: '**/.drone.yml', why: 'Drone CI pipeline, run with the repository secrets' },
  // Package managers and build tools
  { glob: '**/.npmrc', why: 'npm config: registry, tokens, script-shell' },
  { glob: '**/.yarnrc', why: 'yarn 1 config: registry, yarn-path (a program yarn runs)' },
  { glob: '**/.yarnrc.yml', why: 'yarn config: yarnPath, plugins, registry tokens' },
  { glob: '**/.pypirc', why: 'PyPI credentials' },
  { glob: '**/.cargo/config*', why: 'cargo config: build.rustc-wrapper, runners and aliases run commands' },
  // Credentials
  { glob: '**/.env*', why: 'environment files: secrets, and variables that tools load and act on' },
  { glob: '**/.netrc', why: 'credentials for hosts (curl, git, ftp)' },
  { glob: '**/.ssh/**', why: 'SSH keys, authorized_keys and config (ProxyCommand runs a command)' },
  { glob: '**/.aws/**', why: 'AWS credentials and config (credential_process runs a command)' },
  { glob: '**/.kube/**', why: 'Kubernetes credentials (exec plugins run a command)' },
  { glob: '**/.docker/config.json', why: 'Docker registry credentials and credential helpers' },
  // Shells: run at the next login or terminal
  { glob: '**/.bashrc', why: 'run by every interactive bash' },
  { glob: '**/.bash_profile', why: 'run by every bash login shell' },
  { glob: '**/.zshrc', why: 'run by every interactive zsh' },
  { glob: '**/.zshenv', why: 'run by every zsh, even a script' },
  { glob: '**/.zprofile', why: 'run by every zsh login shell' },
  { glob: '**/.profile', why: 'run by sh, dash and bash login shells' },
  { glob: '**/.config/fish/**', why: 'fish config and functions, run by every fish' },
];

export const DEFAULT_PROTECTED_PATHS: readonly string[] = PROTECTED_PATHS.map((p) => p.glob);
