/**
 * How a running service gets its configuration again on a reload: the same files, the same
 * checks and the same reporting as at start-up. Returns the new model, or undefined when the
 * configuration is invalid (its problems already reported; the running one stays).
 */
export type ConfigReloader<Model> = () => Model | undefined;
