/**
 * What the configuration API sends the page (config/config-routes.ts), as types the server
 * compiles against and the page's tsc check reads (web/config*.js import them in JSDoc): the
 * form's description (config/editor-schema.ts makes it from the service's schema) and the
 * controller's hardware listing (config/hardware-check.ts). Types only: nothing of it runs.
 */

export type FieldKind = 'boolean' | 'enum' | 'string' | 'integer' | 'number' | 'gpio' | 'adc-channel' | 'bindings';

/** The parts of one binding (a GPIO input's `bindings`): its titles, and the choices of two. */
export interface BindingModel {
  readonly title: string;
  readonly gesture: { readonly title: string; readonly choices: ReadonlyArray<{ value: string; title: string }> };
  readonly output: { readonly title: string };
  readonly action: { readonly title: string; readonly choices: ReadonlyArray<{ value: string; title: string }> };
}

export interface FieldModel {
  readonly key: string;
  readonly kind: FieldKind;
  readonly title: string;
  readonly description: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  /** enum: the values and their titles. */
  readonly choices?: ReadonlyArray<{ value: string; title: string }>;
  /** An optional setting's "not in the file" choice (enum) or placeholder (input). */
  readonly unsetText?: string;
  /** Shown only when each named sibling has one of these values. */
  readonly showWhen?: Readonly<Record<string, readonly unknown[]>>;
  /** gpio: the titles of the chip, the offset and the deprecated number. */
  readonly parts?: Readonly<Record<string, { title: string; description: string }>>;
  /** bindings: what one row has. */
  readonly binding?: BindingModel;
}

export interface VariantModel {
  /** `custom`, `system_input`, ... (the definition's name). */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** The reserved names a system variant takes (its name field's `enum`); empty for the others. */
  readonly names: readonly string[];
  readonly fields: readonly FieldModel[];
  /** What a new channel of this variant starts with. */
  readonly start: Readonly<Record<string, unknown>>;
}

export interface FormModel {
  readonly language: 'en' | 'ru';
  readonly title: string;
  readonly description: string;
  readonly settings: readonly FieldModel[];
  // The list has no description: the schema's (`Items are channel objects.`) tells a schema's
  // reader what its items are; in the form its heading and its rows say it.
  readonly list: {
    readonly key: string;
    readonly title: string;
    /** `name` (GPIO) or `id` (ADC). */
    readonly idKey: string;
    readonly variants: readonly VariantModel[];
  };
}

export interface GpioLineInfo {
  readonly offset: number;
  readonly name: string;
  readonly consumer: string;
  readonly direction: string;
  readonly used: boolean;
  readonly active_low: boolean;
}

export interface GpioChipInfo {
  readonly path: string;
  readonly name: string;
  readonly label: string;
  readonly lines: number;
  readonly line_info?: readonly GpioLineInfo[];
  readonly error?: string;
}

export interface IioDeviceInfo {
  readonly device: string;
  readonly target: string;
  readonly name: string;
  readonly channels?: ReadonlyArray<{ channel: string; raw?: number; scale?: number; volts?: number }>;
  readonly error?: string;
}

export type HardwareList = { readonly chips: readonly GpioChipInfo[] } | { readonly devices: readonly IioDeviceInfo[] };

export type HardwareAnswer =
  { readonly available: true; readonly list: HardwareList } | { readonly available: false; readonly why: string };
