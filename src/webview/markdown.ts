import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { addCodeCopyButtons } from './entryActions';

/**
 * Agent markdown → DOM. Two independent walls: markdown-it with html:false never passes raw HTML
 * through and refuses unsafe link targets, and DOMPurify then keeps only the tags markdown-it
 * produces (no img, forms, frames, SVG) with no style or event attributes.
 */

// http(s), mailto, file: URIs, POSIX absolute paths and Windows drive paths (markdown-it has
// already percent-encoded a backslash as %5C when it calls validateLink). "//host" is not a path.
const SAFE_HREF = /^(?:https?:|mailto:|file:|\/(?!\/)|[a-z]:(?:\/|%5c|\\))/i;

export function isSafeHref(href: string): boolean {
  return SAFE_HREF.test(href.trim());
}

/** Longer hrefs are not posted (the host's schema bounds them). */
const HREF_MAX = 8192;

/** The href a click on an agent's link posts to the host (which decides what opens), if it may. */
export function linkHref(link: Element): string | undefined {
  const href = link.getAttribute('href');
  return href && href.length <= HREF_MAX && isSafeHref(href) ? href : undefined;
}

/**
 * Every link under `root` is the host's to open (or refuse), once. VS Code's webview frame has its
 * own click handler on the window, which ignores defaultPrevented: a click reaching it opens the
 * link a second time, an absolute path resolved against the webview's origin as a web URL. A
 * middle click would try to open it in a new window. `root`'s own click listeners still run.
 */
export function keepLinksForHost(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    if (!(event.target as Element).closest('a')) return;
    event.preventDefault();
    event.stopPropagation();
  });
  root.addEventListener('auxclick', (event) => {
    if ((event.target as Element).closest('a')) event.preventDefault();
  });
}

export const md = new MarkdownIt({ html: false, linkify: true, breaks: false });
// Links that fail this are rendered as their literal text by markdown-it.
md.validateLink = isSafeHref;
// Images are dropped (the CSP forbids remote ones anyway); their alt text is kept as plain text.
md.renderer.rules.image = (tokens, idx, options, env, self) =>
  md.utils.escapeHtml(self.renderInlineAsText(tokens[idx]?.children ?? [], options, env));

// Table alignment comes as style="text-align:…", which the CSP refuses (and reports even while
// DOMPurify parses it): carry it as the align attribute instead.
for (const rule of ['th_open', 'td_open'] as const) {
  md.renderer.rules[rule] = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    const align = String(token?.attrGet('style') ?? '').match(/^text-align:(left|center|right)$/)?.[1];
    if (token) token.attrs = align ? [['align', align]] : null;
    return self.renderToken(tokens, idx, options);
  };
}

const purify = DOMPurify();
const ALLOWED_TAGS = [
  'a', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'ol',
  'p', 'pre', 's', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
];
// Only fenced code blocks carry a class (language-xxx); any other class is dropped so agent text
// can never borrow our own classes (collapsed, permission, …).
purify.addHook('uponSanitizeAttribute', (_node, data) => {
  if (data.attrName === 'class' && !/^language-[\w+#.-]*$/.test(data.attrValue)) data.keepAttr = false;
});
// Set once rather than passed per call: DOMPurify would re-parse a per-call config every time,
// a good part of the cost of rendering thousands of short entries in a snapshot.
purify.setConfig({
  ALLOWED_TAGS,
  ALLOWED_ATTR: ['href', 'title', 'class', 'start', 'align'],
  ALLOWED_URI_REGEXP: SAFE_HREF,
  // DOMPurify checks every attribute not known to be URI-safe against ALLOWED_URI_REGEXP.
  ADD_URI_SAFE_ATTR: ['align', 'start'],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
});

/** markdown-it's HTML through DOMPurify, with the allow-list above. */
export function sanitize(html: string): DocumentFragment {
  // The argument only selects the fragment-returning typing: setConfig's config is what applies.
  const fragment = purify.sanitize(html, { RETURN_DOM_FRAGMENT: true });
  // Ours, added after the sanitizer: agent markup can never make a button.
  addCodeCopyButtons(fragment);
  return fragment;
}
