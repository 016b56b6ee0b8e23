/** The CSV part of a lab that has no columns of its own (its runs' rows carry what every run has). No imports: a lab's shared half may use it. */
export const NO_CSV_COLUMNS = { columns: [] as readonly string[], cells: () => ({}) };
