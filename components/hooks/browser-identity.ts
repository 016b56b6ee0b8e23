/**
 * Who this browser is to the room: a random id kept in local storage (so every tab of this
 * browser owns the same experiments, and a reload keeps them), a display name and, for the
 * trainer, the operator token. The id is a secret: the server shows others only a hash of it.
 */
const ID_KEY = 'stream-lab.browserId';
const NAME_KEY = 'stream-lab.name';
const TOKEN_KEY = 'stream-lab.operatorToken';

export interface BrowserIdentity {
  browserId: string;
  name: string | null;
  operatorToken: string | null;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Storage refused (private mode, sandboxed frame): an id for this page only.
    return null;
  }
}

let pageOnlyId: string | null = null;

function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The browser's id, made on first use. */
export function browserId(): string {
  const s = storage();
  const known = s?.getItem(ID_KEY);
  if (known && /^[A-Za-z0-9_-]{16,64}$/.test(known)) return known;
  const id = newId();
  if (s) s.setItem(ID_KEY, id);
  else pageOnlyId ??= id;
  return s ? id : pageOnlyId!;
}

export function readIdentity(): BrowserIdentity {
  const s = storage();
  return { browserId: browserId(), name: s?.getItem(NAME_KEY)?.trim().slice(0, 40) || null, operatorToken: s?.getItem(TOKEN_KEY) || null };
}

/** Saves the name and token the Room panel was given (empty clears them). */
export function saveIdentity(patch: { name?: string; operatorToken?: string }): void {
  const s = storage();
  if (!s) return;
  if (patch.name !== undefined) {
    if (patch.name.trim()) s.setItem(NAME_KEY, patch.name.trim().slice(0, 40));
    else s.removeItem(NAME_KEY);
  }
  if (patch.operatorToken !== undefined) {
    if (patch.operatorToken) s.setItem(TOKEN_KEY, patch.operatorToken);
    else s.removeItem(TOKEN_KEY);
  }
}

/** Headers that let the server tell this browser's history (or the operator) apart. */
export function identityHeaders(): Record<string, string> {
  const { browserId: id, operatorToken } = readIdentity();
  return { 'x-stream-lab-browser': id, ...(operatorToken ? { 'x-stream-lab-operator': operatorToken } : {}) };
}
