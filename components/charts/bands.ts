import { createContext } from 'react';
import type { TimeBand } from './uplot-options';

/**
 * Stretches of the time axis that every chart inside shades besides its own bands: a run card's
 * heap snapshot pauses, on whichever charts its lab draws (the charts never need to know why).
 */
export const ChartBands = createContext<readonly TimeBand[]>([]);
