/** Small DOM builders: everything untrusted goes in as textContent or attribute values, never markup. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A decorative codicon: hidden from assistive technology, the surrounding text carries the meaning. */
export function icon(name: string, className = ''): HTMLSpanElement {
  const el = h('span', `codicon codicon-${name}${className ? ` ${className}` : ''}`);
  el.setAttribute('aria-hidden', 'true');
  return el;
}

/** A real button with a visible label and an optional leading icon. */
export function button(className: string, label: string, iconName?: string): HTMLButtonElement {
  const el = h('button', className);
  el.type = 'button';
  if (iconName) el.append(icon(iconName));
  el.append(label);
  return el;
}

/** A button showing only an icon: the label goes to aria-label and the tooltip. */
export function iconButton(className: string, label: string, iconName: string): HTMLButtonElement {
  const el = h('button', `${className} icon-button`.trim());
  el.type = 'button';
  el.setAttribute('aria-label', label);
  el.title = label;
  el.append(icon(iconName));
  return el;
}

/**
 * A `<details>` disclosure labelled `label`, open only if `open`, for the caller to fill.
 * `part` names it among its entry's disclosures, so the presentation remembers each one.
 */
export function disclosure(label: string, open: boolean, part?: string): HTMLDetailsElement {
  const details = h('details');
  if (part) details.dataset.part = part;
  details.open = open; // the transcript records the user's toggles, so re-renders keep them
  details.append(h('summary', '', label));
  return details;
}

/**
 * Appends `children` with a space between them: flex layouts ignore the spaces, but textContent
 * and screen readers then read "Plan 1/3 done" rather than "Plan1/3 done".
 */
export function appendSpaced(parent: Element, ...children: Node[]): void {
  children.forEach((child, i) => parent.append(...(i > 0 ? [' ', child] : [child])));
}

/** The first `max` UTF-16 units of `text`, without cutting a surrogate pair in half. */
export function prefix(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Long untrusted strings (a 1 MB title) would cost layout time for nothing: show a bounded prefix. */
export function clamp(text: string, max: number): string {
  return text.length <= max ? text : `${prefix(text, max)}…`;
}
