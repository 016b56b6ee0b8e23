'use client';

/**
 * The room: everyone's running and waiting experiments with who started them, each one can be
 * watched live; your own (or, with the operator token, anyone's) can be stopped. Your name and
 * the operator token are set here and kept in this browser.
 */
import { useState } from 'react';
import type { Experiment, StrategyInfo } from '@/lib/protocol';
import { isActive, isOwn, queuePlace, runsOf, type LabState } from '@/lib/lab-state';
import { formatClock, formatSeconds } from '@/lib/readouts/format';
import { readIdentity, saveIdentity } from '@/components/hooks/browser-identity';

export interface RoomPanelProps {
  state: LabState;
  watching: string | null;
  onWatch(experimentId: string | null): void;
  onStop(experimentId: string): void;
  /** Called after the name or token changed, so the page says hello again. */
  onIdentityChange(): void;
}

function whoStarted(state: LabState, e: Experiment): string {
  if (isOwn(state, e)) return 'you';
  return e.owner?.name ?? 'someone';
}

function describe(state: LabState, e: Experiment, labels: Map<string, string>): string {
  const runs = runsOf(state, e);
  const running = runs.filter((r) => r.status === 'running' || r.status === 'preparing').length;
  const places = runs.map((r) => queuePlace(state, r.id)).filter((p): p is NonNullable<typeof p> => p !== null);
  const strategies = e.strategies.map((s) => labels.get(`${e.lab}/${s}`) ?? s).join(', ');
  if (running > 0) return `${strategies} · running`;
  const first = places.sort((a, b) => a.place - b.place)[0];
  if (!first) return strategies;
  const wait = first.etaMs === null ? '' : `, about ${formatSeconds(first.etaMs)} to wait`;
  return `${strategies} · waiting, #${first.place} in the queue${wait}`;
}

export function RoomPanel({ state, watching, onWatch, onStop, onIdentityChange }: RoomPanelProps) {
  const [name, setName] = useState(() => (typeof window === 'undefined' ? '' : (readIdentity().name ?? '')));
  const [token, setToken] = useState('');
  // By lab and id: ids repeat across labs (cpu and deadline both have worker-pool).
  const labels = new Map(state.strategies.map((s: StrategyInfo) => [`${s.lab}/${s.id}`, s.label]));
  const active = state.experiments.filter((e) => runsOf(state, e).some(isActive));
  const operator = state.me?.operator ?? false;

  return (
    <section className="panel room" aria-labelledby="room-heading" data-testid="room-panel">
      <header className="panel-header">
        <h2 id="room-heading">Room</h2>
        <span className="muted">
          {active.length === 0 ? 'nothing running' : `${active.length} experiment${active.length === 1 ? '' : 's'} running or waiting`}
          {operator && ' · you are the operator'}
        </span>
      </header>
      {watching !== null && (
        <p className="room-watching" data-testid="room-watching">
          Watching{' '}
          {(() => {
            const e = state.experiments.find((x) => x.id === watching);
            return e ? `${whoStarted(state, e)}’s experiment` : 'an experiment';
          })()}{' '}
          <button type="button" data-testid="room-back" onClick={() => onWatch(null)}>
            Back to mine
          </button>
        </p>
      )}
      {active.length > 0 && (
        <ul className="room-list">
          {active.map((e) => (
            <li key={e.id} data-testid="room-experiment" data-experiment-id={e.id} data-own={isOwn(state, e) ? 'yes' : 'no'}>
              <span>
                <strong>{whoStarted(state, e)}</strong> · {formatClock(e.createdAt)} · {describe(state, e, labels)}
              </span>
              {watching !== e.id && !isOwn(state, e) && (
                <button type="button" data-testid="room-watch" onClick={() => onWatch(e.id)}>
                  Watch
                </button>
              )}
              {(isOwn(state, e) || operator) && (
                <button type="button" data-testid="room-stop" onClick={() => onStop(e.id)}>
                  Stop
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <details className="room-identity">
        <summary>Your name in the room{operator ? '' : ', operator token'}</summary>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            saveIdentity({ name, ...(token ? { operatorToken: token } : {}) });
            setToken('');
            onIdentityChange();
          }}
        >
          <label>
            Name <input value={name} maxLength={40} onChange={(e) => setName(e.target.value)} data-testid="room-name" />
          </label>
          <label>
            Operator token <input type="password" value={token} onChange={(e) => setToken(e.target.value)} data-testid="room-token" autoComplete="off" />
          </label>
          <button type="submit" data-testid="room-save">
            Save
          </button>
          <p className="muted">
            Only this browser (or the operator, with <code>STREAM_LAB_OPERATOR_TOKEN</code>) can stop the experiments it started.
          </p>
        </form>
      </details>
    </section>
  );
}
