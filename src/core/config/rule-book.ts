/**
 * A book of rules: each rule has an id and one English template (`must be <= {limit}`) whose
 * `{name}` placeholders are filled with the rule's parameters. The checks write their problems
 * with it, so a problem line's text is always the template of one rule; and because it is, the
 * book can also read a line back into its rule and parameters. That is how a problem crosses a
 * process boundary without a second format: `-J` prints English lines (which the Wiren Board
 * editor and scripts parse), and the web console reads them back to say them in the page's
 * language.
 */

/** A rule's parameters, as they appear in its text. */
export type RuleParams = Readonly<Record<string, string | number>>;

/** A message read back: its rule, the parameters as written, and the `(got VALUE)` part's value. */
export interface ReadRule<Id extends string> {
  readonly id: Id;
  readonly params: Readonly<Record<string, string>>;
  /** The offending value as shown after `got`, when the message has one. */
  readonly got?: string;
}

/** What a placeholder may hold when a message is read back; any text unless named here. */
export const NUMBER_PATTERN = '-?[0-9][0-9.,eE+-]*';

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** The names of a template's placeholders, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** A template with its placeholders filled in (a missing parameter is left as `{name}`). */
export function fillTemplate(template: string, params: RuleParams): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Reader<Id extends string> {
  readonly id: Id;
  readonly names: readonly string[];
  readonly pattern: RegExp;
  /** Characters of the template outside its placeholders: the most specific match wins. */
  readonly literal: number;
}

export class RuleBook<Id extends string> {
  private readers: Reader<Id>[] | undefined;

  /** `patterns`: what a placeholder of that name may hold (a regular expression's source). */
  constructor(
    private readonly templates: Readonly<Record<Id, string>>,
    private readonly patterns: Readonly<Record<string, string>> = {},
  ) {}

  /** Every rule id of the book. */
  ids(): Id[] {
    return Object.keys(this.templates) as Id[];
  }

  /** The English template of a rule. */
  template(id: Id): string {
    return this.templates[id];
  }

  /** The English text of a rule with these parameters. */
  text(id: Id, params: RuleParams = {}): string {
    return fillTemplate(this.templates[id], params);
  }

  /**
   * The rule a message is the text of (with an optional ` (got VALUE)` after it), or undefined
   * for a message of no rule of this book. When two templates fit, the one with more fixed text
   * is the rule (`(it has none)` rather than `(it has {known})`).
   */
  read(message: string): ReadRule<Id> | undefined {
    let best: { reader: Reader<Id>; match: RegExpExecArray } | undefined;
    for (const reader of (this.readers ??= this.compile())) {
      const match = reader.pattern.exec(message);
      if (match !== null && (best === undefined || reader.literal > best.reader.literal)) best = { reader, match };
    }
    if (best === undefined) return undefined;
    const { reader, match } = best;
    const params: Record<string, string> = {};
    reader.names.forEach((name, i) => (params[name] = match[i + 1]!));
    const got = match[reader.names.length + 1];
    return got === undefined ? { id: reader.id, params } : { id: reader.id, params, got };
  }

  private compile(): Reader<Id>[] {
    return this.ids().map((id) => {
      const template = this.templates[id];
      const names = placeholdersOf(template);
      let source = '';
      let last = 0;
      for (const m of template.matchAll(PLACEHOLDER)) {
        source += escapeRegExp(template.slice(last, m.index)) + `(${this.patterns[m[1]!] ?? '.+?'})`;
        last = m.index + m[0].length;
      }
      source += escapeRegExp(template.slice(last));
      const literal = template.replace(PLACEHOLDER, '').length;
      return { id, names, pattern: new RegExp(`^${source}(?: \\(got (.*)\\))?$`, 's'), literal };
    });
  }
}
