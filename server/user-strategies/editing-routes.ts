/**
 * Editing a copy of a strategy in the page (issue 27, item 4), only when the operator allows it:
 * STREAM_LAB_ALLOW_CODE=1, and, when the server listens beyond loopback, the operator token on
 * every request too. Code typed in the page is checked with esbuild (problems with line and column),
 * saved under a new id into the strategies folder (owned by the browser that wrote it: others can
 * run it, only that browser or the operator can change or delete it), then read and run like any
 * file of yours: fenced.
 */
import type { IncomingMessage } from 'node:http';
import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STRATEGY_ID_PATTERN } from '../../lib/protocol';
import { findLab } from '../../labs/registry';
import { publicId, readOperatorToken, sameSecret } from '../hub/identity';
import { BROWSER_HEADER, OPERATOR_HEADER } from '../http/history-routes';
import { sendError, sendJson, type Route } from '../http/router';
import { checkSource } from './compile';
import { scanUserStrategies } from '.';

/** A source typed in the page may be at most this long (a strategy is a page or two). */
export const MAX_EDIT_BYTES = 64 * 1024;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Whether pages may edit and save code here, and if not, what would allow it. */
export interface EditingPolicy {
  allowed: boolean;
  /** Every request must also carry the operator token (the server listens beyond loopback). */
  needsToken: boolean;
  /** Why editing is off, and how to turn it on; null when it is on. */
  reason: string | null;
}

/** The policy for a server listening on `host`, from the environment. */
export function editingPolicy(host: string, env: Record<string, string | undefined> = process.env): EditingPolicy {
  if (env.STREAM_LAB_ALLOW_CODE !== '1') {
    return {
      allowed: false,
      needsToken: false,
      reason:
        'Read-only: editing code in the page is off. The operator can turn it on by starting the server with STREAM_LAB_ALLOW_CODE=1 (docs/strategies.md says what the fence stops and what it does not).',
    };
  }
  const needsToken = !LOOPBACK.has(host);
  if (needsToken && readOperatorToken(env) === null) {
    return {
      allowed: false,
      needsToken,
      reason: `Editing is on (STREAM_LAB_ALLOW_CODE=1), but this server listens on ${host}, beyond loopback: it also needs STREAM_LAB_OPERATOR_TOKEN, whose holder may then edit.`,
    };
  }
  return { allowed: true, needsToken, reason: null };
}

/** The JSON body of a request, at most `max` bytes; throws a RangeError saying what is wrong. */
function readJson(req: IncomingMessage, max: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => {
      size += d.length;
      if (size > max) {
        reject(new RangeError(`the body must be at most ${max} bytes`));
        req.destroy();
      } else parts.push(d);
    });
    req.on('end', () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error();
        resolve(value as Record<string, unknown>);
      } catch {
        reject(new RangeError('the body must be a JSON object'));
      }
    });
    req.on('error', reject);
  });
}

/** The owners of saved files: "<lab>/<id>" → the public id of the browser that saved it. */
type Owners = Record<string, string>;
const ownersFile = (dir: string) => join(dir, '.owners.json');
function readOwners(dir: string): Owners {
  try {
    return JSON.parse(readFileSync(ownersFile(dir), 'utf8')) as Owners;
  } catch {
    return {};
  }
}
function writeOwners(dir: string, owners: Owners): void {
  const tmp = `${ownersFile(dir)}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(owners, null, 2));
  renameSync(tmp, ownersFile(dir));
}

/** The editing routes for a server on `host` with this strategies folder; `changed` tells the pages. */
export function editingRoutes(opts: { host: string; dir: string; changed: () => void }): Route[] {
  const { dir } = opts;
  const policy = () => editingPolicy(opts.host);

  /** Refuses (403) unless editing is on and the request may use it; returns the browser's public id (null for the operator alone). */
  function gate(req: IncomingMessage): { ok: true; owner: string | null; operator: boolean } | { ok: false; message: string } {
    const p = policy();
    if (!p.allowed) return { ok: false, message: p.reason! };
    const token = req.headers[OPERATOR_HEADER];
    const operatorToken = readOperatorToken();
    const operator = typeof token === 'string' && operatorToken !== null && sameSecret(token, operatorToken);
    if (p.needsToken && !operator) return { ok: false, message: `this server listens beyond loopback: editing needs the operator token (${OPERATOR_HEADER})` };
    const browser = req.headers[BROWSER_HEADER];
    const owner = typeof browser === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(browser) ? publicId(browser) : null;
    return { ok: true, owner, operator };
  }

  /** lab and id from a body or a path, checked; throws a RangeError naming the field. */
  function target(lab: unknown, id: unknown): { lab: string; id: string; path: string } {
    if (typeof lab !== 'string' || !findLab(lab)) throw new RangeError('lab must be the id of a lab');
    if (findLab(lab)!.refusesUserStrategies) throw new RangeError(`lab: ${findLab(lab)!.refusesUserStrategies}`);
    if (typeof id !== 'string' || !STRATEGY_ID_PATTERN.test(id)) throw new RangeError('id must be letters, digits and dashes, at most 64');
    if (findLab(lab)!.strategies.some((s) => s.id === id)) throw new RangeError(`id "${id}" is a built-in strategy's; give the copy another`);
    // The id is checked above, so the path stays inside the folder.
    return { lab, id, path: join(dir, lab, `${id}.ts`) };
  }

  const answer = async (res: import('node:http').ServerResponse, work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      if (err instanceof RangeError) sendError(res, 400, 'bad-request', err.message);
      else throw err;
    }
  };

  return [
    {
      method: 'GET',
      pattern: /^\/api\/strategies\/editing$/,
      handle: ({ res }) => sendJson(res, 200, policy()),
    },
    {
      method: 'POST',
      pattern: /^\/api\/strategies\/check$/,
      handle: ({ req, res }) =>
        answer(res, async () => {
          const who = gate(req);
          if (!who.ok) return sendError(res, 403, 'forbidden', who.message);
          const body = await readJson(req, MAX_EDIT_BYTES + 1024);
          if (typeof body.source !== 'string') throw new RangeError('source must be the code, as text');
          const lab = typeof body.lab === 'string' && findLab(body.lab) ? body.lab : null;
          if (!lab) throw new RangeError('lab must be the id of a lab');
          const problems = await checkSource(body.source, join(dir, lab), typeof body.id === 'string' ? `${body.id}.ts` : 'copy.ts');
          sendJson(res, 200, { problems });
        }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/strategies$/,
      handle: ({ req, res }) =>
        answer(res, async () => {
          const who = gate(req);
          if (!who.ok) return sendError(res, 403, 'forbidden', who.message);
          if (!who.owner && !who.operator) throw new RangeError(`${BROWSER_HEADER} must carry the page's browser id (the file is that browser's)`);
          const body = await readJson(req, MAX_EDIT_BYTES + 1024);
          const t = target(body.lab, body.id);
          if (typeof body.source !== 'string' || Buffer.byteLength(body.source) > MAX_EDIT_BYTES) {
            throw new RangeError(`source must be the code, as text of at most ${MAX_EDIT_BYTES} bytes`);
          }
          const owners = readOwners(dir);
          const key = `${t.lab}/${t.id}`;
          if (existsSync(t.path) && !who.operator && owners[key] !== who.owner) {
            return sendError(
              res,
              403,
              'forbidden',
              `${t.id} exists and is not this browser's: save the copy under another id (or the operator may overwrite it)`,
            );
          }
          const problems = await checkSource(body.source, join(dir, t.lab), `${t.id}.ts`);
          if (problems.length)
            return sendJson(res, 400, { type: 'error', code: 'bad-request', message: `the code does not compile: ${problems[0].message}`, problems });
          mkdirSync(join(dir, t.lab), { recursive: true });
          const tmp = `${t.path}.tmp-${process.pid}`;
          writeFileSync(tmp, body.source);
          renameSync(tmp, t.path);
          if (who.owner) writeOwners(dir, { ...owners, [key]: owners[key] ?? who.owner });
          // Read it now, not at the next look: the answer can say whether it loaded.
          if (await scanUserStrategies(dir)) opts.changed();
          sendJson(res, 201, { lab: t.lab, id: t.id, file: t.path });
        }),
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/strategies\/(?<lab>[a-z0-9-]+)\/(?<id>[A-Za-z0-9-]+)$/,
      handle: ({ req, res, params }) =>
        answer(res, async () => {
          const who = gate(req);
          if (!who.ok) return sendError(res, 403, 'forbidden', who.message);
          const t = target(params.lab, params.id);
          const owners = readOwners(dir);
          const key = `${t.lab}/${t.id}`;
          if (!existsSync(t.path)) return sendError(res, 404, 'not-found', `no strategy file of yours ${key}`);
          if (!who.operator && (owners[key] === undefined || owners[key] !== who.owner)) {
            return sendError(res, 403, 'forbidden', `only the browser that saved ${t.id}, or the operator (STREAM_LAB_OPERATOR_TOKEN), can delete it`);
          }
          unlinkSync(t.path);
          const { [key]: _gone, ...rest } = owners;
          writeOwners(dir, rest);
          if (await scanUserStrategies(dir)) opts.changed();
          sendJson(res, 200, { deleted: key });
        }),
    },
  ];
}
