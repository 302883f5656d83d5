import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { h } from './dom';

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

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });
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

/** Sanitized DOM for `text` (a fragment: no serialize-and-reparse round trip through innerHTML). */
export function renderMarkdown(text: string): DocumentFragment {
  return sanitize(md.render(text));
}

/** `div.markdown` holding the sanitized rendering of `text`. */
export function markdownBlock(text: string): HTMLElement {
  const el = h('div', 'markdown');
  el.append(renderMarkdown(text));
  return el;
}

/** What patchMarkdown left in an element: each top-level block's HTML, and the nodes it became. */
const blocksOf = new WeakMap<Element, { html: string; nodes: ChildNode[] }[]>();

/**
 * Brings `el`, which shows rendered markdown, up to `text`. Only the top-level blocks whose HTML
 * changed (as an answer streams in, the last one) are sanitized and inserted again: the others
 * keep their nodes, so the browser does not lay them out again either. The whole text is still
 * parsed, so a block is kept only if it renders exactly as before.
 */
export function patchMarkdown(el: Element, text: string): void {
  const env = {};
  const tokens = md.parse(text, env);
  const html: string[] = [];
  for (let start = 0, i = 0; i < tokens.length; i++) {
    // A top-level block ends with a closing token (or is a single token) at level 0.
    if (tokens[i].level === 0 && tokens[i].nesting <= 0) {
      html.push(md.renderer.render(tokens.slice(start, i + 1), md.options, env));
      start = i + 1;
    }
  }
  const old = blocksOf.get(el);
  if (!old) el.replaceChildren(); // rendered whole by renderMarkdown: which nodes are which block is unknown
  const blocks = old ?? [];
  let same = 0;
  while (same < blocks.length && blocks[same].html === html[same]) same++;
  for (const block of blocks.splice(same)) block.nodes.forEach((node) => node.remove());
  for (const blockHtml of html.slice(same)) {
    const fragment = sanitize(blockHtml);
    blocks.push({ html: blockHtml, nodes: [...fragment.childNodes] });
    el.append(fragment);
  }
  blocksOf.set(el, blocks);
}

function sanitize(html: string): DocumentFragment {
  // The argument only selects the fragment-returning typing: setConfig's config is what applies.
  return purify.sanitize(html, { RETURN_DOM_FRAGMENT: true });
}
