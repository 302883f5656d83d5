import type { TurnUsageView } from './protocol';

/** Human sizes in decimal units, as "Show all (1.0 MB)" says them: one decimal below 10, else none. */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  // 999.5 rounds to "1000": show it as the next unit instead.
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  if (unit === 0) return `${bytes} B`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** UTF-8 length without allocating an encoded copy of a possibly huge string. */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      length += 4; // a surrogate pair is one 4-byte code point
      i++;
    } else length += 3;
  }
  return length;
}

/** Token counts as "950", "12.3k", "200k", "1.5M". */
export function formatTokens(count: number): string {
  if (count < 999.5) return String(Math.round(count));
  const [value, suffix] = count < 999_500 ? [count / 1000, 'k'] : [count / 1_000_000, 'M'];
  const text = value < 99.95 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${text}${suffix}`;
}

/** "$0.42"; an unknown currency code (agent data) falls back to "0.42 XYZ" instead of throwing. */
export function formatCost(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/** The last two segments ("src/app.ts"): enough to recognise a file in a narrow panel (the full path goes in a tooltip). */
export function pathTail(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? parts.slice(-2).join('/') : path;
}

/** An agent's quota as "quota: used 10 · limit 100 · resetsAt 2025-06-01". */
export function quotaText(quota: NonNullable<TurnUsageView['quota']>): string {
  return `quota: ${quota.map(({ label, value }) => `${label} ${typeof value === 'number' ? formatCount(value) : value}`).join(' · ')}`;
}

/** A turn's tally as "1,234 tokens (in 1,000 · out 234 · thinking 50) · $0.42 · quota: used 10 · limit 100". */
export function turnUsageText({ tokens, cost, quota }: TurnUsageView): string {
  const parts: string[] = [];
  if (tokens) {
    const detail = [`in ${formatCount(tokens.input)}`, `out ${formatCount(tokens.output)}`];
    if (tokens.thought !== null) detail.push(`thinking ${formatCount(tokens.thought)}`);
    if (tokens.cachedRead !== null) detail.push(`cache read ${formatCount(tokens.cachedRead)}`);
    if (tokens.cachedWrite !== null) detail.push(`cache write ${formatCount(tokens.cachedWrite)}`);
    parts.push(`${formatCount(tokens.total)} tokens (${detail.join(' · ')})`);
  }
  if (cost) parts.push(formatCost(cost.amount, cost.currency));
  if (quota) parts.push(quotaText(quota));
  return parts.join(' · ');
}
