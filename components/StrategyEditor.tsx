'use client';

/**
 * "Edit a copy" of a strategy, in the page (only when the server allows it: STREAM_LAB_ALLOW_CODE=1):
 * a CodeMirror 6 editor with JavaScript/TypeScript highlighting, the server's esbuild check shown
 * inline (line and column) as you type, Save under a new id into the strategies folder, and Run it
 * beside the original. CodeMirror is loaded only when an editor opens, so the dashboard's first
 * paint does not carry it.
 */
import { useEffect, useRef, useState } from 'react';
import type { CodeProblem, StrategyInfo } from '@/lib/protocol';
import { STRATEGY_ID_PATTERN } from '@/lib/protocol';
import { identityHeaders } from '@/components/hooks/browser-identity';

/** How long typing must pause before the code is checked again. */
const CHECK_DELAY_MS = 400;

/** A new id for a copy: the original's with "-copy" (or -copy-2, …) not yet taken in its lab. */
export function copyId(original: string, taken: ReadonlySet<string>): string {
  const base = `${original.slice(0, 58)}-copy`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * The copy's starting text: a strategy of yours is its whole file; a built-in's panel shows its
 * imports and run function, so the strategy object around them is written out.
 */
export function copySource(s: StrategyInfo, id: string): string {
  if (s.origin === 'yours') return withId(s.code, id);
  const mode = s.mode ? `\n  mode: '${s.mode}' as const,` : '';
  // The claims its lab's verdict tests (role), and what else its lab asks it to declare (format).
  const role = s.role ? `\n  role: '${s.role}',` : '';
  const declares = Object.entries(s.declares)
    .map(([k, v]) => `\n  ${k}: ${JSON.stringify(v)},`)
    .join('');
  return (
    `// A copy of ${s.id} (${s.label}). Change it, Save, and run it beside the original.\n` +
    `${fromLabs(s.code, s.lab)}\n\nexport const strategy = {\n  id: '${id}',\n  label: ${JSON.stringify(`${s.label} (copy)`)},${mode}${role}${declares}\n  run,\n};\n`
  );
}

/**
 * A built-in's relative imports (its lab's helpers: '../rows', './groupby-push') as the
 * `@stream-lab/labs/…` paths a strategy of yours may import them by, wherever the copy is saved.
 */
export function fromLabs(code: string, lab: string): string {
  return code.replace(/(\bfrom\s+)(['"])(\.{1,2}\/[^'"]+)\2/g, (_m, from: string, q: string, spec: string) => {
    const parts = [lab, 'child', 'strategies'];
    for (const seg of spec.split('/')) {
      if (seg === '..') parts.pop();
      else if (seg !== '.') parts.push(seg);
    }
    return `${from}${q}@stream-lab/labs/${parts.join('/')}${q}`;
  });
}

/** The source with its strategy's `id:` set to `id`: the first `id: '…'` after `export const strategy` (else the first in it). */
export function withId(source: string, id: string): string {
  const from = Math.max(0, source.search(/export\s+const\s+strategy\b/));
  return source.slice(0, from) + source.slice(from).replace(/(\bid\s*:\s*)(['"`])[^'"`\n]*\2/, `$1'${id}'`);
}

type Saved = { id: string } | null;

export interface StrategyEditorProps {
  original: StrategyInfo;
  /** Ids of the lab's strategies now (a copy's id must be new). */
  taken: ReadonlySet<string>;
  onClose(): void;
  /** Picks the original and the saved copy in the form and starts them. */
  onRunBeside(originalId: string, copyId: string): string | null;
}

/** The editor, its problems, the new id, Save and Run beside the original. */
export function StrategyEditor({ original, taken, onClose, onRunBeside }: StrategyEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [id, setId] = useState(() => copyId(original.id, taken));
  const source = useRef(copySource(original, id));
  const [problems, setProblems] = useState<CodeProblem[] | null>(null);
  const [status, setStatus] = useState<string | null>('Loading the editor…');
  const [saved, setSaved] = useState<Saved>(null);
  // Ids this editor saved: its own copy may be saved again under the same id.
  const [mine, setMine] = useState<readonly string[]>([]);
  const idError = !STRATEGY_ID_PATTERN.test(id)
    ? 'letters, digits and dashes, at most 64'
    : taken.has(id) && !mine.includes(id)
      ? 'already used in this lab'
      : null;

  // The catalog is replaced whenever a file of yours changes (saving this copy does): the editor is
  // made once per strategy, from what it was when opened, not again on every new catalog.
  const [{ lab, label }] = useState(original);
  useEffect(() => {
    let view: import('@codemirror/view').EditorView | null = null;
    let cancelled = false;
    void (async () => {
      const [{ EditorView, basicSetup }, { javascript }, { linter, lintGutter }] = await Promise.all([
        import('codemirror'),
        import('@codemirror/lang-javascript'),
        import('@codemirror/lint'),
      ]);
      if (cancelled || !host.current) return;
      // The server's esbuild check, as diagnostics at their line and column.
      const check = linter(
        async (v) => {
          const text = v.state.doc.toString();
          const found = await checkCode(lab, text);
          if (v.state.doc.toString() !== text) return [];
          setProblems(found);
          return found.map((p) => {
            const line = v.state.doc.line(Math.min(Math.max(p.line ?? 1, 1), v.state.doc.lines));
            const from = Math.min(line.from + Math.max((p.column ?? 1) - 1, 0), line.to);
            return { from, to: Math.min(from + 1, line.to) || from, severity: 'error' as const, message: p.message };
          });
        },
        { delay: CHECK_DELAY_MS },
      );
      view = new EditorView({
        doc: source.current,
        parent: host.current,
        extensions: [
          basicSetup,
          javascript({ typescript: true }),
          lintGutter(),
          check,
          EditorView.updateListener.of((u) => {
            if (u.docChanged) {
              source.current = u.state.doc.toString();
              setSaved(null);
            }
          }),
          EditorView.contentAttributes.of({ 'aria-label': `Code of the copy of ${label}`, 'data-testid': 'editor-content' }),
        ],
      });
      setStatus(null);
    })().catch((err: unknown) => setStatus(`The editor could not load: ${err instanceof Error ? err.message : String(err)}`));
    return () => {
      cancelled = true;
      view?.destroy();
    };
  }, [lab, label]);

  const save = async () => {
    setStatus('Saving…');
    const text = withId(source.current, id);
    const res = await fetch('/api/strategies', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...identityHeaders() },
      body: JSON.stringify({ lab: original.lab, id, source: text }),
    }).catch((err: unknown) => ({ ok: false, status: 0, json: async () => ({ message: String(err) }) }) as const);
    const body = (await res.json().catch(() => ({}))) as { message?: string; problems?: CodeProblem[] };
    if (!res.ok) {
      if (body.problems) setProblems(body.problems);
      setStatus(`Not saved: ${body.message ?? `the server answered ${res.status}`}`);
      return;
    }
    setSaved({ id });
    setMine((m) => (m.includes(id) ? m : [...m, id]));
    setStatus(`Saved as ${id} in the strategies folder: it is listed under Yours.`);
  };

  const blocking = problems?.length ? `${problems.length} problem${problems.length > 1 ? 's' : ''} to fix first` : null;
  return (
    <div className="strategy-editor" data-testid="strategy-editor" data-original={original.id}>
      <div ref={host} className="strategy-editor-host" />
      {problems && problems.length > 0 && (
        <ul className="editor-problems" data-testid="editor-problems">
          {problems.map((p, i) => (
            <li key={i} className="field-error">
              {p.line !== null ? `line ${p.line}${p.column !== null ? `, column ${p.column}` : ''}: ` : ''}
              {p.message}
            </li>
          ))}
        </ul>
      )}
      <div className="editor-actions">
        <label>
          Save as{' '}
          <input
            data-testid="editor-id"
            value={id}
            onChange={(e) => setId(e.target.value.trim())}
            aria-invalid={idError ? true : undefined}
            aria-describedby={idError ? 'editor-id-error' : undefined}
          />
        </label>
        {idError && (
          <span className="field-error" id="editor-id-error">
            {idError}
          </span>
        )}
        <button type="button" data-testid="editor-save" disabled={idError !== null || blocking !== null || status === 'Saving…'} onClick={() => void save()}>
          Save
        </button>
        <button
          type="button"
          data-testid="editor-run-beside"
          disabled={saved === null}
          onClick={() => saved && setStatus(onRunBeside(original.id, saved.id) ?? `Started ${original.id} and ${saved.id}: their cards are above.`)}
        >
          Run beside {original.id}
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
        {(status ?? blocking) && (
          <span className="muted" role="status" data-testid="editor-status">
            {status ?? blocking}
          </span>
        )}
      </div>
    </div>
  );
}

/** The server's esbuild check of the code; a check that could not be made is one problem saying why. */
async function checkCode(lab: string, source: string): Promise<CodeProblem[]> {
  try {
    const res = await fetch('/api/strategies/check', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...identityHeaders() },
      body: JSON.stringify({ lab, source }),
    });
    const body = (await res.json()) as { problems?: CodeProblem[]; message?: string };
    if (!res.ok) return [{ file: 'copy', line: null, column: null, message: body.message ?? `the check answered ${res.status}` }];
    return body.problems ?? [];
  } catch (err) {
    return [{ file: 'copy', line: null, column: null, message: `the code could not be checked: ${err instanceof Error ? err.message : String(err)}` }];
  }
}
