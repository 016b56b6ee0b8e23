/** A run's verdict as the pages show it, with the test hooks docs/testing.md lists. */
import type { Verdict } from '@/lib/protocol';

/**
 * The verdict's sentence in `run-verdict`, with `data-expected` ("true", "false", or "" when it
 * can't be told) and `data-figures` (the figures the sentence quotes, JSON, raw units). With no
 * verdict yet (the page is still reading what it compares with) only the text: both attributes
 * are absent, so a test waiting for them waits for the verdict.
 */
export function VerdictLine({ outcome, verdict, text }: { outcome: string; verdict: Verdict | null; text?: string }) {
  return (
    <p
      className={`verdict outcome-${outcome}`}
      data-testid="run-verdict"
      data-expected={verdict ? (verdict.expected === null ? '' : String(verdict.expected)) : undefined}
      data-figures={verdict ? JSON.stringify(verdict.figures) : undefined}
    >
      {verdict?.text ?? text}
    </p>
  );
}
