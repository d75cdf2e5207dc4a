import { startOpenbid } from './lib/servers.js';
import { vastOfSize } from './cache.js';

export interface MemoryResult {
  readonly writtenMiB: number;
  readonly seconds: number;
  readonly rssMiB: number;
  readonly peakMiB: number;
  readonly target: number;
  readonly pass: boolean;
}

const MiB = 1024 * 1024;

/**
 * Writes `totalMiB` of values into a memory store capped at `storeMiB` and reports the process's
 * RSS afterwards (and its peak). Bounded: stops after the volume or `maxSeconds`, whichever first.
 */
export const memorySuite = async (opts: { totalMiB: number; storeMiB: number; targetMiB: number; maxSeconds: number }): Promise<MemoryResult> => {
  const openbid = await startOpenbid({ cache: { backend: { memory: { max_size_bytes: opts.storeMiB * MiB } } } });
  try {
    const value = vastOfSize(10_000);
    const body = JSON.stringify({ puts: Array.from({ length: 10 }, () => ({ type: 'xml', value })) });
    const perRequest = 10 * Buffer.byteLength(value);
    const requests = Math.ceil((opts.totalMiB * MiB) / perRequest);
    const deadline = Date.now() + opts.maxSeconds * 1000;
    const started = Date.now();
    let next = 0;
    let written = 0;
    let lastUuid = '';
    const worker = async (): Promise<void> => {
      while (next < requests && Date.now() < deadline) {
        next++;
        const res = await fetch(`${openbid.url}/cache`, { method: 'POST', body });
        if (res.status !== 200) throw new Error(`POST /cache answered ${res.status}: ${await res.text()}`);
        lastUuid = ((await res.json()) as { responses: { uuid: string }[] }).responses[9]?.uuid ?? lastUuid;
        written += perRequest;
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const seconds = (Date.now() - started) / 1000;
    const latest = await fetch(`${openbid.url}/cache?uuid=${lastUuid}`);
    if ((await latest.text()) !== value) throw new Error('the newest value is not readable after the run');
    const { rssMiB, peakMiB } = openbid.memory();
    return { writtenMiB: written / MiB, seconds, rssMiB, peakMiB, target: opts.targetMiB, pass: rssMiB < opts.targetMiB && written >= opts.totalMiB * MiB };
  } finally {
    await openbid.stop();
  }
};
