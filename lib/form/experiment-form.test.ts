import { describe, expect, it } from 'vitest';
import { buildStartMessage, defaultFormValues, formFromQuery, formToQuery, formValuesFromParams, labFromQuery } from './experiment-form';
import { formOf } from './lab-forms';
import { fieldLabel, formFieldErrors } from './form-fields';
import { PAGE_LABS } from '../labs';
import { DEFAULT_STREAMS_PARAMS as DEFAULT_PARAMS, type StreamsParams as RunParams } from '../../labs/streams/shared/params';
import type { LabParams } from '../protocol';
import { DEFAULT_HTTP_PARAMS, type HttpParams } from '../../labs/http/shared/params';

const CATALOG = ['rxjs-fromEvent', 'rxjs-from', 'pipeline-generator'];

describe('buildStartMessage', () => {
  it('builds a strict experiment.start from the defaults, in catalog order', () => {
    const values = { ...defaultFormValues(), strategies: ['pipeline-generator', 'rxjs-from'] };
    const built = buildStartMessage(values, CATALOG, 2048);
    expect(built).toEqual({
      ok: true,
      message: { type: 'experiment.start', lab: 'streams', strategies: ['rxjs-from', 'pipeline-generator'], params: DEFAULT_PARAMS, parallel: false },
    });
  });

  it('names the field and its range for a value out of range', () => {
    const values = defaultFormValues();
    const built = buildStartMessage({ ...values, numbers: { ...values.numbers, delayMs: '5000' } }, CATALOG, 2048);
    expect(built).toEqual({ ok: false, error: 'Consumer delay per call (ms) must be a number between 0 and 1000' });
  });

  it('treats an empty budget as no budget but an empty size as an error', () => {
    const values = defaultFormValues();
    const noBudget = buildStartMessage({ ...values, numbers: { ...values.numbers, budgetMb: ' ' } }, CATALOG, 2048);
    expect(noBudget.ok && noBudget.message.params.budgetMb).toBeNull();
    const noSize = buildStartMessage({ ...values, numbers: { ...values.numbers, sizeMb: '' } }, CATALOG, 2048);
    expect(noSize).toEqual({ ok: false, error: 'File size (MB) must be a whole number between 1 and 2048' });
  });

  it('rejects fractional whole-number fields and an empty selection', () => {
    const values = defaultFormValues();
    expect(buildStartMessage({ ...values, numbers: { ...values.numbers, chunkKb: '1.5' } }, CATALOG, 2048)).toEqual({
      ok: false,
      error: 'Chunk size (KB) must be a whole number between 1 and 4096',
    });
    expect(buildStartMessage({ ...values, strategies: [] }, CATALOG, 2048)).toEqual({
      ok: false,
      error: 'Pick at least one strategy to start',
    });
  });

  it('reads an empty sample interval as sampler off, an empty heap limit as Node’s default, an empty timeout as an error', () => {
    const values = defaultFormValues();
    const built = buildStartMessage({ ...values, numbers: { ...values.numbers, sampleMs: '', maxOldSpaceMb: '', seed: '7' } }, CATALOG, 2048);
    expect(built.ok && built.message.params).toEqual({ ...DEFAULT_PARAMS, sampleMs: null, maxOldSpaceMb: null, seed: 7 });
    expect(buildStartMessage({ ...values, numbers: { ...values.numbers, timeoutS: '' } }, CATALOG, 2048)).toEqual({
      ok: false,
      error: 'Timeout per run (s) must be a whole number between 1 and 3600',
    });
  });

  it('applies the server’s lower size cap', () => {
    const values = defaultFormValues();
    expect(buildStartMessage(values, CATALOG, 64)).toEqual({ ok: false, error: 'File size (MB) must be a whole number between 1 and 64' });
  });
});

describe('shareable links', () => {
  it('a form read back from its own link is the same form', () => {
    const values = {
      ...defaultFormValues(),
      strategies: ['pipeline-generator', 'rxjs-from'],
      numbers: { ...defaultFormValues().numbers, sizeMb: '32', delayMs: '2.5', budgetMb: '' },
      retained: true,
      parallel: true,
    };
    const query = formToQuery(values, CATALOG);
    expect(query).toBe('strategies=rxjs-from,pipeline-generator&sizeMb=32&delayMs=2.5&chunkKb=64&sampleMs=50&budgetMb=none&cpuUs=0&retained=1&parallel=1');
    const back = formFromQuery(new URLSearchParams(query), CATALOG, 2048);
    expect(back).toEqual({ values: { ...values, strategies: ['rxjs-from', 'pipeline-generator'] }, notes: [], autostart: false, present: true });
  });

  it('ignores each bad value with a note naming it, keeping the default there', () => {
    const q = new URLSearchParams('strategies=rxjs-from,nope&sizeMb=4096&delayMs=abc&retained=maybe&colour=red&autostart=1');
    const back = formFromQuery(q, CATALOG, 2048);
    expect(back.values).toEqual({ ...defaultFormValues(), strategies: ['rxjs-from'] });
    expect(back.notes).toEqual([
      'unknown parameter "colour" ignored',
      'strategies: unknown strategy "nope" ignored',
      'sizeMb=4096 ignored: File size (MB) must be a whole number between 1 and 2048',
      'delayMs=abc ignored: Consumer delay per call (ms) must be a number between 0 and 1000',
      'retained=maybe ignored: retained must be 1 or 0',
    ]);
    expect(back.autostart).toBe(true);
  });

  it('ignores bad heap limits, timeouts, seeds and sample intervals with a note naming each', () => {
    const q = new URLSearchParams('maxOldSpaceMb=8&timeoutS=1.5&seed=-1&sampleMs=never');
    const back = formFromQuery(q, CATALOG, 2048);
    expect(back.values).toEqual(defaultFormValues());
    expect(back.notes).toEqual([
      'sampleMs=never ignored: Sample every (ms) must be a whole number between 10 and 1000, or empty for sampler off',
      'maxOldSpaceMb=8 ignored: V8 heap limit (MB) must be a whole number between 16 and 16384, or empty for Node’s default (--max-old-space-size)',
      'timeoutS=1.5 ignored: Timeout per run (s) must be a whole number between 1 and 3600',
      'seed=-1 ignored: Data seed must be a whole number between 0 and 2147483647',
    ]);
  });

  it('applies the server size cap and reports a link without parameters as absent', () => {
    expect(formFromQuery(new URLSearchParams('sizeMb=600'), CATALOG, 512).notes).toEqual([
      'sizeMb=600 ignored: File size (MB) must be a whole number between 1 and 512',
    ]);
    expect(formFromQuery(new URLSearchParams(''), CATALOG, 512)).toEqual({ values: defaultFormValues(), notes: [], autostart: false, present: false });
  });
});

describe('a recorded run’s "open this experiment" link', () => {
  /** The run's link as RunDetailView builds it, opened, then started: the params that would run. */
  function reopen(params: RunParams): { query: string; params: LabParams | null; notes: string[] } {
    const query = formToQuery(formValuesFromParams(params, ['pipeline-generator'], false), CATALOG);
    const link = formFromQuery(new URLSearchParams(query), CATALOG, 2048);
    const built = buildStartMessage(link.values, CATALOG, 2048);
    return { query, params: built.ok ? built.message.params : null, notes: link.notes };
  }

  const CASES: Array<[string, RunParams]> = [
    ['the defaults', DEFAULT_PARAMS],
    [
      'a V8 heap limit, a seed, a timeout, no budget and the sampler off',
      { ...DEFAULT_PARAMS, sampleMs: null, maxOldSpaceMb: 16, seed: 7, timeoutS: 30, budgetMb: null },
    ],
    ['a fractional delay and retained mode', { ...DEFAULT_PARAMS, sizeMb: 3, delayMs: 0.25, cpuUs: 1500, chunkKb: 1, sampleMs: 10, retained: true }],
    [
      'the upper limits',
      {
        sizeMb: 2048,
        delayMs: 1000,
        cpuUs: 100_000,
        chunkKb: 4096,
        sampleMs: 1000,
        retained: false,
        budgetMb: 16_384,
        maxOldSpaceMb: 16_384,
        timeoutS: 3600,
        seed: 2 ** 31 - 1,
        node: null,
      },
    ],
    [
      'seed 0 and the lower limits',
      { sizeMb: 1, delayMs: 0, cpuUs: 0, chunkKb: 1, sampleMs: 10, retained: false, budgetMb: 32, maxOldSpaceMb: 16, timeoutS: 1, seed: 0, node: null },
    ],
  ];

  it.each(CASES)('starts exactly the recorded parameters again: %s', (_name, params) => {
    const back = reopen(params);
    expect(back.notes).toEqual([]);
    // A run recorded before the consumer knobs had the sleep consumer, one call at a time: their
    // defaults, which the reopened form now sends along.
    const { consumer, concurrency, apiP99Ms, apiErrorRate, apiPool, dbBatchRows } = DEFAULT_PARAMS;
    expect(back.params).toEqual({ ...params, consumer, concurrency, apiP99Ms, apiErrorRate, apiPool, dbBatchRows });
  });

  it('reopens a run with the http consumer at concurrency 8 on records exactly, and links only what differs from the defaults', () => {
    const params = { ...DEFAULT_PARAMS, consumer: 'http', concurrency: 8, records: true, apiP99Ms: 200, apiErrorRate: 0.05 } as const;
    const back = reopen(params);
    expect(back.notes).toEqual([]);
    expect(back.params).toEqual(params);
    expect(back.query).toContain('concurrency=8&apiP99Ms=200&apiErrorRate=0.05&records=1&consumer=http');
    expect(back.query).not.toContain('apiPool');
  });

  it('names a bad consumer in a link, keeping the default', () => {
    const back = formFromQuery(new URLSearchParams('consumer=kafka'), CATALOG, 2048);
    expect(back.notes).toEqual(['consumer=kafka ignored: consumer must be one of sleep, http, postgres']);
    expect(back.values.choices).toEqual({ consumer: 'sleep' });
  });

  it('spells a heap-limited run with the sampler off in the link', () => {
    const { query } = reopen({ ...DEFAULT_PARAMS, sampleMs: null, maxOldSpaceMb: 16, seed: 7, timeoutS: 30, budgetMb: null });
    expect(query).toBe(
      'strategies=pipeline-generator&sizeMb=150&delayMs=10&chunkKb=64&sampleMs=off&budgetMb=none&cpuUs=0&maxOldSpaceMb=16&timeoutS=30&seed=7&retained=0&parallel=0',
    );
  });
});

describe('the HTTP lab’s form', () => {
  const HTTP_CATALOG = ['buffered-json', 'ndjson-all-rows', 'ndjson-cursor', 'json-array-cursor', 'write-ignoring-drain'];
  const http = () => defaultFormValues('http');

  it('starts with the lab’s defaults and sends lab "http", never in parallel', () => {
    expect(http().strategies).toEqual(['buffered-json', 'ndjson-cursor']);
    expect(buildStartMessage({ ...http(), parallel: true }, HTTP_CATALOG, 2048)).toEqual({
      ok: true,
      message: { type: 'experiment.start', lab: 'http', strategies: ['buffered-json', 'ndjson-cursor'], params: DEFAULT_HTTP_PARAMS, parallel: false },
    });
  });

  it('names its own fields and ranges, and ignores the streams cap on file sizes', () => {
    const values = http();
    expect(buildStartMessage({ ...values, numbers: { ...values.numbers, rows: '999' } }, HTTP_CATALOG, 64)).toEqual({
      ok: false,
      error: 'Table size (rows) must be a whole number between 1000 and 1000000',
    });
    expect(buildStartMessage({ ...values, numbers: { ...values.numbers, concurrency: '2.5', slowKbps: '0' } }, HTTP_CATALOG, 64)).toEqual({
      ok: false,
      error: 'Clients at once must be a whole number between 1 and 200; Slow client speed (KB/s) must be a whole number between 1 and 100000',
    });
    expect(buildStartMessage({ ...values, numbers: { ...values.numbers, rows: '1000000' } }, HTTP_CATALOG, 64).ok).toBe(true);
  });

  it('writes its lab first in a link and reads the same form back', () => {
    const values = { ...http(), numbers: { ...http().numbers, rows: '1000', requests: '20', concurrency: '4', batchRows: '50' } };
    const query = formToQuery(values, HTTP_CATALOG);
    expect(query).toBe('lab=http&strategies=buffered-json,ndjson-cursor&rows=1000&concurrency=4&requests=20&batchRows=50&slowClients=0&retained=0');
    expect(formFromQuery(new URLSearchParams(query), HTTP_CATALOG, 2048)).toEqual({ values, notes: [], autostart: false, present: true });
  });

  it('opens the HTTP lab with its defaults from "?lab=http" alone', () => {
    expect(formFromQuery(new URLSearchParams('lab=http'), HTTP_CATALOG, 2048)).toEqual({ values: http(), notes: [], autostart: false, present: true });
  });

  it('notes what a link asks that the lab cannot do', () => {
    const back = formFromQuery(new URLSearchParams('lab=http&parallel=1&sizeMb=32&rows=5'), HTTP_CATALOG, 2048);
    expect(back.values).toEqual(http());
    expect(back.notes).toEqual([
      'unknown parameter "sizeMb" ignored',
      'rows=5 ignored: Table size (rows) must be a whole number between 1000 and 1000000',
      'parallel=1 ignored: HTTP responses runs one strategy at a time',
    ]);
  });

  it('reads an unknown lab as the streams lab, with a note', () => {
    expect(labFromQuery(new URLSearchParams('lab=kafka'))).toEqual({
      lab: 'streams',
      note: 'lab=kafka ignored: lab must be one of streams, http, cpu, deadline, hotcode',
    });
    const back = formFromQuery(new URLSearchParams('lab=kafka'), CATALOG, 2048);
    expect(back.values).toEqual(defaultFormValues());
    expect(back.notes).toEqual(['lab=kafka ignored: lab must be one of streams, http, cpu, deadline, hotcode']);
  });

  it('carries the CPU lab’s workers ("cores" when empty) and keep-alive (only when on) through a link', () => {
    const catalog = ['single-thread', 'cluster'];
    const values = {
      ...defaultFormValues('cpu'),
      strategies: ['cluster'],
      numbers: { ...defaultFormValues('cpu').numbers, n: '30', workers: '3' },
      switches: { keepAlive: true, profile: false, heapProfile: false },
    };
    const query = formToQuery(values, catalog);
    expect(query).toBe('lab=cpu&strategies=cluster&n=30&requests=4&concurrency=4&workers=3&keepAlive=1&retained=0');
    const back = formFromQuery(new URLSearchParams(query), catalog, 2048);
    expect(back.values).toEqual(values);
    const built = buildStartMessage(back.values, catalog, 2048);
    expect(built.ok && built.message.params).toMatchObject({ n: 30, workers: 3, keepAlive: true });
    const cores = formFromQuery(new URLSearchParams('lab=cpu&workers=cores'), catalog, 2048).values;
    expect(cores.numbers.workers).toBe('');
    expect(cores.switches).toEqual({ keepAlive: false, profile: false, heapProfile: false });
    expect(buildStartMessage(cores, catalog, 2048)).toMatchObject({ ok: true, message: { lab: 'cpu', params: { workers: null, keepAlive: false } } });
    expect(formFromQuery(new URLSearchParams('lab=cpu&keepAlive=yes'), catalog, 2048).notes).toEqual(['keepAlive=yes ignored: keepAlive must be 1 or 0']);
  });

  it('reopens a recorded HTTP run with exactly its parameters', () => {
    const params: HttpParams = { ...DEFAULT_HTTP_PARAMS, rows: 1000, requests: 20, concurrency: 4, slowClients: 2, slowKbps: 64, budgetMb: null, sampleMs: 20 };
    const query = formToQuery(formValuesFromParams(params, ['write-ignoring-drain'], false, 'http'), HTTP_CATALOG);
    const link = formFromQuery(new URLSearchParams(query), HTTP_CATALOG, 2048);
    const built = buildStartMessage(link.values, HTTP_CATALOG, 2048);
    expect(link.notes).toEqual([]);
    expect(built.ok && built.message).toEqual({ type: 'experiment.start', lab: 'http', strategies: ['write-ignoring-drain'], params, parallel: false });
  });
});

describe('every lab’s form', () => {
  it.each(PAGE_LABS)('has a field for each numeric param of the %s lab’s schema, in its form and its links', (lab) => {
    const form = formOf(lab);
    const switches = form.switches.map((s) => s.field);
    const choices = (form.choices ?? []).map((s) => s.field);
    // `node` (the runtime) is the form's select, not a numeric field; so are a lab's choices (the consumer).
    const numeric = Object.keys(form.defaults)
      .filter((k) => k !== 'retained' && k !== 'node' && !switches.includes(k) && !choices.includes(k))
      .sort();
    expect(form.fields.map((f) => f.field).sort()).toEqual(numeric);
    expect([...form.linkOrder].sort()).toEqual(numeric);
    // And the defaults go out as they are.
    const built = buildStartMessage(defaultFormValues(lab), form.defaultStrategies, 2048);
    expect(built.ok && built.message.params).toEqual(form.defaults);
  });
});

describe('the CPU profile switch', () => {
  it('is on every lab’s form, goes into links only when on, and sends profile only when ticked', () => {
    for (const lab of PAGE_LABS) expect(formOf(lab).switches.map((s) => s.field)).toEqual(expect.arrayContaining(['profile', 'heapProfile']));
    const values = { ...defaultFormValues('hotcode'), switches: { sweep: false, profile: true, heapProfile: true } };
    const query = formToQuery(values);
    expect(query).toContain('profile=1');
    expect(query).toContain('heapProfile=1');
    const back = formFromQuery(new URLSearchParams(query), ['report-slow', 'report-fixed'], 2048);
    expect(back.values.switches).toEqual({ sweep: false, profile: true, heapProfile: true });
    expect(buildStartMessage(back.values, ['report-slow', 'report-fixed'], 2048)).toMatchObject({
      ok: true,
      message: { params: { profile: true, heapProfile: true } },
    });
    const off = buildStartMessage(defaultFormValues('hotcode'), ['report-slow'], 2048);
    expect(off.ok && 'profile' in off.message.params).toBe(false);
    expect(off.ok && 'heapProfile' in off.message.params).toBe(false);
  });
});

describe('the Heap snapshot field', () => {
  const withTrigger = (text: string) => ({ ...defaultFormValues(), texts: { heapSnapshot: text } });

  it('starts empty and then leaves heapSnapshot out of the message and the link', () => {
    expect(defaultFormValues().texts).toEqual({ heapSnapshot: '' });
    const built = buildStartMessage(withTrigger('  '), CATALOG, 2048);
    expect(built.ok && 'heapSnapshot' in built.message.params).toBe(false);
    expect(formToQuery(withTrigger(''), CATALOG)).not.toContain('heapSnapshot');
  });

  it('sends a trigger as typed (trimmed), links it readably, and reads it back from the link', () => {
    const values = withTrigger(' when=arrayBuffers>32MB ');
    expect(buildStartMessage(values, CATALOG, 2048)).toMatchObject({ ok: true, message: { params: { heapSnapshot: 'when=arrayBuffers>32MB' } } });
    const query = formToQuery(values, CATALOG);
    expect(query).toContain('&heapSnapshot=when=arrayBuffers%3E32MB&');
    const back = formFromQuery(new URLSearchParams(query), CATALOG, 2048);
    expect(back.notes).toEqual([]);
    expect(back.values.texts).toEqual({ heapSnapshot: 'when=arrayBuffers>32MB' });
  });

  it('marks a bad trigger before Start with the message naming the field, as a link’s note', () => {
    const message = 'Heap snapshot must be at=<seconds> (0–3600) or when=<figure>><value>, e.g. when=arrayBuffers>32MB; got "at=soon"';
    expect(formFieldErrors(defaultFormValues().numbers, 2048, formOf('streams'), { heapSnapshot: 'at=soon' })).toEqual({ heapSnapshot: message });
    expect(buildStartMessage(withTrigger('at=soon'), CATALOG, 2048)).toEqual({ ok: false, error: message });
    expect(fieldLabel('heapSnapshot')).toBe('Heap snapshot');
    const link = formFromQuery(new URLSearchParams('heapSnapshot=at=soon'), CATALOG, 2048);
    expect(link.notes).toEqual([`heapSnapshot=at=soon ignored: ${message}`]);
    expect(link.values.texts).toEqual({ heapSnapshot: '' });
  });

  it('refuses a when= figure the lab’s samples never carry, naming the ones they do', () => {
    const error = formFieldErrors(defaultFormValues().numbers, 2048, formOf('streams'), { heapSnapshot: 'when=requestsOk>3' }).heapSnapshot;
    expect(error).toMatch(/^Heap snapshot: when= names "requestsOk", which this lab's samples don't have; allowed: rss, .*bytesRead/);
    const cpu = defaultFormValues('cpu');
    expect(formFieldErrors(cpu.numbers, 2048, formOf('cpu'), { heapSnapshot: 'when=requestsOk>3' })).toEqual({});
  });

  it('reopens a recorded run with its trigger', () => {
    const values = formValuesFromParams({ ...DEFAULT_PARAMS, heapProfile: true, heapSnapshot: 'at=5' }, ['rxjs-from'], false);
    expect(values.texts).toEqual({ heapSnapshot: 'at=5' });
    expect(values.switches.heapProfile).toBe(true);
    expect(buildStartMessage(values, CATALOG, 2048)).toMatchObject({ ok: true, message: { params: { heapProfile: true, heapSnapshot: 'at=5' } } });
  });
});
