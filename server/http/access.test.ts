import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLabServer, type LabServer } from '../app-server';
import { withTempDataDir } from '../test-support';
import { accessPolicy, hostName } from './access';

/** Opens /ws with the given headers; resolves with 'open' or the HTTP status of the refusal. */
function tryUpgrade(url: string, headers: { origin?: string; host?: string }): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, {
      ...(headers.origin ? { origin: headers.origin } : {}),
      headers: headers.host ? { host: headers.host } : {},
    });
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

/** A raw GET/HEAD with an arbitrary Host header (fetch would not let us forge it). */
function get(url: string, path: string, host: string, method = 'GET'): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('who may connect', () => {
  withTempDataDir('access');
  let lab: LabServer;
  beforeAll(async () => {
    lab = await createLabServer({
      port: 0,
      host: '127.0.0.1',
      next: false,
      access: accessPolicy('127.0.0.1', { STREAM_LAB_ALLOWED_ORIGINS: 'https://training.example', STREAM_LAB_PUBLIC_HOSTS: 'lab.internal' }),
    });
  });
  afterAll(() => lab.close());

  it("opens /ws for the page's own origin and for an allowed origin", async () => {
    expect(await tryUpgrade(lab.url, { origin: lab.url })).toBe('open');
    expect(await tryUpgrade(lab.url, { origin: 'https://training.example' })).toBe('open');
    const port = new URL(lab.url).port;
    expect(await tryUpgrade(lab.url, { origin: `http://localhost:${port}`, host: `localhost:${port}` })).toBe('open');
  });

  it('refuses a foreign, null or missing Origin at the handshake with 403', async () => {
    expect(await tryUpgrade(lab.url, { origin: 'http://evil.example' })).toBe(403);
    expect(await tryUpgrade(lab.url, { origin: 'null' })).toBe(403);
    expect(await tryUpgrade(lab.url, {})).toBe(403);
    // Same host name, other port: another site as far as the browser is concerned.
    expect(await tryUpgrade(lab.url, { origin: 'http://127.0.0.1:1' })).toBe(403);
    expect(lab.hub.clientCount()).toBe(0);
  });

  it('answers a foreign Host with 421 on HTTP and on /ws (DNS rebinding gets nothing)', async () => {
    const foreign = await get(lab.url, '/api/health', 'evil.example:80');
    expect(foreign.status).toBe(421);
    expect(foreign.body).toContain('does not answer to host "evil.example:80"');
    expect(await tryUpgrade(lab.url, { origin: 'http://evil.example', host: 'evil.example' })).toBe(421);
    // Its own names still work, including a configured public one.
    expect((await get(lab.url, '/api/health', 'localhost:1234')).status).toBe(200);
    expect((await get(lab.url, '/api/health', 'lab.internal')).status).toBe(200);
  });

  it("refuses API calls from another site's page (Fetch Metadata) and marks answers same-origin only", async () => {
    const { port } = new URL(lab.url);
    const call = (site?: string) =>
      new Promise<{ status: number; corp: string | undefined }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/api/health', headers: site ? { 'sec-fetch-site': site } : {} }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, corp: res.headers['cross-origin-resource-policy'] as string | undefined });
        });
        req.once('error', reject).end();
      });
    expect(await call('cross-site')).toMatchObject({ status: 403, corp: 'same-origin' });
    expect((await call('same-site')).status).toBe(403);
    expect(await call('same-origin')).toEqual({ status: 200, corp: 'same-origin' });
    // Scripts and curl send no Fetch Metadata: they are not browsers' pages.
    expect((await call()).status).toBe(200);
  });

  it('answers HEAD wherever GET answers', async () => {
    const head = await get(lab.url, '/api/health', '127.0.0.1', 'HEAD');
    expect(head).toEqual({ status: 200, body: '' });
  });
});

describe('access settings', () => {
  it('refuses malformed origins and host names, naming the setting', () => {
    expect(() => accessPolicy('127.0.0.1', { STREAM_LAB_ALLOWED_ORIGINS: 'training.example' })).toThrow(
      'STREAM_LAB_ALLOWED_ORIGINS: "training.example" is not valid',
    );
    expect(() => accessPolicy('127.0.0.1', { STREAM_LAB_PUBLIC_HOSTS: 'a b' })).toThrow('STREAM_LAB_PUBLIC_HOSTS: "a b" is not valid');
  });

  it('answers to the listening host and, when bound to all interfaces, to the machine addresses', () => {
    expect(accessPolicy('lab.local', {}).hosts.has('lab.local')).toBe(true);
    const all = accessPolicy('0.0.0.0', {});
    expect(all.hosts.has('0.0.0.0')).toBe(false);
    expect(all.hosts.has('127.0.0.1')).toBe(true);
    expect(hostName('[::1]:3000')).toBe('::1');
    expect(hostName('Example.COM:80')).toBe('example.com');
  });
});
