/**
 * The panel's page (no `vscode` here, so the browser tests load exactly this page): CSP
 * `default-src 'none'`, a nonce per load for our one script, and assets only from the
 * extension's media folder, so nothing remote loads and nothing inline runs.
 */
export interface PanelPage {
  /** The webview's own origin (`webview.cspSource`). */
  cspSource: string;
  nonce: string;
  /** The URL of a file in media/. */
  asset(name: string): string;
}

export function panelHtml({ cspSource, nonce, asset }: PanelPage): string {
  const csp = [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${asset('codicons/codicon.css')}">
<link rel="stylesheet" href="${asset('webview.css')}">
<title>Agent</title>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${asset('webview.js')}"></script>
</body>
</html>`;
}
