/**
 * Telling the labs apart on the page's side. A run's, an experiment's or a record's `lab` says
 * which lab's params it carries (the params union itself has no tag), and summaries carry `lab`
 * too. The dashboard's form and lessons exist for PAGE_LABS; a run of another lab (one whose server
 * side comes first) is still listed, charted and summed up with what every lab has. Client-safe:
 * only the labs' client-safe schema modules are imported.
 */
import { DEFAULT_LAB, LAB_IDS, LAB_SCHEMAS, labSchema, type LabId } from '../labs/schemas';
import type { LabParams } from './protocol';
import type { z } from 'zod';

export { DEFAULT_LAB, LAB_IDS, type LabId };

/** Each lab's params type, by lab id (from its schema). */
export type ParamsOfLab = { [S in (typeof LAB_SCHEMAS)[number] as S['id']]: z.infer<S['params']> };

/** The labs whose experiments the dashboard can set up (form, strategies, lessons), in switch order. */
export const PAGE_LABS: readonly LabId[] = LAB_IDS;
export type PageLabId = LabId;

/** True for a lab the dashboard's form knows. */
export function isPageLab(value: unknown): value is PageLabId {
  return typeof value === 'string' && (PAGE_LABS as readonly string[]).includes(value);
}

/** True for the id of a lab this build knows. */
export function isLabId(value: unknown): value is LabId {
  return typeof value === 'string' && (LAB_IDS as readonly string[]).includes(value);
}

/** The lab of a run, experiment or record; an unknown id reads as the default lab, as records from before labs do. */
export function labOf(x: { lab: string }): LabId {
  return isLabId(x.lab) ? x.lab : DEFAULT_LAB;
}

/** The params of something of the given lab, or null when it belongs to another lab. */
export function paramsOfLab<L extends LabId>(x: { lab: string; params: LabParams }, lab: L): ParamsOfLab[L] | null {
  return labOf(x) === lab ? (x.params as ParamsOfLab[L]) : null;
}

/** What the page calls each lab (the lab switch, headings), from its schema. */
export const LAB_NAMES = Object.fromEntries(LAB_SCHEMAS.map((s) => [s.id, s.name])) as Record<LabId, string>;

/** The params as the given lab's, or an error saying whose they are (for code that handles one lab). */
export function requireParamsOfLab<L extends LabId>(x: { lab: string; params: LabParams }, lab: L): ParamsOfLab[L] {
  const params = paramsOfLab(x, lab);
  if (!params) throw new TypeError(`expected ${lab} params, got ${x.lab} ones`);
  return params;
}

/** The reading that counts a run's work done (the streams lab's bytesProcessed, the HTTP lab's responsesOk), from the lab's schema. */
export function progressReadingOf(lab: LabId): string {
  return labSchema(lab)?.progress?.done ?? 'bytesProcessed';
}

/** The summary figure that says how much work a run had (bytes of the file, responses planned…), from the lab's schema. */
export function progressTotalOf(lab: LabId): string | null {
  return labSchema(lab)?.progress?.total ?? null;
}
