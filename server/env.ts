/** Reading the server's settings from the environment: one wording for every bad value. */

export interface IntSetting {
  env: string;
  min: number;
  max: number;
  default: number;
}

/** A whole number from the environment (the default when unset or empty); a bad value stops startup, naming the variable. */
export function readIntSetting(setting: IntSetting, env: Record<string, string | undefined> = process.env): number {
  const raw = env[setting.env];
  if (raw === undefined || raw === '') return setting.default;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < setting.min || n > setting.max) {
    throw new RangeError(`${setting.env} must be a whole number between ${setting.min} and ${setting.max} (got "${raw}")`);
  }
  return n;
}
