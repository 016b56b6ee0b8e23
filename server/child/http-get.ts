/** A GET on 127.0.0.1 for a lab's load process, and the percentile its figures use. Child side, no zod. */
import { request, type Agent } from 'node:http';

/** GET http://127.0.0.1:port/path: status, body, and when the first byte came (performance.now()). */
export function get(port: number, path: string, agent: Agent, timeoutMs: number): Promise<{ status: number; body: string; firstByteAt: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, timeout: timeoutMs }, (res) => {
      const firstByteAt = performance.now();
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, firstByteAt }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end();
  });
}

export { percentile } from './numbers';
