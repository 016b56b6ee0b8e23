// Types for scripts/lib.mjs, which stays plain JS so the npm scripts run before anything is built.
import type { Page } from '@playwright/test';

export declare const root: string;
export declare const CHROMIUM_ARGS: string[];
export declare function buildIsStale(): boolean;
export declare function findChromium(): Promise<string | null>;
export declare function startServer(port: number, extraEnv?: Record<string, string>): Promise<{ url: string; stop(): void }>;
export declare function configureExperiment(page: Page, strategies: string[], values: Record<string, number | boolean>): Promise<void>;
