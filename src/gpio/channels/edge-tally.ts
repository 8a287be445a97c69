/**
 * Edge events as the kernel delivered them, for the health document: how many came, and how many
 * it dropped. Each event carries a per-line sequence number that starts at 1 with the request; a
 * gap between two events of a line is that many events lost (the kernel's event FIFO was full).
 */
import type { EdgeEvent } from '../../hw/gpio/backend.js';

export class EdgeTally {
  edges = 0;
  eventsLost = 0;

  /** A counter for the events of one line request (sequence numbers start again with each). */
  forRequest(): (event: EdgeEvent) => void {
    const lastSeqno = new Map<number, number>();
    return (event) => {
      this.edges++;
      const last = lastSeqno.get(event.offset) ?? 0;
      lastSeqno.set(event.offset, event.lineSeqno);
      const lost = event.lineSeqno - last - 1;
      if (lost > 0) this.eventsLost += lost;
    };
  }
}
