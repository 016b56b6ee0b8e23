import { describe, expect, it } from 'vitest';
import { buildStartMessage, defaultFormValues, formFromQuery, formToQuery, formValuesFromParams } from './experiment-form';
import { DEFAULT_STREAMS_PARAMS as DEFAULT_PARAMS } from '../../labs/streams/shared/params';

const CATALOG = ['rxjs-from', 'pipeline-generator'];

describe('the runtime in the form and its links', () => {
  it('carries the chosen Node into the start message and the link, and back', () => {
    const values = { ...defaultFormValues('streams'), node: '22' };
    const built = buildStartMessage(values, CATALOG, 2048);
    expect(built.ok && built.message.params.node).toBe('22');
    const query = formToQuery(values, CATALOG);
    expect(query).toContain('&node=22');
    expect(formFromQuery(new URLSearchParams(query), CATALOG, 2048).values.node).toBe('22');
  });

  it('leaves the server’s Node out of links and messages as null, like links from before runtimes', () => {
    const values = defaultFormValues('streams');
    expect(formToQuery(values, CATALOG)).not.toContain('node=');
    const built = buildStartMessage(values, CATALOG, 2048);
    expect(built.ok && built.message.params.node).toBeNull();
  });

  it('ignores a link’s node that is not a version, saying so', () => {
    const read = formFromQuery(new URLSearchParams('strategies=rxjs-from&node=../../bin/sh'), CATALOG, 2048);
    expect(read.values.node).toBeUndefined();
    expect(read.notes).toEqual(['node=../../bin/sh ignored: node must be a Node version such as 22 or 22.23.3 (digits and dots)']);
  });

  it('reopens a recorded run on its runtime', () => {
    expect(formValuesFromParams({ ...DEFAULT_PARAMS, node: '24.21.0' }, ['rxjs-from'], false).node).toBe('24.21.0');
    expect(formValuesFromParams(DEFAULT_PARAMS, ['rxjs-from'], false)).not.toHaveProperty('node');
  });
});
