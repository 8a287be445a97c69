/**
 * Reading a node of the kernel's device tree as sysfs shows it
 * (`/sys/firmware/devicetree/base/...`): a node is a directory, its child nodes are directories
 * and its properties are files. A property holds big-endian 32-bit cells (numbers, phandles), or
 * NUL-terminated strings, or nothing at all (a flag such as `input`).
 *
 * A property that is there but cannot mean what the reader asks for is a CtlError
 * CONFIG_INVALID naming the property's path: the device tree is the board's own configuration,
 * and a service cannot be set up from a broken one (exit 6).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CtlError, errnoOf, messageOf } from '../../core/errors.js';
import { readPropertyFile } from './property-file.js';

export { deviceTreeBase } from './dt-path.js';

/** The error of a property that is there but malformed. */
export function malformedProperty(path: string, rule: string): CtlError {
  return new CtlError('CONFIG_INVALID', `${path}: ${rule}`);
}

export class DtNode {
  constructor(readonly path: string) {}

  /** True when the node is there. */
  async exists(): Promise<boolean> {
    try {
      return (await stat(this.path)).isDirectory();
    } catch {
      return false;
    }
  }

  /** A child node. */
  child(name: string): DtNode {
    return new DtNode(join(this.path, name));
  }

  /** Names of the child nodes, in code point order (the same on every machine, unlike a locale's). */
  async childNames(): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(this.path, { withFileTypes: true });
    } catch (err) {
      throw unreadable(this.path, err);
    }
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** True when the node has the property (a flag property has no value at all). */
  async has(name: string): Promise<boolean> {
    return (await this.raw(name)) !== undefined;
  }

  /** The raw bytes of a property; undefined when the node does not have it (see property-file.ts). */
  raw(name: string): Promise<Buffer | undefined> {
    return readPropertyFile(join(this.path, name));
  }

  /**
   * The cells of a property as unsigned numbers; undefined when it is absent. `count` is the
   * number of cells the property must have.
   */
  async cells(name: string, count?: number): Promise<number[] | undefined> {
    const bytes = await this.raw(name);
    if (bytes === undefined) return undefined;
    const path = join(this.path, name);
    if (bytes.length === 0 || bytes.length % 4 !== 0) {
      throw malformedProperty(path, `expected 32-bit cells, got ${bytes.length} byte(s)`);
    }
    const cells: number[] = [];
    for (let i = 0; i < bytes.length; i += 4) cells.push(bytes.readUInt32BE(i));
    if (count !== undefined && cells.length !== count) {
      throw malformedProperty(path, `expected ${count} cell(s), got ${cells.length}`);
    }
    return cells;
  }

  /** A one-cell number property; undefined when it is absent. */
  async u32(name: string): Promise<number | undefined> {
    return (await this.cells(name, 1))?.[0];
  }

  /** A property holding one NUL-terminated string; undefined when it is absent. */
  async string(name: string): Promise<string | undefined> {
    const bytes = await this.raw(name);
    if (bytes === undefined) return undefined;
    const path = join(this.path, name);
    const end = bytes.indexOf(0);
    // One string only: a list of strings, or cells, have a NUL before the end (or none at all).
    if (end !== bytes.length - 1) throw malformedProperty(path, 'expected one NUL-terminated string');
    const text = bytes.subarray(0, end).toString('utf8');
    // Printable text only: anything else is a cell value read as a string.
    if (text === '' || /[\u0000-\u001f\u007f\ufffd]/.test(text)) {
      throw malformedProperty(path, 'expected a non-empty string of printable characters');
    }
    return text;
  }
}

function unreadable(path: string, err: unknown): CtlError {
  return new CtlError('HW_IO', `cannot read ${path}: ${errnoOf(err) ?? messageOf(err)}`);
}
