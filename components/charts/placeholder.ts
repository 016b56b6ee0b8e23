import { createContext } from 'react';

/**
 * What a chart with nothing drawn yet says. A live card waits for samples; a finished card whose
 * samples the page no longer holds says it is reading them from history, or that none were recorded.
 */
export const ChartPlaceholder = createContext('Waiting for samples…');
