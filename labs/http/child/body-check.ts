/**
 * Checks one response body without parsing it into objects (the load child checks every response,
 * and JSON.parse of a 7 MB body per response would make the load, not the server, the bottleneck):
 * counts the rows, adds up their ids and years of birth, and checks the body's frame. Pure.
 */
export interface Expected {
  rows: number;
  idSum: number;
  yearSum: number;
}

export type BodyFormat = 'json-array' | 'ndjson';

/** null when the body is complete and right; otherwise what is wrong with it. */
export function checkBody(body: string, format: BodyFormat, expected: Expected): string | null {
  const trimmed = body.trimEnd();
  if (format === 'json-array') {
    if (!trimmed.startsWith('[') || !trimmed.endsWith(']')) return `not a complete JSON array (${body.length} characters)`;
  } else if (body.length > 0 && !body.endsWith('\n')) {
    return `NDJSON cut off mid-line (${body.length} characters)`;
  }
  let rows = 0;
  let idSum = 0;
  let yearSum = 0;
  for (let at = body.indexOf('"id":'); at !== -1; at = body.indexOf('"id":', at + 5)) {
    rows += 1;
    idSum += intAfter(body, at + 5);
    const year = body.indexOf('"year_of_birth":', at);
    if (year === -1) return `row ${rows} has no year_of_birth`;
    yearSum += intAfter(body, year + 16);
  }
  if (rows !== expected.rows) return `${rows} rows instead of ${expected.rows}`;
  if (idSum !== expected.idSum || yearSum !== expected.yearSum) return `the rows' checksum is wrong (ids ${idSum}, years ${yearSum})`;
  return null;
}

/** The non-negative integer written at `from` (0 if none). */
function intAfter(s: string, from: number): number {
  let n = 0;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
  }
  return n;
}
