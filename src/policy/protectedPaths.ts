/**
 * Paths an agent must not write without the user saying so: what configures VS Code (and this
 * extension, whose settings live there), git (hooks and filters run code), package managers and
 * shells, and what holds credentials. Globs over workspace-relative paths with `/`, matched
 * case-insensitively (on a case-insensitive file system `.VSCode/Settings.json` is the same file)
 * and anywhere in the tree (a nested repository has hooks too).
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '**/.vscode/**',
  '**/*.code-workspace',
  '**/.git',
  '**/.git/**',
  '**/.gitmodules',
  '**/.gitattributes',
  '**/.gitconfig',
  '**/.husky/**',
  '**/.env*',
  '**/.npmrc',
  '**/.yarnrc',
  '**/.yarnrc.yml',
  '**/.pypirc',
  '**/.netrc',
  '**/.ssh/**',
  '**/.aws/**',
  '**/.kube/**',
  '**/.docker/config.json',
  '**/.devcontainer/**',
  '**/.bashrc',
  '**/.zshrc',
  '**/.profile',
];
