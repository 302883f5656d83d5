// Streamed markdown (src/webview/markdownRender.ts) against a one-shot rendering, as a property:
// for random texts from a corpus of what breaks incremental parsers (fences split and left open,
// nested and loose lists, tables whose delimiter row comes later, links and emphasis split across
// chunks, setext underlines, reference definitions, HTML-looking text, tabs, CRLF and CR), cut
// into random chunks, the DOM after every chunk must equal renderMarkdown of the text so far.
// The module side runs with shelves of a few dozen characters (SHELF), so these short texts are
// cut into shelves as a long answer is, and where a shelf ends is tested as often as the rest.
//
// Where it runs: headless Chromium (DOMPurify needs a real DOM, and the panel's is Chromium's),
// on a small bundle esbuild builds here from the panel's own markdown modules, so patchMarkdown
// is compared with renderMarkdown directly, after every chunk, hundreds of times in seconds,
// and the shipped bundle exposes nothing for it. A second property drives the real bundle the
// way the host does (a restored entry, then `append` messages) and compares the panel's DOM
// after every message with the same one-shot rendering. fast-check's seed is fixed (FC_SEED
// overrides it) and printed with any failure, so a failure replays.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { build } = require('esbuild');
const fc = require('fast-check');
const h = require('./harness');

const SEED = Number(process.env.FC_SEED ?? 1515);
/** Characters per shelf on the module side: a few blocks of the corpus below. */
const SHELF = 40;

let env;
let probe; // a page with the test bundle: window.__probe
test.before(async () => {
  env = await h.launch();
  const bundle = await build({
    stdin: {
      contents: `import { patchMarkdown, renderMarkdown } from './src/webview/markdownRender';
const html = (fragment) => { const el = document.createElement('div'); el.append(fragment); return el.innerHTML; };
window.__probe = {
  oneShot: (texts, shelf) => texts.map((text) => html(renderMarkdown(text, shelf))),
  // Each text in turn into one element: the first step whose DOM differs from a one-shot rendering.
  stream(texts, shelf) {
    const el = document.createElement('div');
    for (const [step, text] of texts.entries()) {
      patchMarkdown(el, text, shelf);
      const want = html(renderMarkdown(text, shelf));
      if (el.innerHTML !== want) return { step, text, got: el.innerHTML, want };
    }
    return null;
  },
};`,
      resolveDir: h.REPO,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  const context = await env.browser.newContext();
  probe = await context.newPage();
  await probe.setContent('<!doctype html><html><body></body></html>');
  await probe.addScriptTag({ content: bundle.outputFiles[0].text });
});
test.after(async () => { await env?.close(); });

/** Pieces of markdown that are hard to stream; a text is a few of them, joined. */
const CORPUS = [
  '```js\nconst a = 1;\n\nconsole.log(a);\n```',
  '```\nan unclosed fence\n\nstill code',
  '~~~python\nprint("tilde")\n~~~',
  '````\n```\nnested fence\n```\n````',
  '- one\n- two\n  - nested\n  - nested two\n- three',
  '1. first\n2. second\n\n   a continuation paragraph\n3. third',
  '* loose\n\n* list\n\n  with more',
  '2. an item after a blank line',
  '3',
  '| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |',
  '| header | only |',
  '|---|---|',
  'Text above\n| c |\n|-|no longer a table',
  'A [link](https://example.com/a?b=1) and [bad](javascript:alert(1)) and <https://example.com/auto>',
  'Use [the docs][d] or [d].',
  '[d]: https://example.com/docs "Docs"',
  '*emphasis* and **strong** and ~~struck~~ and `code` and _under_ and snake_case_name',
  '**unclosed strong and *unclosed em',
  '# Heading\n## Sub heading',
  '***',
  'Setext heading\n===',
  'Para above\n---',
  '#',
  '> a quote\n> more of it\nlazy line\n>> deeper',
  '<script>alert(1)</script> <img src=x onerror=alert(1)> <b>bold?</b>',
  '    indented code\n\n    more of it',
  'Hard break  \nnext line, \\*escaped\\*, &amp; &lt;tag&gt; and www.example.com',
  '![an image](https://example.com/x.png) é 🎉 日本語',
  '\tindented by a tab\n\n- item\n\n\tcontinued by a tab',
  '- item\n\n  more of it\n\n      code in the item',
  'plain text',
  // Words appended as they come (appendWords): what words after them could still change.
  'words and more words   then a few more',
  'see www.example and example.com and a@b.co and http://example.org then words',
  'snake_case_ and *star and _under_ words',
  '[ref]: then words',
];
// Blank lines and line breaks most often, as between real blocks; none or a space mashes pieces together.
const SEPARATORS = ['\n\n', '\n\n', '\n', '\n', '', ' ', '\n\n\n'];

/** A text from the corpus: a few of its pieces, joined, with one of `newlines` as line ends. */
const corpusText = (newlines) => fc.record({
  pieces: fc.array(fc.tuple(fc.constantFrom(...CORPUS), fc.constantFrom(...SEPARATORS)), { minLength: 2, maxLength: 8, size: 'max' }),
  newline: fc.constantFrom(...newlines),
}).map(({ pieces, newline }) => pieces.map(([piece, sep]) => piece + sep).join('').replace(/\n/g, newline));

/**
 * A text from the corpus, with LF, CRLF or CR line ends, as the prefixes it streams in as: chunks of
 * a few characters (tokens), now and then a longer one.
 */
const streamed = fc.tuple(
  corpusText(['\n', '\r\n', '\r']),
  fc.array(fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 60 })), { minLength: 1, maxLength: 20 }),
).map(([text, chunks]) => {
  const prefixes = [];
  // The chunk sizes repeat until the whole text has come.
  for (let at = 0, i = 0; at < text.length; i++) prefixes.push(text.slice(0, (at += chunks[i % chunks.length])));
  return [...prefixes.filter((p) => p.length < text.length), text];
});

/** The same texts as agents most often stream them: a word at a time, with the spaces before it. */
const byWords = corpusText(['\n', '\r\n']).map((text) => [...text.matchAll(/\s*\S+|\s+$/g)].map((match) => text.slice(0, match.index + match[0].length)));

/** Streams `texts` into one element on the module side: its DOM must equal a one-shot rendering after each. */
async function assertStreamsAsOneShot(texts) {
  const mismatch = await probe.evaluate(([t, s]) => window.__probe.stream(t, s), [texts, SHELF]);
  assert.equal(mismatch, null, `after chunk ${mismatch?.step} of ${JSON.stringify(texts.at(-1))}:\n got  ${mismatch?.got}\n want ${mismatch?.want}`);
}

/** The prefixes a text streams in as, cut after each of `cuts` in turn (for the examples below). */
function cutAt(text, ...cuts) {
  let at = 0;
  const prefixes = cuts.map((cut) => {
    const found = text.indexOf(cut, at);
    if (found < 0) throw new Error(`test bug: ${JSON.stringify(cut)} is not in ${JSON.stringify(text)} after ${at}`);
    at = found + cut.length;
    return text.slice(0, at);
  });
  return [...prefixes, text];
}

/** Cuts where a streaming renderer goes wrong if it keeps what it must not: run first, every time. */
const EXAMPLES = [
  cutAt('Before.\n\n```js\nlet a = 1;\n```\n\nAfter.\n', '``', '`js\nlet', ' = 1;\n`', '``'),
  cutAt('Text\n\n~~~\ncode\n\nmore\n', '~~', '~\ncode\n\n'),
  // An open fence takes appended text as it is (appendToOpenFence), but for what markdown-it normalizes, and a line that closes it.
  cutAt('Text\n\n```js\nlet a = 1;\r\nlet b\0 = 2;\r  ```  \nafter\n', 'let a', ' = 1;\r', '\nlet b', '\0', ' = 2;', '\r ', ' `', '``'),
  cutAt('Text\n\n~~~\nfoo\nbar\n  baz\n \t\n', '~~~\nfoo\n', 'bar\n  ', ' \t'),
  cutAt('A [text](http://example.com/x) link.', '[text](ht', 'tp://exa'),
  cutAt('Some *emphasis* and **strong** words.', 'Some *emph', 'and **str', 'ong*'),
  cutAt('Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n', '| b |\n', '|--'),
  cutAt('- a\n- b\n\n  continued\n\n- c\n\nAfter\n', '- b\n', 'continued\n\n', '- c\n\n'),
  cutAt('1. a\n\n2. b\n', '1. a\n\n2', '.'),
  cutAt('foo\n#x\n', 'foo\n#'),
  cutAt('foo\n| a |\n|-|x\n', '| a |\n|-|'),
  cutAt('Text\n\nSetext\n---\n', 'Setext\n', '-'),
  cutAt('Use [x] here.\n\nMore.\n\n[x]: https://example.com/\n', 'More.\n\n', '[x]:'),
  cutAt('> quote\nlazy\n\nafter\n', '> quote\n', 'lazy', '\n\n'),
  cutAt('<script>alert(1)</script>\n\ntext', '<scr', 'ipt>al'),
  cutAt('line one\r\n\r\nline two\r\n\r\n- item\r\n', 'one\r', '\n\r', '\nline two\r'),
  // Words into a paragraph: trailing spaces show once a word follows; a definition, a link and
  // an emphasis the words would complete or change take the general path.
  cutAt('Some words   and more  ', 'Some', ' words', '   ', 'and', ' more', ' '),
  cutAt('[foo]: bar\n\nSee [foo].\n', '[foo]: ', 'bar'),
  cutAt('Visit www.example.com today', 'www.example', '.com', ' today'),
  cutAt('An _em_phasis', 'An _em_', 'phasis'),
  cutAt('One\n   \nTwo', 'One\n   ', '\nTwo'),
  cutAt('Code `x` then words', 'Code `x`', ' then', ' words'),
];

test('streamed markdown equals a one-shot rendering after every chunk (property, module in Chromium)', async () => {
  await fc.assert(
    fc.asyncProperty(streamed, assertStreamsAsOneShot),
    { seed: SEED, numRuns: 500, examples: EXAMPLES.map((texts) => [texts]) },
  );
});

test('streamed a word at a time, markdown equals a one-shot rendering after every word (property, module in Chromium)', async () => {
  await fc.assert(
    fc.asyncProperty(byWords, assertStreamsAsOneShot),
    { seed: SEED, numRuns: 300 },
  );
});

test('a text replaced by any other (not appended to) still renders as a one-shot rendering would (property)', async () => {
  // Entries are replaced whole too (an `entry` message): the text may shrink or change anywhere.
  const texts = fc.array(streamed.chain((prefixes) => fc.constantFrom(...prefixes)), { minLength: 2, maxLength: 6 });
  await fc.assert(
    fc.asyncProperty(texts, async (list) => {
      const mismatch = await probe.evaluate(([t, s]) => window.__probe.stream(t, s), [list, SHELF]);
      assert.equal(mismatch, null, `at step ${mismatch?.step} (${JSON.stringify(mismatch?.text)}):\n got  ${mismatch?.got}\n want ${mismatch?.want}`);
    }),
    { seed: SEED, numRuns: 200 },
  );
});

test('in the panel, a restored answer or thought streamed by append messages shows the one-shot rendering after every message (property)', async () => {
  await h.withPanel(env, {}, async (page) => {
    await fc.assert(
      fc.asyncProperty(streamed, fc.constantFrom('agent', 'thought'), async (texts, kind) => {
        const shown = await page.evaluate(async ({ texts, kind, snapshot }) => {
          const posted = (message) => new Promise((resolve) => {
            // Added after the webview's own listener, so it runs once the message is rendered.
            window.addEventListener('message', () => resolve(), { once: true });
            window.postMessage(message, '*');
          });
          const markdown = () => document.querySelector('#transcript .entry[data-index="0"] .markdown').innerHTML;
          await posted({ ...snapshot, entries: [{ kind, text: texts[0] }] });
          const out = [markdown()];
          for (let i = 1; i < texts.length; i++) {
            await posted({ type: 'append', index: 0, text: texts[i].slice(texts[i - 1].length) });
            out.push(markdown());
          }
          return out;
        }, { texts, kind, snapshot: h.snapshot() });
        const want = await probe.evaluate((t) => window.__probe.oneShot(t), texts);
        for (let i = 0; i < texts.length; i++) assert.equal(shown[i], want[i], `${kind} after message ${i}: ${JSON.stringify(texts[i])}`);
      }),
      { seed: SEED, numRuns: 60, examples: EXAMPLES.map((texts) => [texts, 'agent']) },
    );
  });
});

/**
 * A long answer as agents write them, with what a shelf must not move: headings and rules right
 * after paragraphs, lists, code, tables and quotes.
 */
function longAnswer(sections) {
  const out = [];
  for (let i = 0; i < sections; i++) {
    // Paragraphs of varied length, so shelves end before every kind of block.
    const words = 'It keeps the order of events. '.repeat(1 + ((i * 7) % 13));
    out.push(`## Step ${i}`, `The reader in \`src/reader${i}.ts\` returns early. ${words}`, '***', `### Why ${i}`, words);
    out.push(`- read it\n- keep the old behaviour\n  - note the edge case`, `\`\`\`ts\nexport const step${i} = ${i};\n\`\`\``);
    out.push(`| file | change |\n| --- | --- |\n| src/reader${i}.ts | guard |`, `> Note ${i}.`, `#### Detail ${i}\nA paragraph right under its heading.`);
  }
  return `${out.join('\n\n')}\n\nThe end.`;
}

/**
 * Streams `text` into the panel as entry 0, an answer: its first `first` characters restored,
 * the rest appended `chunk` characters at a time; resolves once it is rendered.
 */
async function streamAnswer(page, text, first, chunk) {
  await h.send(page, h.snapshot([{ kind: 'agent', text: text.slice(0, first) }]));
  for (let at = first; at < text.length; at += chunk) await h.send(page, { type: 'append', index: 0, text: text.slice(at, at + chunk) });
  await h.waitForFrame(page);
}

/** `text` rendered in one go by the module, as HTML. */
async function oneShot(text) {
  return (await probe.evaluate((t) => window.__probe.oneShot(t), [text]))[0];
}

test('a long answer streamed into the panel is cut into shelves that move no text (layout)', async () => {
  const text = longAnswer(150);
  assert.ok(text.length > 60_000, 'test bug: the answer is too short to be shelved');
  await h.withPanel(env, {}, async (page) => {
    await streamAnswer(page, text, 20_000, 1_500);
    const layout = await page.evaluate(() => {
      const markdown = document.querySelector('#transcript .entry[data-index="0"] .markdown');
      const shelves = [...markdown.querySelectorAll(':scope > .md-shelf')];
      // Laid out as an on-screen shelf is (content-visibility: auto is layout, style and paint
      // containment there), so every shelf is measured, not only those in view.
      for (const shelf of shelves) shelf.style.cssText = 'content-visibility: visible; contain: layout style paint';
      const flat = markdown.cloneNode(true);
      for (const shelf of flat.querySelectorAll(':scope > .md-shelf')) shelf.replaceWith(...shelf.childNodes);
      markdown.after(flat);
      const tops = (root) => {
        const origin = root.getBoundingClientRect().top;
        return [...root.querySelectorAll(':scope > :not(.md-shelf), :scope > .md-shelf > *')].map((el) => Math.round((el.getBoundingClientRect().top - origin) * 2) / 2);
      };
      return { shelves: shelves.length, shelved: tops(markdown), flat: tops(flat), heights: [markdown, flat].map((el) => el.getBoundingClientRect().height) };
    });
    assert.ok(layout.shelves >= 5, `${layout.shelves} shelves in a ${text.length}-character answer`);
    assert.equal(layout.shelved.length, layout.flat.length);
    const moved = layout.shelved.findIndex((top, i) => Math.abs(top - layout.flat[i]) > 0.5);
    assert.equal(moved, -1, `block ${moved} is at ${layout.shelved[moved]} px in shelves, ${layout.flat[moved]} px without`);
    assert.ok(Math.abs(layout.heights[0] - layout.heights[1]) <= 0.5, `heights ${layout.heights}`);
    // And the shelves are the one-shot rendering's.
    const shown = await page.evaluate(() => { const el = document.querySelector('#transcript .entry[data-index="0"] .markdown'); el.querySelectorAll('.md-shelf').forEach((s) => s.removeAttribute('style')); return el.innerHTML; });
    assert.equal(shown, await oneShot(text));
  });
});

test('a long code block streamed into the panel is cut into pieces of whole lines that move no line; a selection and Copy give its exact text', async () => {
  const code = Array.from({ length: 3000 }, (_, i) => `export const value${i} = compute(${i}); // <b>${i}</b> & more\n`).join('');
  const text = `Here is the file:\n\n\`\`\`ts\n${code}\`\`\`\n\nDone.`;
  await h.withPanel(env, {}, async (page) => {
    // Chunks that end anywhere in a line, as a model streams them.
    await streamAnswer(page, text, 5_000, 997);
    const shown = await page.evaluate(() => {
      const block = document.querySelector('#transcript .entry[data-index="0"] .code-block');
      const pre = block.querySelector(':scope > pre');
      const selection = (el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        return getSelection().toString();
      };
      // The same code, not cut, beside it.
      const flat = pre.cloneNode(true);
      flat.querySelector('code').textContent = pre.textContent;
      block.after(flat);
      const measured = {
        pieces: [...pre.querySelector('code').children].map((piece) => [piece.className, piece.textContent]),
        selected: selection(pre),
        selectedFlat: selection(flat),
        heights: [pre, flat].map((el) => el.getBoundingClientRect().height),
        scroll: [pre, flat].map((el) => [el.scrollWidth, el.clientWidth]),
      };
      flat.remove();
      return { ...measured, markdown: document.querySelector('#transcript .entry[data-index="0"] .markdown').innerHTML };
    });
    assert.ok(shown.pieces.length >= 10, `${shown.pieces.length} pieces in ${code.length} characters of code`);
    assert.ok(shown.pieces.every(([name, piece]) => name === 'code-shelf' && piece.endsWith('\n')), 'each piece is whole lines');
    assert.equal(shown.pieces.map(([, piece]) => piece).join(''), code);
    assert.equal(shown.selected, shown.selectedFlat, 'a selection of the code copies the same text as without pieces');
    assert.ok(Math.abs(shown.heights[0] - shown.heights[1]) <= 0.5, `the lines are spaced as without pieces: heights ${shown.heights}`);
    assert.deepEqual(shown.scroll[0], shown.scroll[1], 'lines wider than the panel scroll as without pieces');
    assert.ok(shown.scroll[0][0] > shown.scroll[0][1], `test bug: the lines fit the panel (${shown.scroll[0]})`);
    assert.equal(shown.markdown, await oneShot(text), 'streamed as rendered in one go');

    await page.locator(`${h.entry(0)} button.copy-code`).click();
    const copied = (await h.posted(page)).filter((m) => m.type === 'copyText');
    assert.deepEqual(copied, [{ type: 'copyText', text: code }]);
  });
});
