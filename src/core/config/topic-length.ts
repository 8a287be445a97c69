/**
 * A channel's name becomes part of MQTT topics, whose length is limited. The configuration
 * pipeline checks it without knowing MQTT: whoever puts a program together (the command line,
 * the demo, a test) hands the pipeline the check, made by the MQTT layer for the topics the
 * device will have.
 */

/** Why a channel with these control ids cannot be published (a topic too long), or null. */
export type TopicLengthCheck = (controlIds: readonly string[]) => string | null;
