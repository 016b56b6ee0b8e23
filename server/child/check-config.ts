/**
 * Field checks for the config a child is started with. Hand-written, not zod: loading zod costs
 * a child ~110 ms and ~14 MB (measured), which would show in every run's start and baseline.
 * Each check throws a ConfigError naming the field; the child then ends as crashed with it.
 */
export class ConfigError extends Error {}

type Obj = Record<string, unknown>;

/** The value as an object, or a ConfigError naming `field`. */
export function objectAt(value: unknown, field: string): Obj {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${field} must be an object`);
  return value as Obj;
}

/** A finite number within [min, max] (a whole one if `int`). */
export function numberAt(obj: Obj, field: string, min: number, max: number, opts: { int?: boolean; nullable?: boolean } = {}): number {
  const v = obj[field];
  if (v === null && opts.nullable) return null as unknown as number;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (opts.int && !Number.isInteger(v))) {
    throw new ConfigError(
      `${field} must be ${opts.int ? 'a whole number' : 'a number'} between ${min} and ${max}${opts.nullable ? ' or null' : ''} (got ${JSON.stringify(v)})`,
    );
  }
  return v;
}

/** A number within a parameter's declared range (the lab's shared limits), with the same message. */
export function limitAt(obj: Obj, field: string, limit: { min: number; max: number }, opts: { int?: boolean } = {}): number {
  return numberAt(obj, field, limit.min, limit.max, opts);
}

/** A string matching `pattern`. */
export function stringAt(obj: Obj, field: string, pattern: RegExp): string {
  const v = obj[field];
  if (typeof v !== 'string' || !pattern.test(v)) throw new ConfigError(`${field} must be a string matching ${pattern} (got ${JSON.stringify(v)})`);
  return v;
}

export function booleanAt(obj: Obj, field: string): boolean {
  const v = obj[field];
  if (typeof v !== 'boolean') throw new ConfigError(`${field} must be true or false (got ${JSON.stringify(v)})`);
  return v;
}
