import type { UrlWarning } from './model';

/** Longer is refused (what the panel's link intent takes too). */
export const URL_MAX_LENGTH = 8192;

/** A URL fit to offer the user, as it would open. */
export interface UrlTarget {
  /** Parsed and normalized (WHATWG): an internationalized host is in its punycode (`xn--`) form, as it resolves. */
  href: string;
  /** The host, with a port that is not the scheme's default. */
  host: string;
  warnings: UrlWarning[];
}

/**
 * What a URL-mode elicitation (ACP §11) may offer: an absolute http or https URL with a host.
 * Anything else (javascript:, data:, file:, command:, a relative or unparsable URL) is refused
 * with the reason, and never shown as a link. Warned about, for the user to judge: a host in
 * punycode (it may imitate another name with look-alike letters), plain http (what the page gets
 * can be read or changed on the way), and credentials in the URL (`https://bank.com@evil.example`
 * opens evil.example).
 */
export function urlTarget(url: string): UrlTarget | { refused: string } {
  if (url.length > URL_MAX_LENGTH) return { refused: `the URL is longer than ${URL_MAX_LENGTH} characters` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refused: 'it is not an absolute URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { refused: `only http and https URLs are opened, not ${parsed.protocol}` };
  if (parsed.hostname === '') return { refused: 'the URL has no host' };
  if (parsed.href.length > URL_MAX_LENGTH) return { refused: `the URL is longer than ${URL_MAX_LENGTH} characters` };
  const warnings: UrlWarning[] = [];
  if (parsed.hostname.split('.').some((label) => label.toLowerCase().startsWith('xn--'))) warnings.push('punycode');
  if (parsed.protocol === 'http:') warnings.push('notHttps');
  if (parsed.username !== '' || parsed.password !== '') warnings.push('credentials');
  return { href: parsed.href, host: parsed.host, warnings };
}
