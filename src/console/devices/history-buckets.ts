/**
 * Time buckets (a control's minutes, a meter's hours) in typed-array columns, the `kept` newest
 * bucket numbers at most, with room made as buckets fill. A ring of `kept` slots made up front
 * cost the same 34 KiB for a control published once as for one published every second, so a
 * client making up controls grew the console by 54 KiB a control. Here the arrays start with
 * FIRST_ROWS rows (an hour of minutes: a control published once costs 1.5 KiB) and grow once, to
 * `kept`: growing in doubling steps left each step's arrays as garbage that malloc keeps, and 200
 * controls filled to their bounds took 20 MiB more RSS than with fixed arrays (one step: none).
 */

type Column = Float32Array | Float64Array | Uint32Array;
type ColumnType = new (length: number) => Column;

const FIRST_ROWS = 64;

export class BucketQueue {
  /** Bucket numbers of rows [start, end), ascending. */
  private numbers: Int32Array;
  private data: Column[];
  private start = 0;
  private end = 0;

  constructor(
    /** Buckets kept: those within `kept` of the newest. */
    private readonly kept: number,
    private readonly types: readonly ColumnType[],
    firstRows = FIRST_ROWS,
  ) {
    const rows = Math.min(firstRows, kept);
    this.numbers = new Int32Array(rows);
    this.data = types.map((Type) => new Type(rows));
  }

  /** Column `c` (index rows with `row` and `rows`). */
  column(c: number): Column {
    return this.data[c]!;
  }

  /** Bytes of the arrays (what a control's buckets cost). */
  get bytes(): number {
    return this.numbers.byteLength + this.data.reduce((sum, column) => sum + column.byteLength, 0);
  }

  /**
   * The row of bucket `n`, added with its columns at 0 when new; buckets no longer within `kept`
   * of the newest are dropped. Undefined for a bucket already past (a clock set back by more
   * than the span kept).
   */
  row(n: number): number | undefined {
    const last = this.end > this.start ? this.numbers[this.end - 1]! : undefined;
    if (last === undefined || n > last) {
      while (this.start < this.end && this.numbers[this.start]! <= n - this.kept) this.start++;
      return this.insert(this.end, n);
    }
    for (let i = this.end - 1; i >= this.start; i--) {
      if (this.numbers[i] === n) return i;
      if (this.numbers[i]! < n) return this.insert(i + 1, n);
    }
    return n > last - this.kept ? this.insert(this.start, n) : undefined;
  }

  /** [bucket number, row] of the buckets within `kept` of `newest` (and not after it), oldest first. */
  *rows(newest: number): Generator<[number, number]> {
    for (let i = this.start; i < this.end; i++) {
      const n = this.numbers[i]!;
      if (n > newest - this.kept && n <= newest) yield [n, i];
    }
  }

  /** Puts a new row for `n` at `at` (rows from `at` on move up one). */
  private insert(at: number, n: number): number {
    if (this.end === this.numbers.length) at = this.makeRoom(at);
    const move = (column: Int32Array | Column): void => {
      column.copyWithin(at + 1, at, this.end);
    };
    move(this.numbers);
    this.data.forEach(move);
    this.numbers[at] = n;
    for (const column of this.data) column[at] = 0;
    this.end++;
    return at;
  }

  /** Room for one more row at the end: rows moved down to 0, or arrays of `kept` rows. Returns `at` moved with them. */
  private makeRoom(at: number): number {
    const rows = this.end - this.start;
    const length = rows < this.numbers.length ? this.numbers.length : Math.max(this.kept, this.numbers.length);
    const moved = <T extends Int32Array | Column>(column: T, Type: new (length: number) => T): T => {
      const next = length === column.length ? column : new Type(length);
      next.set(column.subarray(this.start, this.end) as never);
      return next;
    };
    this.numbers = moved(this.numbers, Int32Array);
    this.data = this.data.map((column, c) => moved(column, this.types[c]! as new (length: number) => Column));
    const shift = this.start;
    this.start = 0;
    this.end = rows;
    return at - shift;
  }
}
