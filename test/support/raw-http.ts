import { once } from 'node:events';
import { connect } from 'node:net';
import type { Socket } from 'node:net';

/** One HTTP/1.1 answer as it came over the wire. */
export interface RawAnswer {
  readonly status: number;
  /** Header lines as sent, name and value, in order. */
  readonly fields: readonly (readonly [string, string])[];
  readonly body: Buffer;
  /** The whole answer, head and body, byte for byte. */
  readonly bytes: Buffer;
}

/**
 * A client that writes bytes as they are to a server and splits what comes back into answers
 * (framed by Content-Length, the only framing the routes under test use): for requests no
 * well-behaved client library would send, pipelining, and checking answers byte for byte.
 */
export interface RawConnection {
  readonly socket: Socket;
  write(bytes: string | Buffer): void;
  /** Resolves with the next `count` answers, or rejects if the server closes first or `timeoutMs` passes. */
  answers(count: number, timeoutMs?: number): Promise<RawAnswer[]>;
  /** Resolves once the server has closed the connection. */
  closed(): Promise<void>;
  end(): void;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Splits the first whole answer off `bytes`, if it has arrived. */
const takeAnswer = (bytes: Buffer): { answer: RawAnswer; rest: Buffer } | undefined => {
  const end = bytes.indexOf(HEAD_END);
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = bytes.toString('latin1', 0, end).split('\r\n');
  const fields = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  const length = Number(fields.find(([name]) => name.toLowerCase() === 'content-length')?.[1] ?? 0);
  const total = end + HEAD_END.length + length;
  if (bytes.length < total) return undefined;
  const answer = { status: Number(statusLine.split(' ')[1]), fields, body: bytes.subarray(end + HEAD_END.length, total), bytes: bytes.subarray(0, total) };
  return { answer, rest: bytes.subarray(total) };
};

export const openRaw = async (port: number): Promise<RawConnection> => {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received: Buffer = Buffer.alloc(0);
  let isClosed = false;
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const w of waiters) w();
  };
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    isClosed = true;
    wake();
  });
  const until = async (ready: () => boolean, timeoutMs: number, what: string): Promise<void> => {
    if (ready()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; received ${JSON.stringify(received.toString('latin1'))}`));
      }, timeoutMs);
      const check = (): void => {
        let done: boolean;
        try {
          done = ready();
        } catch (err) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        }
        if (!done) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
    });
  };
  return {
    socket,
    write: (bytes) => socket.write(bytes),
    answers: async (count, timeoutMs = 2000) => {
      const got: RawAnswer[] = [];
      await until(
        () => {
          for (let taken = takeAnswer(received); taken !== undefined && got.length < count; taken = takeAnswer(received)) {
            got.push(taken.answer);
            received = taken.rest;
          }
          if (got.length < count && isClosed) throw new Error(`closed after ${String(got.length)} of ${String(count)} answers`);
          return got.length === count;
        },
        timeoutMs,
        `${String(count)} answers`,
      );
      return got;
    },
    closed: () => until(() => isClosed, 2000, 'the server to close the connection'),
    end: () => socket.end(),
  };
};

/** The value of the first header line named `name` (any case). */
export const field = (answer: RawAnswer, name: string): string | undefined => answer.fields.find(([n]) => n.toLowerCase() === name)?.[1];
