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
import { join, resolve } from 'node:path';
import { STRATEGY_ID_PATTERN } from '../../lib/protocol';
import { findLab } from '../../labs/registry';
import { publicId, readOperatorToken, sameSecret } from '../hub/identity';
import { BROWSER_HEADER, OPERATOR_HEADER } from '../http/history-routes';
import { LOOPBACK_NAMES } from '../http/access';
import { sendError, sendJson, type Route } from '../http/router';
import { checkSource } from './compile';
import { fenceNotice } from './namespaces';
import { scanUserStrategies } from '.';
import { userStrategyEntries } from '../../labs/registry';

/** A source typed in the page may be at most this long (a strategy is a page or two). */
export const MAX_EDIT_BYTES = 64 * 1024;

/** Whether pages may edit and save code here, and if not, what would allow it. */
export interface EditingPolicy {
  allowed: boolean;
  /** Every request must also carry the operator token (the server listens beyond loopback). */
  needsToken: boolean;
  /** Why editing is off, and how to turn it on; null when it is on. */
  reason: string | null;
  /**
   * What code of yours can reach on this machine beyond what the fence stops (no namespaces here:
   * it can signal and connect, namespaces.ts), for the editor to show; null when fully fenced.
   */
  unfenced: string | null;
}

/** The policy for a server listening on `host`, from the environment. */
export function editingPolicy(host: string, env: Record<string, string | undefined> = process.env): EditingPolicy {
  const notice = fenceNotice(env);
  const unfenced = notice.namespaces ? null : notice.text;
  if (env.STREAM_LAB_ALLOW_CODE !== '1') {
    return {
      allowed: false,
      needsToken: false,
      unfenced,
      reason:
        'Read-only: editing code in the page is off. The operator can turn it on by starting the server with STREAM_LAB_ALLOW_CODE=1 (docs/strategies.md says what the fence stops and what it does not).',
    };
  }
  const needsToken = !LOOPBACK_NAMES.includes(host);
  // Nothing silently weaker: where the fence can't hold signals and connections in, the operator says they know.
  if (unfenced && env.STREAM_LAB_ALLOW_UNFENCED !== '1') {
    return {
      allowed: false,
      needsToken,
      unfenced,
      reason: `Editing is on (STREAM_LAB_ALLOW_CODE=1), but on this machine ${unfenced}. The operator must acknowledge that by also setting STREAM_LAB_ALLOW_UNFENCED=1.`,
    };
  }
  if (needsToken && readOperatorToken(env) === null) {
    return {
      allowed: false,
      needsToken,
      unfenced,
      reason: `Editing is on (STREAM_LAB_ALLOW_CODE=1), but this server listens on ${host}, beyond loopback: it also needs STREAM_LAB_OPERATOR_TOKEN, whose holder may then edit.`,
    };
  }
  return { allowed: true, needsToken, reason: null, unfenced };
}

/**
 * Did the request come from this machine itself? Not when its socket is from elsewhere, nor when a
 * proxy forwarded it or the server is published under other names (a server behind a reverse proxy
 * listens on loopback, yet its visitors are not on this machine).
 */
function fromLoopback(req: IncomingMessage, env: Record<string, string | undefined> = process.env): boolean {
  const address = req.socket.remoteAddress ?? '';
  const local = address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
  const proxied = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  const published = Boolean(env.STREAM_LAB_PUBLIC_HOSTS || env.STREAM_LAB_ALLOWED_ORIGINS);
  return local && !proxied && !published;
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
  // Saves and deletes one at a time: each checks the owner and writes the file and the owners
  // together, so two browsers saving one id can't both pass the check, nor lose each other's owners.
  let last: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const next = last.then(work, work);
    last = next.catch(() => {});
    return next;
  };

  /** Refuses (403) unless editing is on and the request may use it; returns the browser's public id (null for the operator alone). */
  function gate(req: IncomingMessage): { ok: true; owner: string | null; operator: boolean } | { ok: false; message: string } {
    const p = policy();
    if (!p.allowed) return { ok: false, message: p.reason! };
    const token = req.headers[OPERATOR_HEADER];
    const operatorToken = readOperatorToken();
    const operator = typeof token === 'string' && operatorToken !== null && sameSecret(token, operatorToken);
    if ((p.needsToken || !fromLoopback(req)) && !operator) {
      return {
        ok: false,
        message: `editing from beyond this machine (or through a proxy) needs the operator token (${OPERATOR_HEADER}; STREAM_LAB_OPERATOR_TOKEN)`,
      };
    }
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

  /**
   * Saves one copy (one at a time): the owner check, esbuild's check, the write, the owners, then
   * a scan. A file whose strategy declares another id than the one it is saved under is taken back
   * (otherwise one browser's file could claim another's id).
   */
  async function save(
    res: import('node:http').ServerResponse,
    t: { lab: string; id: string; path: string },
    source: string,
    who: { owner: string | null; operator: boolean },
  ): Promise<void> {
    const owners = readOwners(dir);
    const key = `${t.lab}/${t.id}`;
    const existed = existsSync(t.path);
    if (existed && !who.operator && owners[key] !== who.owner) {
      return sendError(res, 403, 'forbidden', `${t.id} exists and is not this browser's: save the copy under another id (or the operator may overwrite it)`);
    }
    const problems = await checkSource(source, join(dir, t.lab), `${t.id}.ts`);
    if (problems.length)
      return sendJson(res, 400, { type: 'error', code: 'bad-request', message: `the code does not compile: ${problems[0].message}`, problems });
    mkdirSync(join(dir, t.lab), { recursive: true });
    const previous = existed ? readFileSync(t.path, 'utf8') : null;
    const tmp = `${t.path}.tmp-${process.pid}`;
    writeFileSync(tmp, source);
    renameSync(tmp, t.path);
    await scanUserStrategies(dir);
    const entry = userStrategyEntries(t.lab).find((e) => e.file === t.path || resolve(e.file) === t.path);
    const declared = entry?.strategy?.id;
    if (!entry || entry.problem || declared !== t.id) {
      // Put back what was there (or nothing), and say why: a saved copy must load, under the id it is saved as.
      if (previous === null) unlinkSync(t.path);
      else writeFileSync(t.path, previous);
      if (await scanUserStrategies(dir)) opts.changed();
      const why = entry?.problem
        ? `it does not load: ${entry.problem.message}`
        : `its strategy.id must be "${t.id}", the id it is saved under${declared ? ` (it says "${declared}")` : ''}`;
      return sendError(res, 400, 'bad-request', `not saved: ${why}`);
    }
    // A new file is the saver's, whoever owned a file of that name before.
    if (who.owner && (!existed || owners[key] === undefined)) writeOwners(dir, { ...owners, [key]: who.owner });
    opts.changed();
    sendJson(res, 201, { lab: t.lab, id: t.id, file: t.path });
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
          const source = body.source;
          await oneAtATime(() => save(res, t, source, who));
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
          await oneAtATime(() => remove(res, t, who));
        }),
    },
  ];

  /** Deletes one saved copy (one at a time), if it is the asker's or the asker is the operator. */
  async function remove(
    res: import('node:http').ServerResponse,
    t: { lab: string; id: string; path: string },
    who: { owner: string | null; operator: boolean },
  ) {
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
  }
}
