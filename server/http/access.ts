/**
 * Who may talk to the lab. Two checks, both before any route or socket handler runs:
 * - Host: only loopback names, this machine's own addresses, HOST and STREAM_LAB_PUBLIC_HOSTS.
 *   DNS rebinding points an attacker's name at 127.0.0.1; its requests carry that name as Host,
 *   so they get 421 and read nothing.
 * - Origin (WebSocket only): browsers let any page open a socket to localhost, so /ws accepts only
 *   the page's own origin and STREAM_LAB_ALLOWED_ORIGINS. A socket with no Origin, or "null", is a
 *   script or a sandboxed frame and is refused too.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

export interface AccessPolicy {
  /** Lower-case host names (no port) the server answers to. */
  hosts: ReadonlySet<string>;
  /** Origins (scheme://host[:port]) besides the page's own that may open /ws. */
  origins: ReadonlySet<string>;
}

/** The names and addresses of this machine's loopback: a server listening only there is reached from this machine alone. */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '::1'];
/** Bind-all addresses are not names anyone browses to. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/** Splits a comma-separated setting, refusing entries that could not be what it means. */
function listSetting(raw: string | undefined, name: string, check: (entry: string) => string | null): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const normal = check(entry);
      if (normal === null) throw new RangeError(`${name}: "${entry}" is not valid (see README, Security)`);
      return normal;
    });
}

function normalHostName(entry: string): string | null {
  const lower = entry.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (isIP(lower)) return lower;
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(lower) ? lower : null;
}

function normalOrigin(entry: string): string | null {
  try {
    const url = new URL(entry);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.pathname !== '/' || url.search || url.hash || url.username) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** The policy from the listening host and the environment; a malformed setting stops startup. */
export function accessPolicy(listenHost: string, env: Record<string, string | undefined> = process.env): AccessPolicy {
  const hosts = new Set(LOOPBACK_NAMES);
  const listen = listenHost.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (!WILDCARD_HOSTS.has(listen)) hosts.add(listen);
  else {
    // Bound to every interface: the machine's own addresses are how people in the room reach it.
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) hosts.add(a.address.toLowerCase());
  }
  for (const h of listSetting(env.STREAM_LAB_PUBLIC_HOSTS, 'STREAM_LAB_PUBLIC_HOSTS', normalHostName)) hosts.add(h);
  const origins = new Set(listSetting(env.STREAM_LAB_ALLOWED_ORIGINS, 'STREAM_LAB_ALLOWED_ORIGINS', normalOrigin));
  return { hosts, origins };
}

/** The host name of a Host header without its port, lower-cased; null when absent or malformed. */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  try {
    return new URL(`http://${header}`).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  } catch {
    return null;
  }
}

/** True when the request's Host is one this server answers to. */
export function hostAllowed(policy: AccessPolicy, req: IncomingMessage): boolean {
  const name = hostName(req.headers.host);
  return name !== null && policy.hosts.has(name);
}

/**
 * True when a WebSocket upgrade comes from the page's own origin (its host:port equals the Host
 * the browser connected to, which hostAllowed has vetted) or from a configured origin.
 */
export function originAllowed(policy: AccessPolicy, req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin || origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (policy.origins.has(url.origin)) return true;
  return url.host.toLowerCase() === (req.headers.host ?? '').toLowerCase();
}
