'use client';

/**
 * An iframe snippet that says up front what decides whether it will show: the server only lets the
 * origins in STREAM_LAB_FRAME_ANCESTORS frame its pages (default: itself), and a blocked frame shows
 * only the browser's "refused to connect". The current setting is read from the embed page's own
 * Content-Security-Policy header, so what is shown is what the server sends.
 */
import { useEffect, useState } from 'react';
import { CopyBox } from '@/components/history/CopyBox';

/** "'self' https://training.example.com" from "frame-ancestors 'self' https://…; other-directive …", or null. */
export function frameAncestorsOf(csp: string | null): string | null {
  const directive = csp
    ?.split(';')
    .map((d) => d.trim())
    .find((d) => d.toLowerCase().startsWith('frame-ancestors '));
  return directive ? directive.slice('frame-ancestors '.length).trim() : null;
}

function useFrameAncestors(path: string): string | null | 'unknown' {
  const [value, setValue] = useState<string | null | 'unknown'>('unknown');
  useEffect(() => {
    const controller = new AbortController();
    fetch(path, { method: 'HEAD', signal: controller.signal })
      .then((res) => setValue(frameAncestorsOf(res.headers.get('content-security-policy'))))
      .catch(() => {
        if (!controller.signal.aborted) setValue('unknown');
      });
    return () => controller.abort();
  }, [path]);
  return value;
}

export interface EmbedSnippetProps {
  label: string;
  /** Path of the embed page, e.g. /embed/runs/r-0123456789. */
  path: string;
  snippet: string;
  testId: string;
  rows?: number;
}

/** The framing rule, the server's current setting, then the snippet with its Copy button. */
export function EmbedSnippet({ label, path, snippet, testId, rows = 4 }: EmbedSnippetProps) {
  const ancestors = useFrameAncestors(path);
  const current =
    ancestors === 'unknown'
      ? 'could not be read from this server'
      : ancestors === null
        ? 'not sent by this server (any site may frame it)'
        : `frame-ancestors ${ancestors}`;
  return (
    <div className="embed-snippet">
      <p className="embed-warning" data-testid={`${testId}-framing`}>
        Another site can show this frame only if Stream Lab was started with that site&apos;s origin in <code>STREAM_LAB_FRAME_ANCESTORS</code>, e.g.{' '}
        <code>STREAM_LAB_FRAME_ANCESTORS=&quot;&apos;self&apos; https://training.example.com&quot; npm start</code>; otherwise the browser shows &quot;refused
        to connect&quot; in the frame. Current setting: <code data-testid={`${testId}-ancestors`}>{current}</code>. See docs/embedding.md.
      </p>
      <CopyBox label={label} text={snippet} testId={testId} rows={rows} />
    </div>
  );
}
