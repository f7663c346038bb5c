// The parameters of one statement, numbered as they are added, so that no repository counts placeholders by hand.

export class SqlParams {
  readonly values: unknown[];

  /** `leading` are the statement's first parameters ($1 onwards), as a shared fragment of SQL numbers them. */
  constructor(leading: readonly unknown[] = []) {
    this.values = [...leading];
  }

  /** The placeholder of one more parameter, with its cast when `type` is given. */
  add(value: unknown, type?: string): string {
    this.values.push(value);
    return `$${this.values.length}${type === undefined ? '' : `::${type}`}`;
  }

  /** The placeholders of several parameters, comma-separated (each with its cast when `types` are given). */
  list(values: readonly unknown[], types?: readonly string[]): string {
    return values.map((value, i) => this.add(value, types?.[i])).join(', ');
  }
}
