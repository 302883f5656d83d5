import vscode = require('vscode');
import { linkTarget } from '../../workspace/linkTarget';
import { toZeroBasedLine } from '../../workspace/lines';
import { resolveWorkspacePath } from './workspacePaths';

/**
 * Opens a file the agent named at a 1-based line, only inside `roots`, its session's (the path
 * confinement of fs/* applies: an agent cannot steer the user to any other file).
 */
export async function openLocation(requested: string, line: number | null, roots: readonly string[]): Promise<void> {
  const uri = await resolveWorkspacePath(requested, roots);
  const position = new vscode.Position(toZeroBasedLine(line), 0);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: true });
}

/** A link clicked in agent markdown: web and mail links leave VS Code, file links (within `roots`, the session's) open in it. */
export async function openLink(href: string, roots: readonly string[]): Promise<void> {
  const target = linkTarget(href);
  if (!target) throw new Error(`Refused to open ${JSON.stringify(href.slice(0, 200))}: only http, https, mailto and workspace files are opened`);
  if (target.kind === 'external') {
    await vscode.env.openExternal(vscode.Uri.parse(target.href, true));
  } else {
    await openLocation(target.isUri ? vscode.Uri.parse(target.path, true).fsPath : target.path, target.line, roots);
  }
}

/**
 * A web page an agent asked the user to open (URL-mode elicitation), on their click: http and
 * https only (the session refused anything else already), through `open` (VS Code's
 * openExternal: the user's browser, where neither the agent nor the model can see the page).
 */
export async function openWebPage(url: string, open: (uri: vscode.Uri) => Thenable<boolean>): Promise<void> {
  if (!/^https?:\/\//i.test(url)) throw new Error(`Refused to open ${JSON.stringify(url.slice(0, 200))}: only http and https pages are opened`);
  await open(vscode.Uri.parse(url, true));
}
