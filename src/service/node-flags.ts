/**
 * The Node.js options every ctl-mqtt process runs with: the installed commands pass them, the
 * binaries' `#!` line has them, and the demo and the bench start the services with them, so what is
 * measured is what runs. Both trade nothing a controller service needs for memory (measured on a
 * 2-core x86-64 VM with the GPIO service at 12 channels: RSS 70 -> 60 MiB against 39 MiB for a bare
 * Node process, which these options do not change):
 * - `--v8-pool-size=1`: one V8 worker thread (for background compilation and GC) instead of four.
 *   Each worker thread keeps malloc arenas and compiler memory of its own; with a heap of ~10 MiB
 *   the parallelism buys nothing. RSS -7 MiB, and a start with 256 channels ~10 % faster (fewer
 *   threads competing with the main one and the broker for the cores).
 * - `--max-semi-space-size=1`: a young generation of at most 1 MiB per semi-space (V8 may grow it to
 *   16 MiB under allocation bursts such as the first publish of every control).
 *   RSS -3 MiB; the scavenges it adds are not visible in the start-up or idle figures.
 */
export const NODE_FLAGS: readonly string[] = ['--v8-pool-size=1', '--max-semi-space-size=1'];
