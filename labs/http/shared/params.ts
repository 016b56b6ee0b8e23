/**
 * The HTTP lab's knobs: the table's size, rows per write and per cursor read, the load (clients
 * at once, requests in all) and the slow readers. Client-safe (no `node:`): the form, share links,
 * the CLI and the server all validate with it.
 */
import { z } from 'zod';
import { COMMON_LIMITS, commonParamsShape, DEFAULT_COMMON_PARAMS, rangedNumber } from '../../../lib/protocol/params';

import { HTTP_LIMITS } from './limits';

export { HTTP_LIMITS };

export const HTTP_PARAM_LIMITS = { ...HTTP_LIMITS, ...COMMON_LIMITS } as const;

export const httpParamsSchema = z.object({
  rows: rangedNumber('rows', HTTP_LIMITS.rows, { int: true }),
  batchRows: rangedNumber('batchRows', HTTP_LIMITS.batchRows, { int: true }),
  // Added after the first HTTP runs were recorded: their params have none, and read as the default.
  cursorRows: rangedNumber('cursorRows', HTTP_LIMITS.cursorRows, { int: true }).default(HTTP_LIMITS.cursorRows.default),
  concurrency: rangedNumber('concurrency', HTTP_LIMITS.concurrency, { int: true }),
  requests: rangedNumber('requests', HTTP_LIMITS.requests, { int: true }),
  slowClients: rangedNumber('slowClients', HTTP_LIMITS.slowClients, { int: true }),
  slowKbps: rangedNumber('slowKbps', HTTP_LIMITS.slowKbps, { int: true }),
  ...commonParamsShape,
});
export type HttpParams = z.infer<typeof httpParamsSchema>;

export const DEFAULT_HTTP_PARAMS: HttpParams = {
  rows: HTTP_LIMITS.rows.default,
  batchRows: HTTP_LIMITS.batchRows.default,
  cursorRows: HTTP_LIMITS.cursorRows.default,
  concurrency: HTTP_LIMITS.concurrency.default,
  requests: HTTP_LIMITS.requests.default,
  slowClients: HTTP_LIMITS.slowClients.default,
  slowKbps: HTTP_LIMITS.slowKbps.default,
  ...DEFAULT_COMMON_PARAMS,
};
