/**
 * Timing hooks for the benchmark, kept on `window.__streamLab`: when Start was clicked, when the
 * first sample of the experiment it started was on screen, and how old samples are when drawn.
 */
import type { Experiment } from '@/lib/protocol';

export interface StreamLabInstrumentation {
  startClickedAt: number | null;
  /** The timed experiment's experiment.created reached the page. */
  createdAt: number | null;
  /** Its first sample reached the page (before any drawing). */
  firstSampleReceivedAt: number | null;
  firstSampleDrawnAt: number | null;
  /** Date.now() - sample.at when the batch holding the sample was rendered; the last 2000. */
  sampleAgesMs: number[];
}

declare global {
  interface Window {
    __streamLab?: StreamLabInstrumentation;
  }
}

const MAX_AGES = 2000;
let awaitingExperiment = false;
let trackedRunIds = new Set<string>();

function instrumentation(): StreamLabInstrumentation {
  window.__streamLab ??= { startClickedAt: null, createdAt: null, firstSampleReceivedAt: null, firstSampleDrawnAt: null, sampleAgesMs: [] };
  return window.__streamLab;
}

/** Makes `window.__streamLab` exist before anything is clicked, so a benchmark can poll it. */
export function initInstrumentation(): void {
  instrumentation();
}

/** Start was clicked: the next experiment the server creates is the one to time. */
export function markStartClicked(): void {
  const i = instrumentation();
  i.startClickedAt = Date.now();
  i.createdAt = null;
  i.firstSampleReceivedAt = null;
  i.firstSampleDrawnAt = null;
  awaitingExperiment = true;
  trackedRunIds = new Set();
}

/** Called for each experiment.created; the first one after a click becomes the timed one. */
export function noteExperimentCreated(experiment: Experiment): void {
  if (!awaitingExperiment) return;
  awaitingExperiment = false;
  trackedRunIds = new Set(experiment.runIds);
  instrumentation().createdAt = Date.now();
}

/** Called for each run.samples as it arrives, before React or a chart sees it. */
export function noteSamplesReceived(runId: string): void {
  const i = instrumentation();
  if (i.firstSampleReceivedAt === null && i.startClickedAt !== null && trackedRunIds.has(runId)) i.firstSampleReceivedAt = Date.now();
}

/** Samples just committed to the screen: record their ages and the first-drawn time. */
export function recordDrawnSamples(drawn: ReadonlyArray<{ runId: string; ats: readonly number[] }>): void {
  if (drawn.length === 0) return;
  const i = instrumentation();
  const now = Date.now();
  for (const { runId, ats } of drawn) {
    for (const at of ats) i.sampleAgesMs.push(now - at);
    if (i.firstSampleDrawnAt === null && i.startClickedAt !== null && ats.length > 0 && trackedRunIds.has(runId)) {
      i.firstSampleDrawnAt = now;
    }
  }
  if (i.sampleAgesMs.length > MAX_AGES) i.sampleAgesMs.splice(0, i.sampleAgesMs.length - MAX_AGES);
}
