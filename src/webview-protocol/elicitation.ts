// The form fields and their check are shared with the session engine (src/forms/): the panel
// gets them through here, since the webview imports nothing of ours but webview-protocol.
export * from '../forms/elicitationForm';
