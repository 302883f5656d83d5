// Small numeric helpers shared by the benchmarks: the machine is noisy (2 cores), so every
// figure is a median of several runs, never a single sample.

export function median(values) {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of the values; NaN for none. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Runs `fn` (sync or async) `runs` times after `warmup` discarded runs; returns the results. */
export async function repeat(runs, fn, { warmup = 1 } = {}) {
  for (let i = 0; i < warmup; i++) await fn(-1);
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await fn(i));
  return results;
}

export const ms = (v) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : 'n/a');
export const ratio = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a');
export const count = (v) => Math.round(v).toLocaleString('en-US');
export const bytes = (v) => (v >= 1024 * 1024 ? `${(v / 1024 / 1024).toFixed(2)} MiB` : `${(v / 1024).toFixed(1)} KiB`);
export const verdict = (met) => (met ? 'met' : 'NOT met');

/** Prints rows as an aligned two-or-more-column table under a title. */
export function table(title, rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const line = (r) => `| ${r.map((cell, c) => String(cell).padEnd(widths[c])).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(rows[0]));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const r of rows.slice(1)) console.log(line(r));
}
