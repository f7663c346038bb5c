/** A row's value as JSON gives it back: a timestamp is text again. */
type JsonValue<Value> = Value extends Date ? string : Value;

/** A row nested as JSON in a statement's answer (row_to_json, json_agg): its timestamp columns are text. */
export type Stored<Row> = { [Column in keyof Row]: JsonValue<Row[Column]> };

/** The columns of a row type that hold timestamps. */
export type DateColumn<Row> = {
  [Column in keyof Row]-?: [Extract<Row[Column], Date>] extends [never] ? never : Column;
}[keyof Row] &
  string;

/**
 * A row read back from JSON, with its timestamp columns (`dates`) Dates again as the row type says; a null stays
 * null.
 */
export function withDates<Row>(row: Stored<Row>, dates: readonly DateColumn<Row>[]): Row {
  const out: Record<string, unknown> = { ...row };
  for (const column of dates) {
    const value = out[column];
    if (typeof value === 'string') out[column] = new Date(value);
  }
  return out as Row;
}
