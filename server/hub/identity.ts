/**
 * Who a page is in the room. A browser keeps a random id in local storage and says it in `hello`;
 * the room sees only a hash of it (so nobody can take another's id from the page) and its display
 * name. The operator token (STREAM_LAB_OPERATOR_TOKEN) lets its holder stop anyone's runs.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ClientMessage, Owner } from '../../lib/protocol';
import type { Requester, StopAnswer } from '../queue/run-queue';

/** The id others see for a browser: a hash of its secret id. */
export function publicId(browserId: string): string {
  return `b-${createHash('sha256').update(browserId).digest('hex').slice(0, 16)}`;
}

/** A page that has not said hello (an old page, a script): its own connection is its identity. */
export function anonymous(): Requester {
  return { owner: { id: `c-${randomBytes(8).toString('hex')}`, name: null }, operator: false };
}

/** Compares two secrets in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** STREAM_LAB_OPERATOR_TOKEN, or null; a token too short to be a secret stops startup. */
export function readOperatorToken(env: Record<string, string | undefined> = process.env): string | null {
  const raw = env.STREAM_LAB_OPERATOR_TOKEN;
  if (raw === undefined || raw === '') return null;
  if (raw.length < 12) throw new RangeError("STREAM_LAB_OPERATOR_TOKEN must be at least 12 characters (it is a password for stopping anyone's runs)");
  return raw;
}

/** Who a page is after its hello, and why its operator token was refused (if it sent a wrong one). */
export function greet(hello: Extract<ClientMessage, { type: 'hello' }>, operatorToken: string | null): { requester: Requester; refusal: string | null } {
  const operator = operatorToken !== null && hello.operatorToken !== null && sameSecret(hello.operatorToken, operatorToken);
  const requester: Requester = { owner: { id: publicId(hello.browserId), name: hello.name || null }, operator };
  let refusal: string | null = null;
  if (hello.operatorToken !== null && !operator) {
    refusal =
      operatorToken === null ? 'this server has no operator token set (STREAM_LAB_OPERATOR_TOKEN)' : 'the operator token is not the one this server was given';
  }
  return { requester, refusal };
}

/** The error for a stop that found nothing or was someone else's to make; null when it went ahead. */
export function stopRefusal(
  result: StopAnswer,
  what: 'run' | 'experiment',
  id: string,
  owner: Owner | null,
): { code: 'not-found' | 'forbidden'; message: string } | null {
  if (result === 'not-found') return { code: 'not-found', message: `no ${what} with id ${id}` };
  if (result === 'forbidden') {
    const who = owner?.name ? `${owner.name}'s browser` : 'the browser that started it';
    return { code: 'forbidden', message: `only ${who} can stop this ${what}, or the operator (STREAM_LAB_OPERATOR_TOKEN)` };
  }
  return null;
}
