import { button, clamp, h } from './dom';
import type { StatusView } from './protocol';
import { post } from './vscode';

type AuthMethodView = NonNullable<StatusView['authMethods']>[number];

const ICONS: Record<AuthMethodView['type'], string> = { agent: 'sign-in', env_var: 'key', terminal: 'terminal' };
const HINTS: Record<AuthMethodView['type'], string> = {
  agent: 'The agent signs you in.',
  env_var: 'You paste a key; VS Code keeps it in its secret storage.',
  terminal: 'Runs the agent’s login in a terminal.',
};

/**
 * section#auth: in the auth phase, "Sign in to <agent>" and one button per method
 * (button.auth-method[data-method-id]) posting `authenticate`; while the agent signs the user in
 * (`signingIn`), what it waits for and button.auth-cancel posting `cancelSignIn`. Names come from
 * the agent: text only.
 */
export class AuthPanel {
  private shown = '';

  constructor(private readonly el: HTMLElement) {
    el.setAttribute('aria-labelledby', 'auth-title');
    el.addEventListener('click', (event) => {
      const target = (event.target as Element).closest<HTMLButtonElement>('button.auth-method, button.auth-cancel');
      if (target?.classList.contains('auth-cancel')) return post({ type: 'cancelSignIn' });
      const methodId = target?.dataset.methodId;
      if (methodId !== undefined) post({ type: 'authenticate', methodId });
    });
  }

  render(status: StatusView): void {
    const methods = status.phase === 'auth' ? (status.authMethods ?? []) : [];
    const signingIn = status.signingIn;
    this.el.hidden = methods.length === 0 && signingIn === undefined;
    const key = JSON.stringify([status.agentName, methods, signingIn ?? null]);
    if (key === this.shown) return;
    this.shown = key;
    if (this.el.hidden) {
      this.el.replaceChildren();
      return;
    }
    const title = h('h2', '', `Sign in to ${clamp(status.agentName, 200)}`);
    title.id = 'auth-title';
    if (signingIn !== undefined) {
      const waiting = h('p', 'auth-waiting', `Waiting for ${clamp(status.agentName, 200)} to sign you in with “${clamp(signingIn, 200)}”…`);
      this.el.replaceChildren(title, waiting, button('auth-cancel', 'Cancel sign-in', 'close'));
      return;
    }
    const list = h('div', 'auth-methods');
    for (const method of methods) {
      const b = button('auth-method', clamp(method.name, 200), ICONS[method.type]);
      b.dataset.methodId = method.id;
      b.dataset.methodType = method.type;
      b.title = method.description ? clamp(method.description, 1000) : HINTS[method.type];
      const item = h('div', 'auth-item');
      item.append(b);
      if (method.description) item.append(h('span', 'auth-description', clamp(method.description, 1000)));
      list.append(item);
    }
    this.el.replaceChildren(title, list);
  }
}
