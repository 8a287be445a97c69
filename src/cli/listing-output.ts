/**
 * How both hardware listings (`--list-lines`, `--list-channels`) end: the document on stdout, as
 * JSON (one document, for the console and scripts) or as a table for people (`--human`), and the
 * exit code: 0 when anything could be listed, 1 with one line saying why when nothing could. The
 * document is printed either way, so a caller parsing it always gets one.
 */
import type { ListFormat } from './cli-options.js';
import type { CliIo } from './cli-io.js';

export interface Listing<Doc> {
  readonly document: Doc;
  /** Why nothing could be listed at all; undefined when something was. */
  readonly nothingListed: string | undefined;
}

/** Prints the listing as JSON, or through `asTable` with `--human`; returns the exit code. */
export function printListing<Doc>(
  listing: Listing<Doc>,
  asTable: (document: Doc) => string,
  format: ListFormat,
  binary: string,
  io: CliIo,
): number {
  io.stdout.write(format === 'human' ? asTable(listing.document) : JSON.stringify(listing.document, null, 2) + '\n');
  if (listing.nothingListed === undefined) return 0;
  io.stderr.write(`${binary}: ${listing.nothingListed}\n`);
  return 1;
}

/**
 * Rows of cells as left-aligned columns two spaces apart, each line indented by `indent`. A row
 * shorter than the longest (an error in place of the values) spills over the columns after its
 * last cell without widening them.
 */
export function table(rows: readonly (readonly string[])[], indent = '  '): string[] {
  const full = Math.max(...rows.map((row) => row.length));
  const widths: number[] = [];
  for (const row of rows) {
    if (row.length === full) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  }
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
  );
}
