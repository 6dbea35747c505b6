import type { Queryable } from '../db/sql.ts';
import { findProcessingStatuses, type ProcessingStatusRow } from '../db/media.ts';

/**
 * How long a read answers later requests for the same job from memory. Short enough that nobody
 * sees the difference (a poll waits 0…2 s at first, then longer) and that another process's change
 * shows as soon as it would anyway; long enough that a job polled by many clients at once (a
 * thundering herd, a shared page) costs the database a read per interval, not one per request.
 */
export const STATUS_FRESH_MS = 50;

/**
 * The processing-status reads (issue 19 item 5), polled often and without auth, as one query for
 * every request waiting: the requests that arrive together are read together once the event loop
 * has taken them all in; those that arrive while that read is on its way wait for the next one, which reads all their ids together (each id
 * once, however many ask). So every answer comes from a read that started after its request
 * arrived — as fresh as a query of its own, whichever process or worker changed the job — and a
 * burst of polls (a page shown again, many clients) costs the database one query, not one each.
 * A job read less than STATUS_FRESH_MS ago is answered from that read; a change this process makes
 * itself (a cancel, a delete) is read fresh at once (`forget`).
 */
export interface StatusReader {
  read(id: string): Promise<ProcessingStatusRow | null>;
  /** The job changed here: its next request reads it again. */
  forget(id: string): void;
}

interface Waiter {
  resolve(row: ProcessingStatusRow | null): void;
  reject(error: unknown): void;
}

/** At most this many ids in one query (a long queue is read in several). */
const BATCH_MAX_IDS = 500;

/** Past this many remembered jobs, those read too long ago are dropped. */
const REMEMBERED_MAX = 10_000;

export interface StatusReaderOptions {
  /** STATUS_FRESH_MS unless a test says otherwise; 0 remembers nothing. */
  freshMs?: number;
  /** The clock (ms), for tests. */
  now?: () => number;
}

export function createStatusReader(db: Queryable, { freshMs = STATUS_FRESH_MS, now = () => performance.now() }: StatusReaderOptions = {}): StatusReader {
  let waiting = new Map<string, Waiter[]>();
  let reading = false;
  const remembered = new Map<string, { row: ProcessingStatusRow; readAt: number }>();

  function remember(rows: Map<string, ProcessingStatusRow>, readAt: number): void {
    if (freshMs <= 0) return;
    if (remembered.size > REMEMBERED_MAX) {
      for (const [id, entry] of remembered) if (readAt - entry.readAt >= freshMs) remembered.delete(id);
    }
    for (const [id, row] of rows) remembered.set(id, { row, readAt });
  }

  /** Takes the waiting ids (at most BATCH_MAX_IDS) off the queue. */
  function nextBatch(): Map<string, Waiter[]> {
    if (waiting.size <= BATCH_MAX_IDS) {
      const batch = waiting;
      waiting = new Map();
      return batch;
    }
    const batch = new Map<string, Waiter[]>();
    for (const [id, waiters] of waiting) {
      if (batch.size === BATCH_MAX_IDS) break;
      batch.set(id, waiters);
      waiting.delete(id);
    }
    return batch;
  }

  async function drain(): Promise<void> {
    try {
      while (waiting.size > 0) {
        const batch = nextBatch();
        try {
          const readAt = now();
          const rows = await findProcessingStatuses(db, [...batch.keys()]);
          remember(rows, readAt);
          for (const [id, waiters] of batch) for (const waiter of waiters) waiter.resolve(rows.get(id) ?? null);
        } catch (error) {
          for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
        }
      }
    } finally {
      reading = false;
    }
  }

  return {
    read(id) {
      const known = remembered.get(id);
      if (known) {
        if (now() - known.readAt < freshMs) return Promise.resolve(known.row);
        remembered.delete(id);
      }
      return new Promise((resolve, reject) => {
        const waiters = waiting.get(id);
        if (waiters) waiters.push({ resolve, reject });
        else waiting.set(id, [{ resolve, reject }]);
        if (reading) return;
        // Read after the requests that arrived with this one have been parsed too (setImmediate
        // runs after the event loop's I/O phase): PGlite runs a query inside the call, so one
        // started here would end before the next request of the same burst is even read.
        reading = true;
        setImmediate(() => void drain());
      });
    },
    forget(id) {
      remembered.delete(id);
    },
  };
}
