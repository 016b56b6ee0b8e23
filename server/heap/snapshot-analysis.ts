// MERGE placeholder until the analyzer lands
export async function analyzeSnapshot(file: string): Promise<Record<string, unknown>> { return { file }; }
