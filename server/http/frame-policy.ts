/**
 * Who may show our pages in an iframe: STREAM_LAB_FRAME_ANCESTORS, a space-separated list of
 * origins (default 'self'). Sent as CSP frame-ancestors on every page; X-Frame-Options only when
 * the list is exactly 'self', because it cannot name other origins and browsers that know both
 * obey CSP, while old ones that only know X-Frame-Options would block an allowed training site.
 */

const ENV = 'STREAM_LAB_FRAME_ANCESTORS';
// An origin (optionally with a *. subdomain wildcard), nothing else: the value goes into a header,
// so no ';' or ',' may smuggle in another directive.
const ORIGIN = /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i;

/** Validated sources; throws naming the variable and the bad token. */
export function parseFrameAncestors(raw: string | undefined = process.env[ENV]): string[] {
  const tokens = (raw ?? '').split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return ["'self'"];
  for (const t of tokens) {
    if (t === "'self'" || t === "'none'" || ORIGIN.test(t)) continue;
    throw new RangeError(`${ENV}: "${t}" is not an origin like https://training.example.com, 'self' or 'none'`);
  }
  if (tokens.includes("'none'") && tokens.length > 1) throw new RangeError(`${ENV}: 'none' cannot be combined with other sources`);
  return tokens;
}

/** Headers for every page response. */
export function frameHeaders(sources: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = { 'content-security-policy': `frame-ancestors ${sources.join(' ')}` };
  if (sources.length === 1 && sources[0] === "'self'") headers['x-frame-options'] = 'SAMEORIGIN';
  if (sources.length === 1 && sources[0] === "'none'") headers['x-frame-options'] = 'DENY';
  return headers;
}
