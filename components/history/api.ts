/**
 * Fetching from the history API: every answer is validated with the shared schemas, and an error
 * answer becomes an Error carrying the server's message (which names the bad field).
 */
import { z } from 'zod';
import { describeZodError } from '@/lib/protocol/params';
import { strategyInfoSchema } from '@/lib/protocol';
import { identityHeaders } from '@/components/hooks/browser-identity';

export const strategiesSchema = z.array(strategyInfoSchema);

/** GETs JSON and validates it; throws with the server's own message on an error status. */
export async function fetchJson<T>(url: string, schema: z.ZodType<T>, signal?: AbortSignal, identified = false): Promise<T> {
  // `identified`: say which browser asks (its id, or the operator token), for answers that depend on it.
  const res = await fetch(url, { cache: 'no-store', signal, ...(identified && { headers: identityHeaders() }) });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (body as { message?: unknown } | null)?.message;
    throw new Error(typeof message === 'string' ? message : `${url} answered ${res.status}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`unexpected answer from ${url}: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** Lets the browser save a blob under a file name. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: some browsers start the download only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The page's search params as a query string (route files receive them as a record). */
export function toQueryString(params: Record<string, string | string[] | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) q.append(k, one);
  return q.toString();
}
