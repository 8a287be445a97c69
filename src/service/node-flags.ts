/**
 * The Node.js options every ctl-mqtt process runs with: the installed commands pass them, the
 * binaries' `#!` line has them, and the demo and the bench start the services with them, so what is
 * measured is what runs. Each trades nothing a controller service needs for memory (measured on a
 * 2-core x86-64 VM; the first two with the GPIO service at 12 channels: RSS 70 -> 60 MiB against 39
 * MiB for a bare Node process, which these options do not change):
 * - `--v8-pool-size=1`: one V8 worker thread (for background compilation and GC) instead of four.
 *   Each worker thread keeps malloc arenas and compiler memory of its own; with a heap of ~10 MiB
 *   the parallelism buys nothing. RSS -7 MiB, and a start with 256 channels ~10 % faster (fewer
 *   threads competing with the main one and the broker for the cores).
 * - `--max-semi-space-size=1`: a young generation of at most 1 MiB per semi-space (V8 may grow it to
 *   16 MiB under allocation bursts such as the first publish of every control).
 *   RSS -3 MiB; the scavenges it adds are not visible in the start-up or idle figures.
 * - `--no-opt`: no optimizing compiler (TurboFan; Maglev too on Node 22 and later); functions run
 *   in V8's interpreter and its baseline compiler (Sparkplug). The optimizing compiler's own code
 *   (3.4 MiB of the node binary's pages) and its output stay out of memory: the whole controller
 *   in one process 60.6 -> 56.0 MiB on x86-64 (Node 20; 74.2 -> 68.4 on Node 22), the ADC service
 *   alone 56.3 -> 47.9. What a service does per event is mostly system calls and MQTT packets, not
 *   hot JavaScript: idle CPU, CPU per button gesture, the ADC at 64 channels and a GPIO edge's time
 *   to MQTT stay within the runs' noise (BENCHMARKS.md, "V8's optimizing compiler"). Only a tight
 *   loop of edges in one process pays: 46 instead of 26 us per edge absorbed on x86-64, still
 *   ~20,000 edges a second.
 */
export const NODE_FLAGS: readonly string[] = ['--v8-pool-size=1', '--max-semi-space-size=1', '--no-opt'];
