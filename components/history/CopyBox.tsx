'use client';

/** Read-only text with a Copy button: iframe snippets, shareable links, Markdown. */
import { useState } from 'react';

export function CopyBox({ label, text, testId, rows = 2 }: { label: string; text: string; testId: string; rows?: number }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard refused (insecure context, permissions): the text is selectable in the box.
      setCopied(false);
    }
  };
  return (
    <div className="copy-box">
      <label htmlFor={testId}>{label}</label>
      <div className="copy-row">
        <textarea id={testId} data-testid={testId} readOnly rows={rows} value={text} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
