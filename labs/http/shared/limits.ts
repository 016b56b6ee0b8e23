/**
 * The http lab's knobs' ranges as plain values: zod-free, so its child checks its config against
 * the same numbers the form, the CLI and the server validate with (params.ts builds the schema on them).
 */
import type { Limit } from '../../../lib/protocol/limits';

export const HTTP_LIMITS = {
  /** Rows in the `author` table the endpoint serves (one table per size, made once and reused). */
  rows: { min: 1000, max: 1_000_000, default: 100_000 },
  /** Rows per `res.write` (the streaming strategies). */
  batchRows: { min: 1, max: 10_000, default: 500 },
  /** Rows per cursor read from PostgreSQL (the cursor strategies): one round trip each. */
  cursorRows: { min: 10, max: 10_000, default: 500 },
  /** Clients sending requests at once (autocannon connections). */
  concurrency: { min: 1, max: 200, default: 20 },
  /** Requests in all, shared by the clients (cassowary's -n, as the write-up ran it). */
  requests: { min: 1, max: 10_000, default: 100 },
  /** Extra clients that read each response slowly, one request each. */
  slowClients: { min: 0, max: 50, default: 0 },
  /** How fast each slow client reads, in KB per second. */
  slowKbps: { min: 1, max: 100_000, default: 256 },
} as const satisfies Record<string, Limit>;
